// scripts/test-context.mjs, which scripts/run-tests.mjs preloads into every test file's process: node:test
// finds a test's parent, and the test an uncaught error came from, without its async hook, and the
// run reports exactly what node:test's own hook gives — nested and async suites, hooks, subtests, a
// failure thrown from a callback or an unhandled rejection charged to its test.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';

const root = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'test-context-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const fixture = path.join(dir, 'scopes.test.mjs');
writeFileSync(
  fixture,
  `import { after, before, beforeEach, describe, test } from 'node:test';
const log = [];
// A turn of the event loop: what follows runs in an async continuation of the test.
const tick = () => new Promise((resolve) => setImmediate(resolve));
/** Resolves once the process has seen \`event\` (after node:test's own listener, which came first). */
const seen = (event) => new Promise((resolve) => process.once(event, () => resolve()));
describe('outer', () => {
  before(() => log.push('before outer'));
  beforeEach(() => log.push('beforeEach outer'));
  test('a', async () => { await tick(); log.push('a'); });
  describe('registered after an await', async () => {
    await tick();
    test('b', () => log.push('b'));
  });
  test('c', async (t) => { await t.test('c.1', async () => { await tick(); log.push('c.1'); }); });
  after(() => log.push('after outer'));
});
test('thrown from a callback', async () => {
  const delivered = seen('uncaughtException');
  setImmediate(() => { throw new Error('thrown from a callback'); });
  await delivered;
});
test('rejected without a handler', async () => {
  await tick();
  const delivered = seen('unhandledRejection');
  Promise.reject(new Error('rejected without a handler'));
  await delivered;
});
test('last', () => log.push('last'));
process.on('exit', () => console.log('log: ' + JSON.stringify(log) + ' scopes: ' + Boolean(globalThis[Symbol.for('render-service.test-scopes')])));
`,
);

/** Runs the fixture as scripts/run-tests.mjs runs a file (through scripts/test-queue.mjs), with or without the preload. */
async function queue(preload: boolean): Promise<{ code: number; stdout: string }> {
  const args = [
    ...(preload ? ['--import', path.join(root, 'scripts/test-context.mjs')] : []),
    path.join(root, 'scripts/test-queue.mjs'),
    '1',
    fixture,
  ];
  // Not as a file of this run: NODE_TEST_CONTEXT would make it report to this runner.
  const env = { ...process.env, NODE_TEST_CONTEXT: undefined };
  try {
    return { code: 0, stdout: (await promisify(execFile)(process.execPath, args, { env })).stdout };
  } catch (err) {
    const { code, stdout } = err as { code: number; stdout: string };
    return { code, stdout };
  }
}

/** The report without what differs from run to run: durations, and stack frames (the preload adds one). */
const report = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => !/^\s*at /.test(line) && !/duration_ms/.test(line) && !/scopes: /.test(line))
    .map((line) => line.replace(/ \(\d+(\.\d+)?ms\)/, ''))
    .join('\n');

test('with the preload, node:test reports the same tests, order and failures as with its own hook', async () => {
  const [own, preloaded] = await Promise.all([queue(false), queue(true)]);
  assert.match(own.stdout, /scopes: false/);
  assert.match(preloaded.stdout, /scopes: true/, 'the preload took over the harness');
  assert.equal(preloaded.code, 1);
  assert.equal(own.code, 1);
  assert.equal(report(preloaded.stdout), report(own.stdout));
  assert.match(
    preloaded.stdout,
    /log: \["before outer","beforeEach outer","a","beforeEach outer","b","beforeEach outer","beforeEach outer","c\.1","after outer","last"\]/,
  );
  // The errors are charged to the tests they came from.
  assert.match(preloaded.stdout, /✖ thrown from a callback[^\n]*\n\s+Error: thrown from a callback/);
  assert.match(preloaded.stdout, /✖ rejected without a handler[^\n]*\n\s+Error: rejected without a handler/);
});
