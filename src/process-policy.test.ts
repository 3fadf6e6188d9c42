// The process policy in a real process (test/support/process-policy-child.ts, wired as src/main.ts
// is): a rejection nobody awaited is logged and the process keeps serving; a dependency's connection
// error thrown out of the event loop too; any other uncaught exception drains the process (a request
// in flight still gets its answer, the runtime is closed) and exits 1 for its supervisor.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { armEvent } from '../test/support/black-box/waiters.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHILD = 'test/support/process-policy-child.ts';
/** Only a backstop: waits end on the child's log line or its exit. */
const BACKSTOP_MS = 120_000;

type Entry = Record<string, unknown> & { msg?: string; level?: number };

function startChild() {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const events = new EventEmitter<{ entry: [Entry] }>();
  const entries: Entry[] = [];
  let out = '';
  let partial = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d;
    const lines = (partial + d).split('\n');
    partial = lines.pop()!;
    for (const line of lines.filter((l) => l.startsWith('{'))) {
      const entry = JSON.parse(line) as Entry;
      entries.push(entry);
      events.emit('entry', entry);
    }
  });
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitForLog = async (match: (e: Entry) => boolean, what: string) => {
    const waiter = armEvent<[Entry]>(events, 'entry', match, BACKSTOP_MS);
    const earlier = entries.find(match);
    if (earlier) {
      waiter.stop();
      return earlier;
    }
    return (await waiter.wait(`${what}\n${out.slice(-2000)}`))[0];
  };
  return { child, entries, exited, waitForLog, output: () => out };
}

describe('the process policy (a real child process)', () => {
  const child = startChild();
  after(() => void (child.child.exitCode === null && child.child.kill('SIGKILL')));
  let base = '';
  const alive = () => assert.equal(child.child.exitCode, null, `the process exited:\n${child.output()}`);

  test('a rejection nobody awaited, a dependency error or a bug, is logged and the process keeps serving', async () => {
    base = `http://127.0.0.1:${(await child.waitForLog((e) => e.msg === 'listening', 'the child to listen')).port}`;
    for (const [url, message] of [
      ['/reject', /ECONNREFUSED/],
      ['/reject-bug', /a bug nobody awaited/],
    ] as const) {
      assert.equal((await fetch(base + url)).status, 200);
      const logged = await child.waitForLog(
        (e) => e.msg === 'unhandled rejection: logged, the process keeps serving' && message.test(JSON.stringify(e.err)),
        `the rejection of ${url} to be logged`,
      );
      assert.equal(logged.dependency, url === '/reject' ? 'database' : undefined);
      assert.equal(await (await fetch(`${base}/ok`)).text(), 'ok', `still serving after ${url}`);
      alive();
    }
  });

  test("a dependency's connection error thrown out of the event loop is logged and the process keeps serving", async () => {
    assert.equal((await fetch(`${base}/throw-dependency`)).status, 200);
    await child.waitForLog((e) => e.msg === 'uncaught dependency failure: logged, the process keeps serving', 'the throw to be logged');
    assert.equal(await (await fetch(`${base}/ok`)).text(), 'ok');
    alive();
  });

  test('any other uncaught exception drains the process (a request in flight is answered) and exits 1', async () => {
    const inFlight = fetch(`${base}/slow`).then((res) => res.text());
    assert.equal((await fetch(`${base}/throw`)).status, 200);
    assert.equal(await inFlight, 'answered during the drain');
    assert.equal(await child.exited, 1, child.output());
    const order = child.entries.map((e) => e.msg);
    const fatal = order.indexOf('uncaught exception: draining, then exiting 1');
    assert.ok(fatal >= 0, child.output());
    assert.equal(child.entries[fatal].level, 60, 'logged as fatal');
    assert.match(JSON.stringify(child.entries[fatal].err), /a bug in the event loop/);
    const draining = child.entries.findIndex((e) => e.msg === 'draining' && e.reason === 'uncaught exception');
    assert.ok(draining > fatal, 'the drain follows');
    assert.ok(order.indexOf('drain: jobs handed back') > draining, 'running jobs were handed back');
    assert.ok(order.indexOf('drain: runtime closed') > draining, 'the runtime was closed before the exit');
  });
});
