// scripts/test-queue.mjs, which runs the test queue of scripts/run-tests.mjs: the files start in the
// order given (`node --test` sorts them by path), and any failure, or a file's process that exits
// early, makes the run fail.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';

const root = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'test-queue-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, body: string): string {
  const written = path.join(dir, `${name}.test.mjs`);
  writeFileSync(written, `import { test } from 'node:test';\n${body}\n`);
  return written;
}

async function queue(files: string[]): Promise<{ code: number; stdout: string }> {
  try {
    // As scripts/run-tests.mjs starts it: not as a file of this run (NODE_TEST_CONTEXT would make it report to this runner).
    const env = { ...process.env, NODE_TEST_CONTEXT: undefined };
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(root, 'scripts/test-queue.mjs'), '1', ...files], { env });
    return { code: 0, stdout };
  } catch (err) {
    const { code, stdout } = err as { code: number; stdout: string };
    return { code, stdout };
  }
}

test('the files run in the order given, not sorted by path', async () => {
  const files = ['zz', 'aa', 'mm'].map((n) => file(n, `test('ran ${n}', () => {});`));
  const run = await queue(files);
  assert.equal(run.code, 0, run.stdout);
  assert.deepEqual(run.stdout.match(/ran \w+/g), ['ran zz', 'ran aa', 'ran mm']);
});

test('a failing test or a file whose process exits early fails the run', async () => {
  const ok = file('ok', "test('fine', () => {});");
  assert.equal((await queue([ok, file('fails', "test('breaks', () => { throw new Error('no'); });")])).code, 1);
  assert.equal((await queue([ok, file('exits', 'process.exit(3);')])).code, 1);
});
