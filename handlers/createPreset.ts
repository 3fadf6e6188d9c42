import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('createPreset', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const created = await ctx.deps.services.presets.create(principal.workspaceId, ctx.body);
  ctx.log.info({ presetId: created.id, workspaceId: principal.workspaceId }, 'preset created');
  sendJson(ctx, 201, created, { 'Cache-Control': 'no-store', Location: `/v1/presets/${created.id}` });
});
