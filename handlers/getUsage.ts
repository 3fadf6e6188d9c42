import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('getUsage', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const { from, to, granularity, groupBy } = ctx.query;
  const summary = await ctx.deps.services.usage.summary(principal.workspaceId, from, to, { granularity, groupBy });
  sendJson(ctx, 200, summary, { 'Cache-Control': 'no-store' });
});
