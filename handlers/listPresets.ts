import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('listPresets', async (ctx) => {
  const principal = requirePrincipal(ctx);
  sendJson(ctx, 200, await ctx.deps.services.presets.list(principal.workspaceId), { 'Cache-Control': 'no-store' });
});
