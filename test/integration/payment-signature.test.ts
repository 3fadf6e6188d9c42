// The payment webhook's signature header rule over HTTP, on both databases: exactly one of
// Payment-Signature and Stripe-Signature may be sent. With both — whichever is bogus, in either
// order, or even both valid — the request is 400 invalid_signature and nothing is credited, so a
// forged header can never shadow (or ride along with) a valid one. Hosted mode on Postgres; on
// SQLite the same Stripe provider is composed into local mode (billing is hosted-only otherwise).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Stripe from 'stripe';
import { StripePaymentProvider } from '../../src/adapters/stripe.payment-provider.ts';
import { CREDIT_PACKS } from '../../src/services/pricing.ts';
import { ENGINES } from '../support/black-box/databases.ts';
import { HOSTED_ENV, startTestApp, type TestApp } from '../support/harness.ts';
import { startStripeStandIn, type StripeStandIn } from '../support/stripe-stand-in.ts';

const SECRET_KEY = 'sk_test_standin_0123456789';
const WEBHOOK_SECRET = 'whsec_test_0123456789abcdef';
const stripe = new Stripe(SECRET_KEY);
const pack = CREDIT_PACKS[0];

for (const engine of ENGINES) {
  describe(`payment webhook signature headers on ${engine}`, () => {
    let t: TestApp;
    let standIn: StripeStandIn;
    const ws = 'ws_signature';
    let n = 0;

    before(async () => {
      standIn = await startStripeStandIn();
      t =
        engine === 'postgres'
          ? await startTestApp(engine, {
              env: { ...HOSTED_ENV, STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: standIn.url },
            })
          : await startTestApp(engine, {
              compose: {
                paymentProvider: new StripePaymentProvider({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, apiUrl: standIn.url }),
              },
            });
      await t.runtime.deps.services.workspaces.ensure({ id: ws, name: 'Signatures', kind: 'personal', createdAt: Date.now() });
    });
    after(async () => {
      await t?.close();
      await standIn?.close();
    });

    /** A pending purchase and its signed completion event. */
    async function pendingPurchase() {
      await t.runtime.deps.services.billing.checkout(ws, pack.id);
      const purchaseId = standIn.requests.at(-1)!.form.get('metadata[purchase_id]')!;
      const payload = JSON.stringify({
        id: `evt_sig_${++n}`,
        object: 'event',
        type: 'checkout.session.completed',
        data: {
          object: {
            id: `cs_${purchaseId}`,
            object: 'checkout.session',
            payment_status: 'paid',
            payment_intent: `pi_${purchaseId}`,
            client_reference_id: purchaseId,
            metadata: { purchase_id: purchaseId },
          },
        },
      });
      const valid = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
      const bogus = stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_attacker_guess_000000' });
      return { purchaseId, payload, valid, bogus };
    }
    const status = async (purchaseId: string) => (await t.runtime.db('purchases').where({ id: purchaseId }).first()).status as string;
    const balance = async () => (await t.runtime.deps.services.credits.balance(ws)).credits;
    const post = (payload: string, headers: Array<[string, string]>) =>
      t.request('post', '/v1/billing/webhook', {
        auth: false,
        headers: Object.fromEntries([['Content-Type', 'application/json'], ...headers]),
        raw: payload,
      });

    test('both headers, in either order and whichever is bogus (even both valid), are 400 invalid_signature and credit nothing', async () => {
      const { purchaseId, payload, valid, bogus } = await pendingPurchase();
      const before = await balance();
      const cases: Array<[string, Array<[string, string]>]> = [
        [
          'bogus Payment-Signature, then valid Stripe-Signature',
          [
            ['Payment-Signature', bogus],
            ['Stripe-Signature', valid],
          ],
        ],
        [
          'valid Stripe-Signature, then bogus Payment-Signature',
          [
            ['Stripe-Signature', valid],
            ['Payment-Signature', bogus],
          ],
        ],
        [
          'valid Payment-Signature, then bogus Stripe-Signature',
          [
            ['Payment-Signature', valid],
            ['Stripe-Signature', bogus],
          ],
        ],
        [
          'bogus Stripe-Signature, then valid Payment-Signature',
          [
            ['Stripe-Signature', bogus],
            ['Payment-Signature', valid],
          ],
        ],
        [
          'both valid',
          [
            ['Payment-Signature', valid],
            ['Stripe-Signature', valid],
          ],
        ],
      ];
      for (const [what, headers] of cases) {
        const res = await post(payload, headers);
        assert.equal(res.status, 400, what);
        assert.equal(res.body.code, 'invalid_signature', what);
        assert.match(res.body.detail, /exactly one signature header/, what);
      }
      assert.equal(await status(purchaseId), 'pending');
      assert.equal(await balance(), before);
    });

    test('exactly one header: a valid one under either name completes the purchase, a bogus one is refused', async () => {
      for (const name of ['Payment-Signature', 'Stripe-Signature']) {
        const { purchaseId, payload, valid, bogus } = await pendingPurchase();
        const before = await balance();
        const refused = await post(payload, [[name, bogus]]);
        assert.equal(refused.status, 400, name);
        assert.equal(refused.body.code, 'invalid_signature');
        assert.equal(await status(purchaseId), 'pending');
        const ok = await post(payload, [[name, valid]]);
        assert.equal(ok.status, 200, name);
        assert.deepEqual(ok.body, { received: true, duplicate: false });
        assert.equal(await status(purchaseId), 'completed');
        assert.equal(await balance(), before + pack.credits);
      }
    });
  });
}
