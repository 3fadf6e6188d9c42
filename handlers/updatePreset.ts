import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('updatePreset', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const updated = await ctx.deps.services.presets.update(principal.workspaceId, ctx.params.id, ctx.body);
  ctx.log.info({ presetId: updated.id, workspaceId: principal.workspaceId }, 'preset updated');
  sendJson(ctx, 200, updated, { 'Cache-Control': 'no-store' });
});
