import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('getTemplateVersion', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const version = await ctx.deps.services.templates.getVersion(principal.workspaceId, ctx.params.id, Number(ctx.params.version));
  sendJson(ctx, 200, version, { 'Cache-Control': 'no-store' });
});
