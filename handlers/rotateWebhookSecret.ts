import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('rotateWebhookSecret', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const secret = await ctx.deps.services.webhooks.secrets.rotate(principal.workspaceId);
  // Never the secret itself in the log.
  ctx.log.info({ workspaceId: principal.workspaceId }, 'webhook signing secret rotated');
  sendJson(ctx, 200, secret, { 'Cache-Control': 'no-store' });
});
