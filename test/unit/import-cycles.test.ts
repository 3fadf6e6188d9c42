// scripts/import-cycles.mjs, the one import-cycle check of `npm run lint`: every code file (product,
// tests, scripts; TypeScript and JavaScript), type-only imports included.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';

const script = path.resolve(import.meta.dirname, '../../scripts/import-cycles.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'import-cycles-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const files = (tree: Record<string, string>) => {
  rmSync(dir, { recursive: true, force: true });
  for (const [rel, text] of Object.entries(tree)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
};
const check = () =>
  promisify(execFile)(process.execPath, [script, dir]).then(
    ({ stdout }) => ({ code: 0, out: stdout }),
    (err: { code: number; stderr: string }) => ({ code: err.code, out: err.stderr }),
  );

test('a cycle made of type-only imports fails, in a test file as in the product; a module without one passes', async () => {
  files({
    'test/a.ts': "import type { B } from './b.ts';\nexport type A = B;\n",
    'test/b.ts': "import { type A } from './a.js';\nexport type B = 1;\nexport const b = (a: A) => a;\n",
    'src/c.ts': "import { b } from '../test/b.ts';\nexport const c = b;\n",
  });
  const found = await check();
  assert.equal(found.code, 1);
  assert.match(found.out, /1 import cycle\(s\)/);
  assert.match(found.out, /2 files: test\/a\.ts test\/b\.ts/);

  files({
    'scripts/x.mjs': "import './y.mjs';\n",
    'scripts/y.mjs': "export default await import('./x.mjs');\n",
    'src/z.ts': 'export {};\n',
  });
  assert.match((await check()).out, /2 files: scripts\/x\.mjs scripts\/y\.mjs/, 'JavaScript modules, dynamic imports too');

  files({ 'src/a.ts': "import { b } from './b.ts';\nexport const a = b;\n", 'src/b.ts': 'export const b = 1;\n' });
  assert.deepEqual(await check(), { code: 0, out: 'import cycles: none in 2 files\n' });
});
