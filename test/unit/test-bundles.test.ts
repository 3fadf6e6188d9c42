// scripts/test-bundles.mjs, which compiles a run's test files: a bundle runs under plain Node (no
// tsx), each module sees its source file's import.meta.url, dirname and filename (how tests find their
// fixtures), shared modules load once, and a failure names the source's line with --enable-source-maps.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { bundleTestFiles } from '../../scripts/test-bundles.mjs';

const root = mkdtempSync(path.join(tmpdir(), 'test-bundles-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('a bundle runs without tsx, with each module’s own import.meta and its sources’ lines', async () => {
  mkdirSync(path.join(root, 'lib'));
  writeFileSync(
    path.join(root, 'lib/where.ts'),
    [
      'export const where: { url: string; dir: string; file: string } = {',
      '  url: import.meta.url,',
      '  dir: import.meta.dirname,',
      '  file: import.meta.filename,',
      '};',
      'export let loads = 0;',
      'loads++;',
      '',
    ].join('\n'),
  );
  writeFileSync(
    path.join(root, 'a.test.ts'),
    [
      "import { where, loads } from './lib/where.ts';",
      'const shared: number = loads;',
      "const own = await import('./lib/where.ts');",
      'console.log(JSON.stringify({ where, me: import.meta.url, shared, again: own.loads }));',
      "if (process.argv.includes('--fail')) throw new Error('on purpose');",
      '',
    ].join('\n'),
  );
  const bundles = await bundleTestFiles({ root, outdir: path.join(root, 'out'), entries: { 'a.test': 'a.test.ts' } });
  assert.deepEqual(bundles, { 'a.test': path.join('out', 'a.test.mjs') });

  const run = (...args: string[]) =>
    promisify(execFile)(process.execPath, ['--enable-source-maps', path.join(root, bundles['a.test']), ...args], {
      env: { ...process.env, NODE_OPTIONS: '' },
    });
  const seen = JSON.parse((await run()).stdout);
  assert.deepEqual(seen, {
    where: { url: pathToFileURL(path.join(root, 'lib/where.ts')).href, dir: path.join(root, 'lib'), file: path.join(root, 'lib/where.ts') },
    me: pathToFileURL(path.join(root, 'a.test.ts')).href,
    shared: 1,
    again: 1,
  });
  await assert.rejects(run('--fail'), (err: { stderr: string }) => err.stderr.includes(`${path.join(root, 'a.test.ts')}:5:`));
});
