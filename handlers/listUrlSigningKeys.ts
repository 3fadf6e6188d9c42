import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('listUrlSigningKeys', async (ctx) => {
  const principal = requirePrincipal(ctx);
  sendJson(ctx, 200, await ctx.deps.services.urlSigningKeys.list(principal.workspaceId), { 'Cache-Control': 'no-store' });
});
