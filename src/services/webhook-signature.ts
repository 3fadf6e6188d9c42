// Standard Webhooks signing (webhook-id / webhook-timestamp / webhook-signature): what the delivery
// service sends, and the check a receiver makes (documented in docs/jobs-and-webhooks.md, tested with a known vector).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from './webhook-secrets.service.ts';

/** Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `<id>.<timestamp>.<body>` keyed by the secret's decoded bytes. */
export function signWebhook(secret: string, webhookId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${webhookId}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * Verifies Standard Webhooks headers the way a receiver should: one of the space-separated `v1,`
 * signatures matches and the timestamp is within `toleranceSeconds` of `nowSeconds`.
 */
export function verifyWebhook(
  secret: string,
  headers: { 'webhook-id'?: string; 'webhook-timestamp'?: string; 'webhook-signature'?: string },
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = 300,
): boolean {
  const id = headers['webhook-id'];
  const ts = Number(headers['webhook-timestamp']);
  const signatures = headers['webhook-signature'];
  if (!id || !Number.isInteger(ts) || !signatures || Math.abs(nowSeconds - ts) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhook(secret, id, ts, body));
  return signatures.split(' ').some((s) => {
    const got = Buffer.from(s);
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}
