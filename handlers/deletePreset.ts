import { defineHandler, requirePrincipal } from '../src/http/handler.types.ts';

export default defineHandler('deletePreset', async (ctx) => {
  const principal = requirePrincipal(ctx);
  await ctx.deps.services.presets.delete(principal.workspaceId, ctx.params.id);
  ctx.log.info({ presetId: ctx.params.id, workspaceId: principal.workspaceId }, 'preset deleted');
  ctx.res.status(204).set('Cache-Control', 'no-store').end();
});
