import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('listKeys', async (ctx) => {
  const principal = requirePrincipal(ctx);
  sendJson(ctx, 200, await ctx.deps.services.keys.list(principal.workspaceId), { 'Cache-Control': 'no-store' });
});
