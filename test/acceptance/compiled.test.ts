// Black-box: the compiled JavaScript (dist/, scripts/build-service.mjs; scripts/run-tests.mjs builds it
// first) runs alone. Each process here is started with test/support/black-box/no-typescript.mjs,
// which fails it — and the service's render worker threads, which inherit the flag — on any attempt
// to load tsx or a TypeScript file;
// and each reads the files it needs (package.json, openapi.yaml, web/dist, fonts, the BudouX
// models) from the package root, not from beside the bundle.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { COMPILED, ROOT, runService } from '../support/black-box/server-process.ts';

const run = promisify(execFile);
const NO_TYPESCRIPT = ['--import', path.join(ROOT, 'test/support/black-box/no-typescript.mjs')];
const dir = mkdtempSync(path.join(tmpdir(), 'render-service-compiled-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A title that takes the Japanese phrase model and the CJK fonts. */
const TITLE = '今日は良い天気ですね、散歩に行きましょう';

const cli = (args: string[]) =>
  run(process.execPath, [...NO_TYPESCRIPT, 'bin/render-service.mjs', ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '' } });

test('the build wrote the compiled entry points', () => {
  for (const entry of ['cli', 'main', 'worker', 'render.worker']) assert.ok(existsSync(path.join(ROOT, 'dist', `${entry}.js`)), entry);
});

test('render-service --version runs the compiled CLI, without tsx', async () => {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const { stdout, stderr } = await cli(['--version']);
  assert.match(stdout, new RegExp(`^render-service ${pkg.version.replaceAll('.', '\\.')} \\(engine `));
  assert.equal(stderr, '');
});

test('the compiled CLI renders a Japanese title, broken into phrases (the BudouX model and the fonts found)', async () => {
  const out = path.join(dir, 'card.png');
  const { stderr } = await cli(['render', 'social-card', '--params', JSON.stringify({ title: TITLE }), '--size', '320x180', '-o', out]);
  assert.match(stderr, /card\.png: social-card png 320×180, \d+ bytes/);
  assert.equal(readFileSync(out).subarray(1, 4).toString('latin1'), 'PNG');
  const { stdout } = await cli(['inspect', out]);
  assert.equal((JSON.parse(stdout) as { params: { title: string } }).params.title, TITLE);
});

test('npm start runs the compiled service: health, the contract, the web app, the reference and a render in a worker thread', async () => {
  const key = 'svc_local_compiled_test_key_0123456789';
  const server = await runService({ DATA_DIR: path.join(dir, 'data'), API_KEYS: key }, undefined, [...NO_TYPESCRIPT, ...COMPILED]);
  try {
    const health = await fetch(`${server.url}/v1/health`);
    assert.equal(health.status, 200);
    assert.equal(((await health.json()) as { ok: boolean }).ok, true);
    const contract = await fetch(`${server.url}/v1/openapi.json`);
    assert.equal(contract.status, 200);
    assert.match(((await contract.json()) as { openapi: string }).openapi, /^3\.1/);
    const page = await fetch(`${server.url}/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<script[^>]+src="\/app-[A-Z0-9]+\.js"/);
    const reference = await fetch(`${server.url}/v1/reference`);
    assert.equal(reference.status, 200);
    const render = await fetch(`${server.url}/v1/generate/social-card`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ params: { title: TITLE }, size: { width: 320, height: 180 }, format: 'png' }),
    });
    assert.equal(render.status, 200, await render.clone().text());
    // The same bytes as the compiled CLI's: one engine, whichever way it is started.
    assert.deepEqual(Buffer.from(await render.arrayBuffer()), readFileSync(path.join(dir, 'card.png')));
    // Validation by the contract and by the generator's own schema (Ajv, bundled into dist/) names the field.
    const invalid = await fetch(`${server.url}/v1/generate/social-card`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ params: { palette: ['#zzzzzz', '#000000'] }, size: { width: 'wide', height: 180 } }),
    });
    assert.equal(invalid.status, 400);
    assert.match(JSON.stringify(await invalid.json()), /body\.size\.width/);
    const badParam = await fetch(`${server.url}/v1/generate/social-card`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ params: { palette: ['#zzzzzz', '#000000'] } }),
    });
    assert.equal(badParam.status, 400);
    assert.match(JSON.stringify(await badParam.json()), /body\.params\.palette\.0/);
    assert.doesNotMatch(server.stderr(), /no-typescript/);
  } finally {
    assert.equal(await server.stop(), 0, 'SIGTERM drains and exits');
  }
});
