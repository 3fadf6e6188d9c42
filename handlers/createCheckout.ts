import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('createCheckout', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const session = await ctx.deps.services.billing.checkout(principal.workspaceId, ctx.body.packId);
  sendJson(ctx, 201, session, { 'Cache-Control': 'no-store' });
});
