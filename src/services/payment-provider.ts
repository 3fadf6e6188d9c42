// The payment provider behind a small interface (Stripe in production, src/adapters/stripe.payment-provider.ts;
// tests point the real Stripe SDK at a local stand-in for its API), and the signature header rules.
import { ProblemError } from '../errors/problem.ts';

export interface CheckoutRequest {
  purchaseId: string;
  workspaceId: string;
  packName: string;
  credits: number;
  amount: number;
  currency: string;
  successUrl: string;
  cancelUrl: string;
}

export interface PaymentEvent {
  id: string;
  type: string;
  object: Record<string, unknown>;
}

export interface PaymentProvider {
  createCheckout(request: CheckoutRequest): Promise<{ id: string; url: string }>;
  /** Verifies the signature over the exact raw body and the timestamp (±toleranceSeconds); throws 400 invalid_signature. */
  verifyEvent(rawBody: Buffer, signatureHeader: string | undefined): PaymentEvent;
}

/** The two names the signature may arrive under: ours, and the one Stripe itself sends. */
export const SIGNATURE_HEADERS = ['payment-signature', 'stripe-signature'] as const;

/**
 * The one signature header of a webhook request. Exactly one may be sent: with both, either could
 * be the forged one (a bogus first header shadowed a valid second one), so the request is refused
 * rather than guessed at — 400 invalid_signature. A header repeated under one name is refused too.
 */
export function signatureHeader(headers: Record<string, string | string[] | undefined>): string | undefined {
  const present = SIGNATURE_HEADERS.filter((name) => headers[name] !== undefined);
  if (present.length > 1) {
    throw new ProblemError('invalid_signature', {
      detail: 'Send exactly one signature header, Payment-Signature or Stripe-Signature, not both.',
    });
  }
  const value = present.length === 1 ? headers[present[0]] : undefined;
  if (Array.isArray(value)) throw new ProblemError('invalid_signature', { detail: `Send exactly one ${present[0]} header.` });
  return value;
}

/** Signed events older or newer than this are refused (replay protection). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
