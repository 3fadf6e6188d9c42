import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('getUsage', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const summary = await ctx.deps.services.usage.summary(principal.workspaceId, ctx.query.from, ctx.query.to);
  sendJson(ctx, 200, summary, { 'Cache-Control': 'no-store' });
});
