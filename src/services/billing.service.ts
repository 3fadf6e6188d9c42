// Credit packs bought through the payment provider: checkout sessions, the balance and purchases,
// and the provider's signed events — each processed exactly once, crediting a completed payment
// and taking back refunded credits whichever of the two arrives first (the provider does not
// promise order).
import { newId } from '../lib/ids.ts';
import type { Logger } from 'pino';
import type { BillingRepository, PurchaseRecord } from '../../db/repositories/billing.repository.ts';
import type { Transaction } from '../../db/database.ts';
import { ProblemError } from '../errors/problem.ts';
import type { Clock } from '../lib/clock.ts';
import type { CreditsService } from './credits.service.ts';
import type { PaymentEvent, PaymentProvider } from './payment-provider.ts';
import { CREDIT_PACKS } from './pricing.ts';

export interface BillingUrls {
  successUrl: string;
  cancelUrl: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function purchaseView(p: PurchaseRecord) {
  return {
    id: p.id,
    packId: p.packId,
    credits: p.credits,
    amount: p.amount,
    currency: p.currency,
    status: p.status,
    createdAt: iso(p.createdAt),
  };
}

export interface BillingServiceOptions {
  repo: BillingRepository;
  /** Purchases and refunds are posted to the credit ledger through it, in the event's transaction. */
  credits: CreditsService;
  /** Null when no payment provider is configured (local mode, or hosted without Stripe). */
  provider: PaymentProvider | null;
  urls: BillingUrls;
  clock: Clock;
  logger: Logger;
}

export class BillingService {
  private readonly repo: BillingRepository;
  private readonly credits: CreditsService;
  private readonly provider: PaymentProvider | null;
  private readonly urls: BillingUrls;
  private readonly clock: Clock;
  private readonly logger: Logger;

  constructor(options: BillingServiceOptions) {
    ({
      repo: this.repo,
      credits: this.credits,
      provider: this.provider,
      urls: this.urls,
      clock: this.clock,
      logger: this.logger,
    } = options);
  }

  private requireProvider(): PaymentProvider {
    if (!this.provider)
      throw new ProblemError('not_implemented', {
        detail: 'Billing is not configured on this server (set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET).',
      });
    return this.provider;
  }

  async checkout(workspaceId: string, packId: string): Promise<{ id: string; url: string }> {
    const provider = this.requireProvider();
    const pack = CREDIT_PACKS.find((p) => p.id === packId);
    if (!pack) throw new ProblemError('not_found', { detail: `No credit pack "${packId}". See GET /v1/pricing.` });
    const purchaseId = newId('pur');
    const now = this.clock.now();
    await this.repo.insertPurchase({
      id: purchaseId,
      workspaceId,
      packId: pack.id,
      credits: pack.credits,
      amount: pack.amount,
      currency: pack.currency,
      createdAt: now,
    });
    try {
      const session = await provider.createCheckout({
        purchaseId,
        workspaceId,
        packName: pack.name,
        credits: pack.credits,
        amount: pack.amount,
        currency: pack.currency,
        ...this.urls,
      });
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

  private async apply(trx: Transaction, event: PaymentEvent): Promise<void> {
    const now = this.clock.now();
    const o = event.object;
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        if (o.payment_status !== 'paid') return; // async methods complete later
        const intent = (o.payment_intent as string | null | undefined) ?? null;
        // The payment intent's lock first (see lockRefund): a refund that arrived earlier, or is
        // arriving now, is applied in this same transaction.
        const refunded = intent ? await this.repo.lockRefund(trx, intent, 0, now) : 0;
        const purchaseId = (o.metadata as Record<string, string> | undefined)?.purchase_id ?? (o.client_reference_id as string | undefined);
        const purchase = purchaseId ? await this.repo.findPurchase(trx, { id: purchaseId }) : undefined;
        if (!purchase) {
          this.logger.warn({ eventId: event.id }, 'payment for an unknown purchase');
          return;
        }
        if (!(await this.repo.completePurchase(trx, purchase.id, intent, now))) return;
        await this.credits.add(
          {
            id: `credit_${purchase.id}`,
            workspaceId: purchase.workspaceId,
            kind: 'purchase',
            amount: purchase.credits,
            reference: purchase.id,
            description: `${purchase.packId} pack`,
          },
          trx,
        );
        if (refunded > 0) await this.applyRefund(trx, { ...purchase, status: 'completed', paymentIntentId: intent }, refunded, now);
        return;
      }
      case 'charge.refunded': {
        const intent = o.payment_intent as string | undefined;
        if (!intent) return;
        // Recorded whatever the order: a refund for a payment not completed yet waits here for it.
        const amountRefunded = await this.repo.lockRefund(trx, intent, Number(o.amount_refunded ?? 0), now);
        const purchase = await this.repo.findPurchase(trx, { paymentIntentId: intent });
        if (!purchase || purchase.status === 'pending') {
          this.logger.info(
            { eventId: event.id, paymentIntent: intent },
            'refund before its payment completed: recorded, applied at completion',
          );
          return;
        }
        await this.applyRefund(trx, purchase, amountRefunded, now);
        return;
      }
      default:
        return; // other events are acknowledged and ignored
    }
  }

  /** Takes back credits in proportion to the money refunded so far (`amountRefunded` is cumulative). */
  private async applyRefund(trx: Transaction, purchase: PurchaseRecord, amountRefunded: number, now: number): Promise<void> {
    const target = Math.min(purchase.credits, Math.round((purchase.credits * amountRefunded) / purchase.amount));
    const delta = target - purchase.refundedCredits;
    if (delta > 0) {
      // One entry per level reached: the same cumulative amount reported twice takes back nothing more.
      await this.credits.add(
        {
          id: `refund_${purchase.id}_${target}`,
          workspaceId: purchase.workspaceId,
          kind: 'refund',
          amount: -delta,
          reference: purchase.id,
          description: 'refund',
        },
        trx,
      );
    }
    await this.repo.updatePurchase(
      trx,
      purchase.id,
      { refundedCredits: Math.max(target, purchase.refundedCredits), status: amountRefunded >= purchase.amount ? 'refunded' : 'completed' },
      now,
    );
  }
}
