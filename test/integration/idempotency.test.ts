// Idempotency-Key on both databases: a replay returns the stored response and does no work; the
// same key with another body is 422; a replay while the first runs is 409; failures free the key.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ENGINES } from '../support/databases.ts';
import { startTestApp, TEST_LOCAL_KEY, type TestApp } from '../support/harness.ts';

const tiny = (seed: number) => ({ seed, size: { width: 32, height: 32 } });

for (const engine of ENGINES) {
  describe(`idempotency on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine);
    });
    after(async () => t?.close());
    const withKey = (key: string, body: unknown) => ({ headers: { 'Idempotency-Key': key }, body });

    test('generate: a replay returns the same bytes and headers without rendering again', async () => {
      const first = await t.request('post', '/v1/generate/mesh-gradient', withKey('gen-1', tiny(70)));
      assert.equal(first.status, 200);
      assert.equal(first.headers['x-service-cache'], 'MISS');
      await t.runtime.deps.services.usage.flush();
      const usageBefore = await t.runtime.db('usage_records').count<{ n: number }[]>({ n: '*' });
      const replay = await t.request('post', '/v1/generate/mesh-gradient', withKey('gen-1', tiny(70)));
      assert.equal(replay.status, 200);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.headers['x-service-cache'], 'MISS', 'the stored response, not a new cache hit');
      assert.ok(Buffer.compare(replay.body, first.body) === 0);
      assert.equal(replay.headers['x-service-recipe-hash'], first.headers['x-service-recipe-hash']);
      await t.runtime.deps.services.usage.flush();
      const usageAfter = await t.runtime.db('usage_records').count<{ n: number }[]>({ n: '*' });
      assert.equal(Number(usageAfter[0].n), Number(usageBefore[0].n), 'no work was recorded');
    });

    test('422 idempotency_key_reused for the same key with a different body', async () => {
      await t.request('post', '/v1/generate/mesh-gradient', withKey('gen-2', tiny(71)));
      const res = await t.request('post', '/v1/generate/mesh-gradient', withKey('gen-2', tiny(72)));
      assert.equal(res.status, 422);
      assert.equal(res.body.code, 'idempotency_key_reused');
    });

    test('422 idempotency_key_reused on createJob and renderBatch too', async () => {
      for (const [url, body] of [
        ['/v1/jobs', (seed: number) => ({ slug: 'blob', seed })],
        ['/v1/batch', (seed: number) => ({ items: [{ slug: 'blob', seed }] })],
      ] as const) {
        const first = await t.request('post', url, withKey(`reuse-${url}`, body(1)));
        assert.ok(first.status < 300, `${url}: ${first.status} ${first.text}`);
        const res = await t.request('post', url, withKey(`reuse-${url}`, body(2)));
        assert.equal(res.status, 422, url);
        assert.equal(res.body.code, 'idempotency_key_reused');
      }
    });

    test('409 idempotency_in_progress while the first request still runs', async () => {
      const server = t.app.listen(0, '127.0.0.1');
      await new Promise((r) => server.once('listening', r));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        const body = JSON.stringify({ seed: 3, format: 'gif', size: { width: 320, height: 180 }, params: { duration: 4, fps: 20 } });
        const headers = { Authorization: `Bearer ${TEST_LOCAL_KEY}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'slow-1' };
        const first = fetch(`${base}/v1/generate/plasma`, { method: 'POST', headers, body });
        await new Promise((r) => setTimeout(r, 200));
        const second = await fetch(`${base}/v1/generate/plasma`, { method: 'POST', headers, body });
        assert.equal(second.status, 409);
        assert.equal(((await second.json()) as { code: string }).code, 'idempotency_in_progress');
        assert.equal((await first).status, 200);
      } finally {
        server.close();
      }
    });

    test('an error is not kept: the key is free for a retry', async () => {
      const bad = await t.request('post', '/v1/generate/mesh-gradient', withKey('gen-3', { size: { width: 99_999, height: 32 } }));
      assert.equal(bad.status, 400);
      const retry = await t.request('post', '/v1/generate/mesh-gradient', withKey('gen-3', tiny(73)));
      assert.equal(retry.status, 200);
      assert.equal(retry.headers['idempotent-replayed'], undefined);
    });

    test('createKey: one key per Idempotency-Key, and the secret is never stored or replayed', async () => {
      const first = await t.request('post', '/v1/keys', withKey('key-1', { label: 'deploy' }));
      assert.equal(first.status, 201);
      assert.ok(first.body.secret);
      const replay = await t.request('post', '/v1/keys', withKey('key-1', { label: 'deploy' }));
      assert.equal(replay.status, 201);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.body.id, first.body.id);
      assert.equal(replay.body.secret, undefined);
      const stored = await t.runtime.db('idempotency_keys').where({ key: 'key-1' }).first();
      assert.ok(!Buffer.from(stored.response_body).toString('utf8').includes(first.body.secret));
      const listed = (await t.request('get', '/v1/keys')).body.filter((k: { label: string }) => k.label === 'deploy');
      assert.equal(listed.length, 1);
    });

    test('keys are per workspace: another workspace may use the same key', async () => {
      await t.runtime.deps.services.workspaces.ensure({ id: 'ws_idem_other', name: 'Other', kind: 'personal', createdAt: Date.now() });
      const other = await t.runtime.deps.services.keys.create('ws_idem_other', 'other');
      await t.request('post', '/v1/keys', withKey('shared', { label: 'mine' }));
      const theirs = await t.request('post', '/v1/keys', { auth: false, headers: { Authorization: `Bearer ${other.secret}`, 'Idempotency-Key': 'shared' }, body: { label: 'theirs' } });
      assert.equal(theirs.status, 201);
      assert.equal(theirs.body.label, 'theirs');
      assert.equal(theirs.headers['idempotent-replayed'], undefined);
    });

    test('400 for an over-long key', async () => {
      const res = await t.request('post', '/v1/keys', withKey('k'.repeat(256), { label: 'x' }));
      assert.equal(res.status, 400);
      assert.ok(res.body.issues.some((i: { path: string }) => /idempotency-key/i.test(i.path)), JSON.stringify(res.body.issues));
    });
  });
}
