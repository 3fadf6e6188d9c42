// Job event streams are bounded (issue 13, point 5): streams of one job share one watcher (one
// database read per tick, however many clients follow the job), and a workspace may hold only
// EVENT_STREAMS_PER_WORKSPACE open streams (429 too_many_streams), a slot freeing when one closes.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, mock, test } from 'node:test';
import { JobsRepository } from '../../db/repositories/jobs.repository.ts';
import type { JobEventStreams } from '../../src/jobs/job-event-streams.ts';
import { assertMatchesContract } from '../support/contract.ts';
import { ENGINES } from '../support/black-box/databases.ts';
import { armEvent } from '../support/events.ts';
import { startTestApp, TEST_LOCAL_KEY, type TestApp } from '../support/harness.ts';

const LIMIT = 5;
const job = { slug: 'plasma', seed: 7, format: 'mp4', size: { width: 160, height: 90 }, params: { duration: 1, fps: 10 } };

interface Follower {
  text(): string;
  /** Resolves once the stream has carried `needle` (woken by the stream's own chunks, not a timer). */
  received(needle: string, timeoutMs?: number): Promise<void>;
  close(): void;
}

/** Resolves once `probe` holds, looking again each time the streams report a change (no timer). */
async function until(what: string, streams: JobEventStreams, probe: () => boolean, timeoutMs = 10_000): Promise<void> {
  const changed = armEvent(streams, 'changed', probe, timeoutMs);
  if (probe()) return changed.stop();
  await changed.wait(what);
}

for (const engine of ENGINES) {
  describe(`job event streams on ${engine}`, () => {
    let t: TestApp;
    let base: string;
    let close: () => void;
    const followers: Follower[] = [];

    before(async () => {
      // No runner here: the test moves the job itself, so every read of its row is a stream's.
      t = await startTestApp(engine, { env: { RUN_JOBS: '0', EVENT_STREAMS_PER_WORKSPACE: String(LIMIT) } });
      const { server, port } = await t.listen();
      base = `http://127.0.0.1:${port}`;
      close = () => {
        server.closeAllConnections();
        server.close();
      };
    });
    afterEach(async () => {
      for (const f of followers.splice(0)) f.close();
      await until('every stream to close', t.runtime.deps.services.jobEvents, () => t.runtime.deps.services.jobEvents.size === 0);
      mock.restoreAll();
    });
    after(async () => {
      close?.();
      await t?.close();
    });

    async function runningJob(): Promise<string> {
      const { status, body } = await t.request('post', '/v1/jobs', { body: { ...job, seed: Math.floor(Math.random() * 1e9) } });
      assert.equal(status, 202);
      await t.runtime.db('jobs').where({ id: body.id }).update({ status: 'running', progress: 0.1 });
      return body.id as string;
    }

    async function follow(id: string): Promise<Follower> {
      const abort = new AbortController();
      const res = await fetch(`${base}/v1/jobs/${id}/events`, {
        headers: { Authorization: `Bearer ${TEST_LOCAL_KEY}` },
        signal: abort.signal,
      });
      assert.equal(res.status, 200);
      // The stream's head is checked against the contract too (status, content type, headers).
      assertMatchesContract('GET', `/v1/jobs/${id}/events`, {
        status: res.status,
        headers: Object.fromEntries(res.headers),
        body: undefined,
        text: '',
      });
      let text = '';
      const decoder = new TextDecoder();
      const waiters = new Set<{ needle: string; resolve: () => void }>();
      const wake = () => {
        for (const w of waiters) {
          if (!text.includes(w.needle)) continue;
          waiters.delete(w);
          w.resolve();
        }
      };
      void (async () => {
        try {
          for await (const chunk of res.body!) {
            text += decoder.decode(chunk as Uint8Array, { stream: true });
            wake();
          }
        } catch {
          // aborted by close()
        }
      })();
      const received = (needle: string, timeoutMs = 10_000): Promise<void> => {
        if (text.includes(needle)) return Promise.resolve();
        let timer: NodeJS.Timeout | undefined;
        return new Promise<void>((resolve, reject) => {
          const waiter = { needle, resolve };
          waiters.add(waiter);
          timer = setTimeout(() => (waiters.delete(waiter), reject(new Error(`timed out waiting for ${needle} on the stream`))), timeoutMs);
        }).finally(() => clearTimeout(timer));
      };
      const follower = { text: () => text, received, close: () => abort.abort() };
      followers.push(follower);
      await received('event: status');
      return follower;
    }

    test('five streams of one job: one watcher reads the row, every stream gets each change', async () => {
      const id = await runningJob();
      // Every read of this job's row is counted; past the budget a read is held until the end of the test.
      let reads = 0;
      let budget = Infinity;
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      for (const method of ['find', 'findInWorkspace'] as const) {
        const original = JobsRepository.prototype[method] as (...args: string[]) => Promise<unknown>;
        mock.method(JobsRepository.prototype, method, async function (this: JobsRepository, ...args: string[]) {
          if (args.includes(id)) {
            reads++;
            if (reads > budget) await released;
          }
          return original.apply(this, args);
        });
      }
      const streams = await Promise.all(Array.from({ length: LIMIT }, () => follow(id)));
      assert.equal(t.runtime.deps.services.jobEvents.watching, 1, 'one watcher for the job');

      // From here two reads may run: one that began before the update and one that sees it. Five
      // streams polling on their own would need five reads to all see the change.
      reads = 0;
      budget = 2;
      await t.runtime.db('jobs').where({ id }).update({ progress: 0.5 });
      try {
        for (const s of streams) await s.received('"progress":0.5');
        assert.ok(reads <= budget, `${reads} reads`);
      } finally {
        release();
      }

      // The job ends: every stream gets the final status and closes; the watcher stops.
      await t.runtime.db('jobs').where({ id }).update({ status: 'failed', error: 'stopped by the test' });
      for (const s of streams) await s.received('"status":"failed"');
      await until('the watcher to stop', t.runtime.deps.services.jobEvents, () => t.runtime.deps.services.jobEvents.watching === 0);
    });

    test(`a workspace holds at most ${LIMIT} open streams: one more is 429 too_many_streams; closing one frees a slot`, async () => {
      const id = await runningJob();
      const streams: Follower[] = [];
      for (let i = 0; i < LIMIT; i++) streams.push(await follow(id));
      const refused = await t.request('get', `/v1/jobs/${id}/events`);
      assert.equal(refused.status, 429);
      assert.match(refused.headers['content-type'], /application\/problem\+json/);
      assert.equal(refused.body.code, 'too_many_streams');
      assert.ok(Number(refused.headers['retry-after']) >= 1);

      streams[0].close();
      await until('the slot to free', t.runtime.deps.services.jobEvents, () => t.runtime.deps.services.jobEvents.size < LIMIT);
      const again = await follow(id);
      assert.match(again.text(), /event: status/);
    });
  });
  describe(`job event streams while the process drains on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine, { env: { RUN_JOBS: '0' } });
    });
    after(async () => t?.close());

    test('a new stream is refused with 503 not_ready and Retry-After once the drain has ended the streams', async () => {
      const created = await t.request('post', '/v1/jobs', { body: job });
      assert.equal(created.status, 202, created.text);
      await t.runtime.endStreams();
      const refused = await t.request('get', `/v1/jobs/${created.body.id}/events`);
      assert.equal(refused.status, 503, refused.text);
      assert.equal(refused.body.code, 'not_ready');
      assert.equal(refused.headers['retry-after'], '1');
      // The rest of the API still answers during the drain.
      assert.equal((await t.request('get', `/v1/jobs/${created.body.id}`)).status, 200);
    });
  });
}
