// Billing through Stripe: the real Stripe SDK against a local stand-in for its API, and webhook
// payloads signed with Stripe's own test-header helper. The webhook rules (valid, tampered byte,
// stale, future, replayed ×10 concurrently, refund) run on both databases through the billing
// service; hosted mode then runs checkout and the webhook end to end over HTTP (Postgres).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Stripe from 'stripe';
import { BillingRepository } from '../../db/repositories/billing.repository.ts';
import { CreditsRepository } from '../../db/repositories/credits.repository.ts';
import { ProblemError } from '../../src/errors/problem.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { BillingService } from '../../src/services/billing.service.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { CreditsService } from '../../src/services/credits.service.ts';
import { StripePaymentProvider } from '../../src/adapters/stripe.payment-provider.ts';
import { CREDIT_PACKS } from '../../src/services/pricing.ts';
import { ENGINES } from '../support/black-box/databases.ts';
import { HOSTED_ENV, sharedTestApps, startTestApp, type TestApp, workspaceKey } from '../support/harness.ts';
import { startStripeStandIn, type StripeStandIn } from '../support/stripe-stand-in.ts';

const SECRET_KEY = 'sk_test_standin_0123456789';
const WEBHOOK_SECRET = 'whsec_test_0123456789abcdef';
const stripe = new Stripe(SECRET_KEY);
const pack = CREDIT_PACKS[0];

function signed(event: object, timestamp = Math.floor(Date.now() / 1000)) {
  const payload = JSON.stringify(event);
  return { payload, header: stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp }) };
}

let eventCounter = 0;
const completed = (purchaseId: string, paymentIntent = `pi_${purchaseId}`) => ({
  id: `evt_completed_${++eventCounter}`,
  object: 'event',
  type: 'checkout.session.completed',
  data: {
    object: {
      id: `cs_${purchaseId}`,
      object: 'checkout.session',
      payment_status: 'paid',
      payment_intent: paymentIntent,
      client_reference_id: purchaseId,
      metadata: { purchase_id: purchaseId },
    },
  },
});
const refunded = (paymentIntent: string, amountRefunded: number) => ({
  id: `evt_refund_${++eventCounter}`,
  object: 'event',
  type: 'charge.refunded',
  data: {
    object: { id: `ch_${eventCounter}`, object: 'charge', payment_intent: paymentIntent, amount_refunded: amountRefunded, refunded: true },
  },
});

/** The local-mode app of both suites below (the payment webhook's in a workspace of its own). */
const localApp = sharedTestApps();

