import type { RawBodyRequest } from '../src/http/body.middleware.ts';
import { defineHandler, sendJson } from '../src/http/handler.types.ts';
import { signatureHeader } from '../src/services/payment-provider.ts';

export default defineHandler('handlePaymentWebhook', async (ctx) => {
  // The signature covers the unmodified raw body; Stripe itself names the header Stripe-Signature.
  const header = signatureHeader(ctx.req.headers);
  const raw = (ctx.req as RawBodyRequest).rawBody ?? Buffer.alloc(0);
  const { duplicate } = await ctx.deps.services.billing.handleWebhook(raw, header);
  sendJson(ctx, 200, { received: true, duplicate });
});
