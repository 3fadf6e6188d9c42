import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('getBudget', async (ctx) => {
  const principal = requirePrincipal(ctx);
  sendJson(ctx, 200, await ctx.deps.services.budgets.view(principal.workspaceId), { 'Cache-Control': 'no-store' });
});