for (const engine of ENGINES) {
  describe(`payment webhook on ${engine}`, () => {
    let t: TestApp;
    let standIn: StripeStandIn;
    let billing: BillingService;
    let credits: CreditsService;
    const ws = 'ws_billing';

    before(async () => {
      standIn = await startStripeStandIn();
      t = await localApp(engine);
      const logger = createLogger('silent');
      const ledger = new CreditsRepository(t.runtime.db);
      credits = new CreditsService({ repo: ledger, clock: systemClock, enabled: true, logger });
      const provider = new StripePaymentProvider({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, apiUrl: standIn.url });
      billing = new BillingService({
        repo: new BillingRepository(t.runtime.db),
        credits,
        provider,
        urls: { successUrl: 'https://app.example.test/ok', cancelUrl: 'https://app.example.test/no' },
        clock: systemClock,
        logger,
      });
      await t.runtime.deps.services.workspaces.ensure({ id: ws, name: 'Billing', kind: 'personal', createdAt: Date.now() });
    });
    after(async () => {
      await standIn?.close();
    });

    async function newPurchase(): Promise<string> {
      await billing.checkout(ws, pack.id);
      const last = standIn.requests.at(-1)!;
      return last.form.get('metadata[purchase_id]')!;
    }

    const rejects = async (payload: string, header: string | undefined) => {
      await assert.rejects(
        billing.handleWebhook(Buffer.from(payload), header),
        (err: unknown) => err instanceof ProblemError && err.code === 'invalid_signature',
      );
    };

    test('a completed payment credits the pack once; ten concurrent replays change nothing', async () => {
      const purchaseId = await newPurchase();
      const { payload, header } = signed(completed(purchaseId));
      const results = await Promise.all(Array.from({ length: 10 }, () => billing.handleWebhook(Buffer.from(payload), header)));
      assert.equal(results.filter((r) => !r.duplicate).length, 1);
      assert.equal((await credits.balance(ws)).credits, pack.credits);
      const summary = await billing.summary(ws);
      assert.equal(summary.purchases.find((p) => p.id === purchaseId)!.status, 'completed');
    });

    test('a tampered byte, a stale or a future timestamp, or no header is refused', async () => {
      const purchaseId = await newPurchase();
      const { payload, header } = signed(completed(purchaseId));
      await rejects(payload.replace('"paid"', '"pa1d"'), header);
      const stale = signed(completed(purchaseId), Math.floor(Date.now() / 1000) - 301);
      await rejects(stale.payload, stale.header);
      const future = signed(completed(purchaseId), Math.floor(Date.now() / 1000) + 301);
      await rejects(future.payload, future.header);
      await rejects(payload, undefined);
      const before = (await credits.balance(ws)).credits;
      // Within the tolerance it is accepted.
      const recent = signed(completed(purchaseId), Math.floor(Date.now() / 1000) - 200);
      await billing.handleWebhook(Buffer.from(recent.payload), recent.header);
      assert.equal((await credits.balance(ws)).credits, before + pack.credits);
    });

    test('a refund takes the credits back (partial refunds in proportion)', async () => {
      const purchaseId = await newPurchase();
      const intent = `pi_refund_${purchaseId}`;
      const paid = signed(completed(purchaseId, intent));
      await billing.handleWebhook(Buffer.from(paid.payload), paid.header);
      const before = (await credits.balance(ws)).credits;
      const half = signed(refunded(intent, pack.amount / 2));
      await billing.handleWebhook(Buffer.from(half.payload), half.header);
      assert.equal((await credits.balance(ws)).credits, before - pack.credits / 2);
      const full = signed(refunded(intent, pack.amount));
      await billing.handleWebhook(Buffer.from(full.payload), full.header);
      assert.equal((await credits.balance(ws)).credits, before - pack.credits);
      assert.equal((await billing.summary(ws)).purchases.find((p) => p.id === purchaseId)!.status, 'refunded');
    });

    const send = async (event: object) => {
      const { payload, header } = signed(event);
      return billing.handleWebhook(Buffer.from(payload), header);
    };

    test('a refund that arrives before the payment completes is applied by the completion (full and partial)', async () => {
      for (const [refundedAmount, kept, status] of [
        [pack.amount, 0, 'refunded'],
        [pack.amount / 4, pack.credits * 0.75, 'completed'],
      ] as const) {
        const purchaseId = await newPurchase();
        const intent = `pi_early_${purchaseId}`;
        const before = (await credits.balance(ws)).credits;
        await send(refunded(intent, refundedAmount));
        assert.equal((await credits.balance(ws)).credits, before, 'nothing to take back yet');
        await send(completed(purchaseId, intent));
        assert.equal((await credits.balance(ws)).credits, before + kept);
        const purchase = (await billing.summary(ws)).purchases.find((p) => p.id === purchaseId)!;
        assert.equal(purchase.status, status);
        // A replayed refund or completion changes nothing.
        await send(refunded(intent, refundedAmount));
        await send(completed(purchaseId, intent));
        assert.equal((await credits.balance(ws)).credits, before + kept);
      }
    });

    test('every order of completion, partial and full refund ends at the same balance', async () => {
      const orders = [
        ['completed', 'half', 'full'],
        ['half', 'completed', 'full'],
        ['half', 'full', 'completed'],
        ['full', 'half', 'completed'],
        ['completed', 'full', 'half'],
        ['full', 'completed', 'half'],
      ];
      for (const order of orders) {
        const purchaseId = await newPurchase();
        const intent = `pi_order_${purchaseId}`;
        const before = (await credits.balance(ws)).credits;
        const events = {
          completed: completed(purchaseId, intent),
          half: refunded(intent, pack.amount / 2),
          full: refunded(intent, pack.amount),
        };
        const seen: number[] = [];
        for (const name of order) {
          await send(events[name as keyof typeof events]);
          seen.push((await credits.balance(ws)).credits - before);
        }
        assert.equal(seen.at(-1), 0, `${order.join(' → ')}: ${seen.join(', ')}`);
        assert.ok(
          seen.every((d) => d >= 0 && d <= pack.credits),
          `never more than the pack: ${seen.join(', ')}`,
        );
        assert.equal((await billing.summary(ws)).purchases.find((p) => p.id === purchaseId)!.status, 'refunded');
      }
    });

    test('a completion and a refund delivered at the same moment never grant a refunded purchase', async () => {
      // Many rounds, each pair fired at once (on Postgres, on two connections in parallel).
      for (let round = 0; round < 20; round++) {
        const purchaseId = await newPurchase();
        const intent = `pi_race_${purchaseId}`;
        const partial = round % 2 === 1;
        const before = (await credits.balance(ws)).credits;
        const pair = [completed(purchaseId, intent), refunded(intent, partial ? pack.amount / 2 : pack.amount)];
        if (round % 4 >= 2) pair.reverse();
        const results = await Promise.all(pair.map(send));
        assert.ok(results.every((r) => !r.duplicate));
        assert.equal((await credits.balance(ws)).credits - before, partial ? pack.credits / 2 : 0, `round ${round}`);
      }
      assert.equal((await credits.balance(ws)).reserved, 0);
    });

    test('checkout sends the pack to Stripe with an idempotency key and no secret in the URL', async () => {
      const session = await billing.checkout(ws, pack.id);
      const sent = standIn.requests.at(-1)!;
      assert.equal(sent.path, '/v1/checkout/sessions');
      assert.equal(sent.form.get('mode'), 'payment');
      assert.equal(sent.form.get('line_items[0][price_data][unit_amount]'), String(pack.amount));
      assert.equal(sent.headers['idempotency-key'], sent.form.get('metadata[purchase_id]'));
      assert.equal(sent.headers.authorization, `Bearer ${SECRET_KEY}`);
      assert.match(session.url, /^https:\/\/checkout\.stripe\.com\//);
    });
  });
}

for (const engine of ENGINES) {
  describe(`billing without payment settings on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await localApp(engine);
    });

    test('501 not_implemented on checkout and on the payment webhook, naming the settings', async () => {
      const checkout = await t.request('post', '/v1/billing/checkout', { body: { packId: pack.id } });
      assert.equal(checkout.status, 501, checkout.text);
      assert.equal(checkout.body.code, 'not_implemented');
      assert.match(checkout.body.detail, /STRIPE_SECRET_KEY/);
      const { payload, header } = signed(completed('pur_none'));
      const hook = await t.request('post', '/v1/billing/webhook', {
        auth: false,
        headers: { 'Content-Type': 'application/json', 'Payment-Signature': header },
        raw: payload,
      });
      assert.equal(hook.status, 501, hook.text);
      assert.equal(hook.body.code, 'not_implemented');
    });
  });
}

describe('billing over HTTP in hosted mode (postgres)', () => {
  let t: TestApp;
  let standIn: StripeStandIn;
  let secret: string;
  const ws = 'ws_http_billing';
  const auth = () => ({ auth: false as const, headers: { Authorization: `Bearer ${secret}` } });

  before(async () => {
    standIn = await startStripeStandIn();
    t = await startTestApp('postgres', {
      env: { ...HOSTED_ENV, STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: standIn.url },
    });
    secret = await workspaceKey(t, { id: ws, name: 'HTTP billing' }, 'billing');
  });
  after(async () => {
    await t?.close();
    await standIn?.close();
  });

  test('with billing configured, a 402 points at the checkout', async () => {
    const res = await t.request('post', '/v1/generate/mesh-gradient', { ...auth(), body: { seed: 1, size: { width: 32, height: 32 } } });
    assert.equal(res.status, 402);
    assert.match(res.body.detail, /are available\. Buy credits with POST \/v1\/billing\/checkout\.$/);
  });

  test('checkout → signed webhook (Payment-Signature or Stripe-Signature) → balance and purchase', async () => {
    const res = await t.request('post', '/v1/billing/checkout', { ...auth(), body: { packId: pack.id } });
    assert.equal(res.status, 201);
    assert.equal(res.headers['cache-control'], 'no-store');
    const purchaseId = standIn.requests.at(-1)!.form.get('metadata[purchase_id]')!;
    const { payload, header } = signed(completed(purchaseId));
    const hook = await t.request('post', '/v1/billing/webhook', {
      auth: false,
      headers: { 'Content-Type': 'application/json', 'Payment-Signature': header },
      raw: payload,
    });
    assert.equal(hook.status, 200);
    assert.deepEqual(hook.body, { received: true, duplicate: false });
    const again = await t.request('post', '/v1/billing/webhook', {
      auth: false,
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header },
      raw: payload,
    });
    assert.deepEqual(again.body, { received: true, duplicate: true });
    const billing = await t.request('get', '/v1/billing', auth());
    assert.equal(billing.status, 200);
    assert.equal(billing.headers['cache-control'], 'no-store');
    assert.equal(billing.body.balance.available, pack.credits);
    assert.equal(billing.body.purchases[0].status, 'completed');
  });

  test('400 invalid_signature for a tampered body over HTTP', async () => {
    const { payload, header } = signed(completed('pur_unknown'));
    const res = await t.request('post', '/v1/billing/webhook', {
      auth: false,
      headers: { 'Content-Type': 'application/json', 'Payment-Signature': header },
      raw: payload.replace('paid', 'PAID'),
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'invalid_signature');
  });

  test('404 for an unknown pack, 502 when the provider fails', async () => {
    assert.equal((await t.request('post', '/v1/billing/checkout', { ...auth(), body: { packId: 'gold' } })).status, 404);
    const purchasesBefore = (await t.request('get', '/v1/billing', auth())).body.purchases;
    standIn.failWith = 500;
    try {
      const res = await t.request('post', '/v1/billing/checkout', { ...auth(), body: { packId: pack.id } });
      assert.equal(res.status, 502);
      assert.equal(res.body.code, 'upstream_error');
    } finally {
      standIn.failWith = 0;
    }
    // The failed attempt left no purchase behind (an every() over the list would pass on an empty one).
    assert.deepEqual((await t.request('get', '/v1/billing', auth())).body.purchases, purchasesBefore);
  });
});
