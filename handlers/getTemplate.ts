import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('getTemplate', async (ctx) => {
  const principal = requirePrincipal(ctx);
  sendJson(ctx, 200, await ctx.deps.services.templates.get(principal.workspaceId, ctx.params.id), { 'Cache-Control': 'no-store' });
});
