// The payment provider on Stripe's API (the interface it implements is src/services/payment-provider.ts).
// Loaded only when billing is configured: the SDK is not needed otherwise.
import Stripe from 'stripe';
import { ProblemError } from '../errors/problem.ts';
import {
  type CheckoutRequest,
  type PaymentEvent,
  type PaymentProvider,
  SIGNATURE_TOLERANCE_SECONDS,
} from '../services/payment-provider.ts';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Another API base (a stand-in in tests); default Stripe's own. */
  apiUrl?: string;
}

export class StripePaymentProvider implements PaymentProvider {
  private readonly stripe: Stripe;

  constructor(
    private readonly settings: StripeSettings,
    private readonly now: () => number = Date.now,
  ) {
    const api = settings.apiUrl ? new URL(settings.apiUrl) : undefined;
    this.stripe = new Stripe(settings.secretKey, {
      maxNetworkRetries: 2,
      timeout: 10_000,
      telemetry: false,
      ...(api
        ? {
            host: api.hostname,
            port: Number(api.port || (api.protocol === 'https:' ? 443 : 80)),
            protocol: api.protocol.replace(':', '') as 'http' | 'https',
          }
        : {}),
    });
  }

  async createCheckout(r: CheckoutRequest): Promise<{ id: string; url: string }> {
    try {
      const session = await this.stripe.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: r.purchaseId,
          metadata: { purchase_id: r.purchaseId, workspace_id: r.workspaceId },
          line_items: [{ quantity: 1, price_data: { currency: r.currency, unit_amount: r.amount, product_data: { name: r.packName } } }],
          success_url: r.successUrl,
          cancel_url: r.cancelUrl,
        },
        // A retried create never makes a second session for the same purchase.
        { idempotencyKey: r.purchaseId },
      );
      if (!session.url) throw new Error('the checkout session has no url');
      return { id: session.id, url: session.url };
    } catch (err) {
      throw new ProblemError('upstream_error', { detail: 'The payment provider could not start a checkout. Try again.', cause: err });
    }
  }

  verifyEvent(rawBody: Buffer, signatureHeader: string | undefined): PaymentEvent {
    const invalid = (detail: string) => new ProblemError('invalid_signature', { detail });
    if (!signatureHeader) throw invalid('The Payment-Signature (or Stripe-Signature) header is missing.');
    // The SDK only refuses timestamps too far in the past; refuse the future as well.
    const t = Number(/(?:^|,)t=(\d+)/.exec(signatureHeader)?.[1]);
    if (!Number.isFinite(t) || Math.abs(this.now() / 1000 - t) > SIGNATURE_TOLERANCE_SECONDS) {
      throw invalid(`The signature timestamp is missing or more than ${SIGNATURE_TOLERANCE_SECONDS} s away.`);
    }
    try {
      const event = this.stripe.webhooks.constructEvent(rawBody, signatureHeader, this.settings.webhookSecret, SIGNATURE_TOLERANCE_SECONDS);
      return { id: event.id, type: event.type, object: event.data.object as unknown as Record<string, unknown> };
    } catch {
      throw invalid('The signature does not match the body.');
    }
  }
}
