import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('getWebhookSecret', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const secret = await ctx.deps.services.webhooks.secrets.get(principal.workspaceId);
  sendJson(ctx, 200, secret, { 'Cache-Control': 'no-store' });
});
