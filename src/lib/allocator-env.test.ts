// The allocator settings reach the processes that need them (src/lib/allocator-env.ts): glibc's
// through the npm scripts that start the service (glibc reads them only at start-up), mimalloc's
// through the entry points before the canvas library loads; FFmpeg gets neither of ours.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { GLIBC_TUNABLES, ffmpegEnv, serviceProcessEnv } from './allocator-env.ts';

const root = new URL('../../', import.meta.url);
const scripts = (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: Record<string, string> }).scripts;

test('npm start and npm run worker start the service with GLIBC_TUNABLES, unless the environment has its own', () => {
  for (const [name, entry] of [
    ['start', 'dist/main.js'],
    ['worker', 'dist/worker.js'],
  ] as const) {
    const script = scripts[name]!;
    assert.ok(script.endsWith(` node ${entry}`), script);
    // The script's own shell words, with the service replaced by a process that prints what it got.
    const run = (env: NodeJS.ProcessEnv) =>
      execFileSync('/bin/sh', ['-c', script.replace(/node \S+$/, `"${process.execPath}" -p process.env.GLIBC_TUNABLES`)], {
        env,
        encoding: 'utf8',
      }).trim();
    assert.equal(run({ PATH: process.env.PATH }), GLIBC_TUNABLES, name);
    assert.equal(run({ PATH: process.env.PATH, GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }), 'glibc.malloc.arena_max=2', name);
  }
});

test("the processes the repository starts get the same; FFmpeg gets none of ours but keeps an operator's", () => {
  assert.equal(serviceProcessEnv({}).GLIBC_TUNABLES, GLIBC_TUNABLES);
  assert.equal(serviceProcessEnv({ GLIBC_TUNABLES: '' }).GLIBC_TUNABLES, '', 'set empty: measured without');
  assert.equal(ffmpegEnv({ GLIBC_TUNABLES, PATH: '/bin' }).GLIBC_TUNABLES, undefined);
  assert.equal(ffmpegEnv({ GLIBC_TUNABLES, PATH: '/bin' }).PATH, '/bin');
  assert.equal(ffmpegEnv({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }).GLIBC_TUNABLES, 'glibc.malloc.arena_max=2');
});

test('the entry points set the canvas allocator’s settings before anything else is imported', () => {
  for (const entry of ['src/main.ts', 'src/worker.ts']) {
    const firstImport = /^import .*$/m.exec(readFileSync(new URL(entry, root), 'utf8'))?.[0];
    assert.equal(firstImport, "import './memory-settings.ts';", entry);
  }
  // In a process that imports it, the variable is set (the canvas library reads it when it loads).
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', '-e', "await import('./src/memory-settings.ts'); console.log(process.env.MIMALLOC_PURGE_DELAY)"],
    {
      cwd: new URL('.', root),
      env: { PATH: process.env.PATH },
      encoding: 'utf8',
    },
  );
  assert.equal(out.trim(), '0');
});
