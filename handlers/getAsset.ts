import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('getAsset', async (ctx) => {
  const principal = requirePrincipal(ctx);
  sendJson(ctx, 200, await ctx.deps.services.assets.get(principal.workspaceId, ctx.params.id), { 'Cache-Control': 'no-store' });
});
