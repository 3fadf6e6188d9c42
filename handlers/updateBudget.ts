import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('updateBudget', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const view = await ctx.deps.services.budgets.update(principal.workspaceId, ctx.body);
  sendJson(ctx, 200, view, { 'Cache-Control': 'no-store' });
});
