import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('getBilling', async (ctx) => {
  const principal = requirePrincipal(ctx);
  sendJson(ctx, 200, await ctx.deps.services.billing.summary(principal.workspaceId), { 'Cache-Control': 'no-store' });
});
