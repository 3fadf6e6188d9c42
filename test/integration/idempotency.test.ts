// Idempotency-Key on both databases: a replay returns the stored response and does no work; the
// same key with another body is 422; a replay while the first runs is 409; failures free the key.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { StripePaymentProvider } from '../../src/adapters/stripe.payment-provider.ts';
import { CREDIT_PACKS } from '../../src/services/pricing.ts';
import { ENGINES } from '../support/black-box/databases.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { startStripeStandIn, type StripeStandIn } from '../support/stripe-stand-in.ts';

const tiny = (seed: number) => ({ seed, size: { width: 32, height: 32 } });

/** Holds calls of `target[method]` until release(): `entered` resolves when the first call arrives. */
function holdCalls(target: Record<string, unknown>, method: string) {
  const own = Object.hasOwn(target, method);
  const original = target[method] as (...args: unknown[]) => Promise<unknown>;
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let arrive!: () => void;
  const entered = new Promise<void>((r) => (arrive = r));
  target[method] = async (...args: unknown[]) => {
    arrive();
    await released;
    return original.apply(target, args);
  };
  return {
    entered,
    release,
    restore: () => {
      release();
      if (own) target[method] = original;
      else delete target[method];
    },
  };
}

for (const engine of ENGINES) {
  describe(`idempotency on ${engine}`, () => {
    let t: TestApp;
    let standIn: StripeStandIn;
    before(async () => {
      standIn = await startStripeStandIn();
      // Checkout needs a payment provider: the real Stripe client against the stand-in.
      const paymentProvider = new StripePaymentProvider({
        secretKey: 'sk_test_standin_0123456789',
        webhookSecret: 'whsec_test_0123456789abcdef',
        apiUrl: standIn.url,
      });
      t = await startTestApp(engine, { compose: { paymentProvider } });
    });
    after(async () => {
      await t?.close();
      await standIn?.close();
    });
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

    test('422 idempotency_key_reused on createJob, renderBatch and createKey too', async () => {
      for (const [url, body] of [
        ['/v1/jobs', (seed: number) => ({ slug: 'blob', seed })],
        ['/v1/batch', (seed: number) => ({ items: [{ slug: 'blob', seed }] })],
        ['/v1/keys', (seed: number) => ({ label: `reused ${seed}` })],
      ] as const) {
        const first = await t.request('post', url, withKey(`reuse-${url}`, body(1)));
        assert.ok(first.status < 300, `${url}: ${first.status} ${first.text}`);
        const res = await t.request('post', url, withKey(`reuse-${url}`, body(2)));
        assert.equal(res.status, 422, url);
        assert.equal(res.body.code, 'idempotency_key_reused');
      }
    });

    // The first request is held inside its operation's work (the service its handler calls) until
    // the second has been answered, so "still running" is a state, not a race against a timer.
    type Services = TestApp['runtime']['deps']['services'];
    const held: Array<[operationId: string, url: string, body: () => Record<string, unknown>, target: (s: Services) => [object, string]]> =
      [
        ['generate', '/v1/generate/mesh-gradient', () => tiny(80), (s) => [s.meteredRender, 'renderMetered']],
        ['createJob', '/v1/jobs', () => ({ slug: 'blob', seed: 80 }), (s) => [s.jobs, 'submit']],
        ['renderBatch', '/v1/batch', () => ({ items: [{ slug: 'blob', seed: 80 }] }), (s) => [s.batch, 'renderAll']],
        ['createCheckout', '/v1/billing/checkout', () => ({ packId: CREDIT_PACKS[0].id }), (s) => [s.billing, 'checkout']],
      ];
    for (const [operationId, url, body, target] of held) {
      test(`${operationId}: 409 idempotency_in_progress while the first request still runs, then the first completes`, async () => {
        const [service, method] = target(t.runtime.deps.services);
        const hold = holdCalls(service as Record<string, unknown>, method);
        try {
          const first = t.request('post', url, withKey(`running-${operationId}`, body()));
          await hold.entered;
          const second = await t.request('post', url, withKey(`running-${operationId}`, body()));
          assert.equal(second.status, 409, second.text);
          assert.equal(second.body.code, 'idempotency_in_progress');
          assert.equal(second.headers['retry-after'], '1');
          hold.release();
          const done = await first;
          assert.ok(done.status >= 200 && done.status < 300, `${done.status} ${done.text}`);
        } finally {
          hold.restore();
        }
      });
    }

    test('createCheckout: 422 idempotency_key_reused for the same key with another pack', async () => {
      const first = await t.request('post', '/v1/billing/checkout', withKey('checkout-1', { packId: CREDIT_PACKS[0].id }));
      assert.equal(first.status, 201, first.text);
      const res = await t.request('post', '/v1/billing/checkout', withKey('checkout-1', { packId: CREDIT_PACKS[1].id }));
      assert.equal(res.status, 422);
      assert.equal(res.body.code, 'idempotency_key_reused');
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
      const theirs = await t.request('post', '/v1/keys', {
        auth: false,
        headers: { Authorization: `Bearer ${other.secret}`, 'Idempotency-Key': 'shared' },
        body: { label: 'theirs' },
      });
      assert.equal(theirs.status, 201);
      assert.equal(theirs.body.label, 'theirs');
      assert.equal(theirs.headers['idempotent-replayed'], undefined);
    });

    test('400 for an over-long key', async () => {
      const res = await t.request('post', '/v1/keys', withKey('k'.repeat(256), { label: 'x' }));
      assert.equal(res.status, 400);
      assert.ok(
        res.body.issues.some((i: { path: string }) => /idempotency-key/i.test(i.path)),
        JSON.stringify(res.body.issues),
      );
    });
  });
}
