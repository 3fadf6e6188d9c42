// Credit packs bought through the payment provider: checkout sessions, the balance and purchases,
// and the provider's signed events — each processed exactly once, crediting a completed payment
// and taking back refunded credits.
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { BillingRepository, PurchaseRecord } from '../../db/repositories/billing.repository.ts';
import type { CreditsRepository } from '../../db/repositories/credits.repository.ts';
import { ProblemError } from '../errors/problem.ts';
import type { Clock } from './clock.ts';
import type { CreditsService } from './credits.service.ts';
import type { PaymentEvent, PaymentProvider } from './payment-provider.ts';
import { CREDIT_PACKS } from './pricing.ts';

export interface BillingUrls {
  successUrl: string;
  cancelUrl: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function purchaseView(p: PurchaseRecord) {
  return { id: p.id, packId: p.packId, credits: p.credits, amount: p.amount, currency: p.currency, status: p.status, createdAt: iso(p.createdAt) };
}

export class BillingService {
  constructor(
    private readonly repo: BillingRepository,
    private readonly ledger: CreditsRepository,
    private readonly credits: CreditsService,
    /** Null when no payment provider is configured (local mode, or hosted without Stripe). */
    private readonly provider: PaymentProvider | null,
    private readonly urls: BillingUrls,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  private requireProvider(): PaymentProvider {
    if (!this.provider) throw new ProblemError('not_implemented', { detail: 'Billing is not configured on this server (set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET).' });
    return this.provider;
  }

  async checkout(workspaceId: string, packId: string): Promise<{ id: string; url: string }> {
    const provider = this.requireProvider();
    const pack = CREDIT_PACKS.find((p) => p.id === packId);
    if (!pack) throw new ProblemError('not_found', { detail: `No credit pack "${packId}". See GET /v1/pricing.` });
    const purchaseId = `pur_${randomBytes(12).toString('base64url')}`;
    const now = this.clock.now();
    await this.repo.insertPurchase({ id: purchaseId, workspaceId, packId: pack.id, credits: pack.credits, amount: pack.amount, currency: pack.currency, createdAt: now });
    try {
      const session = await provider.createCheckout({ purchaseId, workspaceId, packName: pack.name, credits: pack.credits, amount: pack.amount, currency: pack.currency, ...this.urls });
      await this.repo.setCheckoutSession(purchaseId, session.id, this.clock.now());
      return session;
    } catch (err) {
      await this.repo.deletePurchase(purchaseId);
      throw err;
    }
  }

  async summary(workspaceId: string) {
    return {
      balance: await this.credits.balance(workspaceId),
      packs: CREDIT_PACKS.map((p) => ({ ...p })),
      purchases: (await this.repo.listPurchases(workspaceId)).map(purchaseView),
    };
  }

  /** Verifies and applies one provider event; returns whether it was a duplicate. */
  async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<{ duplicate: boolean }> {
    const event = this.requireProvider().verifyEvent(rawBody, signature);
    const applied = await this.repo.processOnce(event.id, event.type, this.clock.now(), (trx) => this.apply(trx, event));
    this.logger.info({ eventId: event.id, type: event.type, duplicate: !applied }, 'payment event');
    return { duplicate: !applied };
  }

  private async apply(trx: Knex, event: PaymentEvent): Promise<void> {
    const now = this.clock.now();
    const o = event.object;
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        if (o.payment_status !== 'paid') return; // async methods complete later
        const purchaseId = (o.metadata as Record<string, string> | undefined)?.purchase_id ?? (o.client_reference_id as string | undefined);
        const purchase = purchaseId ? await this.repo.findPurchase(trx, { id: purchaseId }) : undefined;
        if (!purchase) {
          this.logger.warn({ eventId: event.id }, 'payment for an unknown purchase');
          return;
        }
        if (purchase.status !== 'pending') return;
        await this.repo.updatePurchase(trx, purchase.id, { status: 'completed', paymentIntentId: (o.payment_intent as string | null) ?? null }, now);
        await this.ledger.post({ id: `credit_${purchase.id}`, workspaceId: purchase.workspaceId, kind: 'purchase', amount: purchase.credits, reference: purchase.id, description: `${purchase.packId} pack` }, now, trx);
        return;
      }
      case 'charge.refunded': {
        const intent = o.payment_intent as string | undefined;
        const purchase = intent ? await this.repo.findPurchase(trx, { paymentIntentId: intent }) : undefined;
        if (!purchase || purchase.status === 'pending') return;
        const amountRefunded = Number(o.amount_refunded ?? 0);
        // Credits come back in proportion to the money (a partial refund takes back part of the pack).
        const target = Math.min(purchase.credits, Math.round((purchase.credits * amountRefunded) / purchase.amount));
        const delta = target - purchase.refundedCredits;
        if (delta > 0) {
          await this.ledger.post({ id: `refund_${event.id}`, workspaceId: purchase.workspaceId, kind: 'refund', amount: -delta, reference: purchase.id, description: 'refund' }, now, trx);
        }
        await this.repo.updatePurchase(trx, purchase.id, { refundedCredits: Math.max(target, purchase.refundedCredits), status: amountRefunded >= purchase.amount ? 'refunded' : 'completed' }, now);
        return;
      }
      default:
        return; // other events are acknowledged and ignored
    }
  }
}
