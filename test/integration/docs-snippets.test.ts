// The shell examples of the README and docs/, run as written against a test app (local mode, SQLite):
// each page's unmarked ```sh blocks in order, in one bash, as a reader pastes them into one terminal
// after `npm start` — `KEY` holds the local key, `data/local-api-key` exists, and
// http://127.0.0.1:8080 reaches the test app. curl fails the page on any HTTP error (--fail-with-body)
// unless the command prints the status itself (-w); `npx render-service` runs the bin of this checkout.
// Blocks marked `<!-- snippet: skip <reason> -->` or named are not run here (test/support/readme-snippets.ts).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { ROOT } from '../support/black-box/server-process.ts';
import { BACKSTOP_MS } from '../support/black-box/waiters.ts';
import { startTestApp, TEST_LOCAL_KEY, type TestApp } from '../support/harness.ts';
import { docBlocks } from '../support/readme-snippets.ts';

const DOCUMENTED_BASE = 'http://127.0.0.1:8080';

/** What a reader's terminal has that the test must stand in for. */
function prelude(base: string): string {
  return `set -euo pipefail
export KEY=${JSON.stringify(TEST_LOCAL_KEY)}
curl() {
  local args=() a check=1
  for a in "$@"; do
    case "$a" in -w | -w* | --write-out) check=0 ;; esac
    args+=("\${a//${DOCUMENTED_BASE.replaceAll('/', '\\/')}/${base}}")
  done
  if [ "$check" = 1 ]; then command curl --fail-with-body --show-error "\${args[@]}"; else command curl "\${args[@]}"; fi
}
npx() {
  if [ "\${1:-}" = render-service ]; then shift; node ${JSON.stringify(path.join(ROOT, 'bin/render-service.mjs'))} "$@"
  else echo "the docs test runs no npx $1" >&2; return 1; fi
}
`;
}

const pages = new Map<string, { line: number; code: string }[]>();
for (const b of docBlocks()) if (b.lang === 'sh' && !b.marker) pages.set(b.file, [...(pages.get(b.file) ?? []), b]);

describe('the shell examples of the README and docs/, run against a test app', () => {
  let t: TestApp;
  let base: string;
  // Inside the repository (git-ignored), so `npx render-service` and node resolve as in a checkout.
  const dir = mkdtempSync(path.join(ROOT, '.readme-snippet-sh-'));
  before(async () => {
    t = await startTestApp('sqlite');
    base = `http://127.0.0.1:${(await t.listen()).port}`;
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  test('there are examples to run', () => assert.ok(pages.size >= 8, [...pages.keys()].join(', ')));

  for (const [file, blocks] of pages) {
    test(`${file}: ${blocks.length} block(s), in order`, async () => {
      const cwd = path.join(dir, file.replace(/[/.]/g, '_'));
      mkdirSync(path.join(cwd, 'data'), { recursive: true });
      writeFileSync(path.join(cwd, 'data', 'local-api-key'), `${TEST_LOCAL_KEY}\n`);
      const script = [prelude(base), ...blocks.map((b) => `echo ${JSON.stringify(`--- ${file}:${b.line}`)} >&2\n${b.code}`)].join('\n');
      writeFileSync(path.join(cwd, 'examples.sh'), script);
      try {
        // The script ends when its examples do; the timeout is only the shared backstop (a page of CLI
        // examples took over 180 s at load 25–35 on 2 cores).
        await promisify(execFile)('bash', ['examples.sh'], { cwd, timeout: BACKSTOP_MS, maxBuffer: 64 * 1024 * 1024 });
      } catch (err) {
        const { stdout = '', stderr = '' } = err as { stdout?: string; stderr?: string };
        const tail = (s: string) => s.split('\n').slice(-25).join('\n');
        assert.fail(
          `an example in ${file} failed (the last "--- file:line" names its block):\n${tail(stderr)}\n--- stdout:\n${tail(stdout)}`,
        );
      }
    });
  }
});
