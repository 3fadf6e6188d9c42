// Every code block of the README and docs/ is tested or says why not (test/support/readme-snippets.ts):
// unmarked ```sh blocks are run by test/integration/docs-snippets.test.ts, unmarked ```ts blocks are
// type-checked here, named ones are read by the test or script NAMED_SNIPPETS lists, and the rest
// carry `<!-- snippet: skip <reason> -->`. Also: every relative link and anchor resolves, and the
// README stays a front door.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { ROOT } from '../support/black-box/server-process.ts';
import { type DocBlock, INERT_LANGUAGES, NAMED_SNIPPETS, docBlocks, docFiles } from '../support/readme-snippets.ts';

const where = (b: DocBlock) => `${b.file}:${b.line}`;

test('every sh and ts block is run, type-checked, read by a named test, or marked skip with a reason', () => {
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const b of docBlocks()) {
    const m = b.marker;
    if (m?.kind === 'skip') {
      if (!m.reason) problems.push(`${where(b)}: <!-- snippet: skip --> needs a reason`);
    } else if (m?.kind === 'name') {
      const known = NAMED_SNIPPETS[m.name];
      if (!known)
        problems.push(`${where(b)}: no test reads a snippet named "${m.name}" (NAMED_SNIPPETS in test/support/readme-snippets.ts)`);
      else if (known.lang !== b.lang) problems.push(`${where(b)}: "${m.name}" must be a \`\`\`${known.lang} block`);
      if (seen.has(m.name)) problems.push(`${where(b)}: "${m.name}" is also at ${seen.get(m.name)}`);
      seen.set(m.name, where(b));
    } else if (b.lang !== 'sh' && b.lang !== 'ts' && !INERT_LANGUAGES.has(b.lang)) {
      problems.push(
        `${where(b)}: a \`\`\`${b.lang || '(no language)'} block that no test runs: make it \`\`\`sh or \`\`\`ts, give it an inert language, or mark it <!-- snippet: skip <reason> -->`,
      );
    }
  }
  for (const name of Object.keys(NAMED_SNIPPETS))
    if (!seen.has(name)) problems.push(`no block is marked "${name}", which ${NAMED_SNIPPETS[name]!.testedBy} reads`);
  assert.deepEqual(problems, []);
});

test('the unmarked ts blocks type-check in strict TypeScript', async () => {
  const blocks = docBlocks().filter((b) => b.lang === 'ts' && !b.marker);
  assert.ok(blocks.length > 0);
  // Inside the repository (git-ignored), so imports resolve from its node_modules as a client's would.
  const dir = mkdtempSync(path.join(ROOT, '.readme-snippet-ts-'));
  try {
    // What the blocks may import beside packages: the copyable signer, as a client copies it.
    copyFileSync(path.join(ROOT, 'clients/sign-render-url.ts'), path.join(dir, 'sign-render-url.ts'));
    for (const b of blocks) writeFileSync(path.join(dir, `${b.file.replace(/[/.]/g, '_')}_${b.line}.ts`), `${b.code}export {};\n`);
    const tsconfig = {
      compilerOptions: {
        strict: true,
        noUncheckedIndexedAccess: true,
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        allowImportingTsExtensions: true,
        skipLibCheck: true,
        noEmit: true,
        types: ['node'],
      },
      include: ['*.ts'],
    };
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    try {
      // A backstop against a hang, not a deadline: on a loaded machine tsc took over two minutes here.
      // TypeScript 5.9 by its own path, as sdk:check compiles the clients (node_modules/.bin/tsc may be TypeScript 7's).
      await promisify(execFile)(path.join(ROOT, 'node_modules/typescript/bin/tsc'), ['-p', 'tsconfig.json'], {
        cwd: dir,
        timeout: 900_000,
      });
    } catch (err) {
      const { stdout = '', stderr = '', killed } = err as { stdout?: string; stderr?: string; killed?: boolean };
      if (killed) assert.fail('tsc did not finish checking the docs’ TypeScript blocks within 15 minutes');
      // Name the page and line instead of the scratch file.
      const named = `${stdout}${stderr}`.replace(
        /(\S+?)_md_(\d+)\.ts/g,
        (_, f: string, line: string) => `${f.replace(/_/g, '/')}.md (block at line ${line})`,
      );
      assert.fail(`a TypeScript block in the docs does not type-check:\n${named}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  const counts = new Map<string, number>();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (/^ *```/.test(line)) inFence = !inFence;
    const h = !inFence && /^#{1,6} (.*)$/.exec(line);
    if (!h) continue;
    const base = h[1]!
      .replace(/`/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .trim()
      .replace(/\s/g, '-');
    const n = counts.get(base) ?? 0;
    counts.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

test('every relative link and anchor in the README, the changelog and docs/ resolves', () => {
  const problems: string[] = [];
  for (const file of [...docFiles(), 'CHANGELOG.md']) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    const prose = text.replace(/^ *```[\s\S]*?^ *```/gm, '').replace(/`[^`\n]*`/g, '');
    for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/i.test(target) || target.startsWith('/')) continue;
      const [rel, anchor] = target.split('#') as [string, string | undefined];
      const resolved = rel ? path.join(path.dirname(path.join(ROOT, file)), rel) : path.join(ROOT, file);
      if (!existsSync(resolved)) {
        problems.push(`${file}: ${target} does not exist`);
        continue;
      }
      if (anchor !== undefined && !(statSync(resolved).isFile() && anchors(readFileSync(resolved, 'utf8')).has(anchor)))
        problems.push(`${file}: ${target} has no heading #${anchor}`);
    }
  }
  assert.deepEqual(problems, []);
});

test('the README is a front door: at most 15 KB', () => {
  const bytes = statSync(path.join(ROOT, 'README.md')).size;
  assert.ok(bytes <= 15 * 1024, `README.md is ${bytes} bytes; move detail into docs/`);
});

test('docs/signed-url-test-vectors.json stays where the tests read it', () => {
  const vectors = JSON.parse(readFileSync(path.join(ROOT, 'docs/signed-url-test-vectors.json'), 'utf8')) as { vectors: unknown[] };
  assert.ok(vectors.vectors.length > 0);
});
