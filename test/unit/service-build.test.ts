// The compiled service's build (scripts/build-service.mjs): done again only when a source changed,
// and the bin's choice between the build and the TypeScript sources (bin/render-service.mjs).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { buildService, DIST_DIR } from '../../scripts/build-service.mjs';
import { currentStamp, ROOT } from '../../scripts/build-stamp.mjs';
import { loadOpenApiDocument, type ParsedOpenApi } from '../../src/lib/openapi-document.ts';

const run = promisify(execFile);
const NO_TYPESCRIPT = ['--import', path.join(ROOT, 'test/support/black-box/no-typescript.mjs')];

test('a build made from the current sources is not made again', async () => {
  await buildService(); // scripts/run-tests.mjs built it already; this makes sure
  const files = ['build.json', 'cli.js', 'main.js', 'render.worker.js'];
  const before = files.map((f) => statSync(path.join(DIST_DIR, f)).mtimeMs);
  const again = await buildService();
  assert.equal(again.built, false);
  assert.deepEqual(
    files.map((f) => statSync(path.join(DIST_DIR, f)).mtimeMs),
    before,
    'nothing was written',
  );
});

// A copy of the package's sources, so a source can change without touching this checkout's.
const copy = mkdtempSync(path.join(tmpdir(), 'render-service-build-'));
after(() => rmSync(copy, { recursive: true, force: true }));
for (const rel of ['src', 'db', 'handlers', 'codegen', 'bin', 'openapi.yaml', 'package.json', 'tsconfig.json'])
  cpSync(path.join(ROOT, rel), path.join(copy, rel), { recursive: true });
mkdirSync(path.join(copy, 'scripts'));
for (const script of ['build-service.mjs', 'build-stamp.mjs'])
  cpSync(path.join(ROOT, 'scripts', script), path.join(copy, 'scripts', script));
symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
const version = (...flags: string[]) =>
  run(process.execPath, [...flags, path.join(copy, 'bin/render-service.mjs'), '--version'], { env: { PATH: process.env.PATH ?? '' } });
const current = () => currentStamp(copy, path.join(copy, 'dist')) !== undefined;

test('without a build the bin runs the TypeScript sources through tsx', async () => {
  assert.equal(current(), false);
  assert.match((await version()).stdout, /^render-service \d+\.\d+\.\d+ \(engine /);
  await assert.rejects(version(...NO_TYPESCRIPT), /no-typescript: tsx/);
});

test('a changed source makes the build out of date until it is built again; a touch alone does not', async () => {
  assert.equal((await buildService({ root: copy })).built, true);
  assert.equal(current(), true);
  assert.match((await version(...NO_TYPESCRIPT)).stdout, /^render-service /, 'the bin runs the build, without tsx');

  const source = path.join(copy, 'src/lib/formats.ts');
  utimesSync(source, new Date(), new Date(Date.now() + 5_000));
  assert.equal(current(), true, 'the same content at a new time');
  assert.equal((await buildService({ root: copy })).built, false);

  appendFileSync(source, '\n// changed\n');
  assert.equal(current(), false);
  await assert.rejects(version(...NO_TYPESCRIPT), /no-typescript: tsx/, 'an out-of-date build is not run');
  assert.match((await version()).stdout, /^render-service /, 'the sources are');

  assert.equal((await buildService({ root: copy })).built, true);
  assert.equal(current(), true);
  assert.match(readFileSync(path.join(copy, 'dist/build.json'), 'utf8'), /"src\/lib\/formats\.ts"/);
});

test('the build carries the contract parsed, which the service loads instead of the YAML; a changed contract makes the build out of date', async () => {
  assert.equal((await buildService({ root: copy })).built, false, 'built by the test before');
  const contract = path.join(copy, 'openapi.yaml');
  const text = readFileSync(contract, 'utf8');
  const parsed = JSON.parse(readFileSync(path.join(copy, 'dist/openapi.json'), 'utf8')) as ParsedOpenApi;
  assert.equal(parsed.sourceSha256, createHash('sha256').update(text).digest('hex'));
  assert.deepEqual(parsed.document, parse(text), 'the same document as the YAML parsed');
  // The loader takes a copy whose sha256 is this openapi.yaml's (src/lib/openapi-document.test.ts): this one.
  assert.deepEqual(loadOpenApiDocument(contract, path.join(copy, 'dist/openapi.json')), parsed.document);
  appendFileSync(contract, '# changed\n');
  assert.equal(current(), false);
  assert.equal((await buildService({ root: copy })).built, true);
  const rebuilt = JSON.parse(readFileSync(path.join(copy, 'dist/openapi.json'), 'utf8')) as ParsedOpenApi;
  assert.equal(rebuilt.sourceSha256, createHash('sha256').update(`${text}# changed\n`).digest('hex'));
});

test('a top-level await anywhere in the bundle fails the build (a worker thread loads its module graph through require)', async () => {
  const lib = path.join(copy, 'src/generators/lib/random.ts');
  const before = readFileSync(lib, 'utf8');
  writeFileSync(lib, `${before}\nawait Promise.resolve();\n`);
  try {
    await assert.rejects(buildService({ root: copy }), /Top-level await is not available/);
  } finally {
    writeFileSync(lib, before);
  }
});
