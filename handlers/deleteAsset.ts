import { defineHandler, requirePrincipal } from '../src/http/handler.types.ts';

export default defineHandler('deleteAsset', async (ctx) => {
  const principal = requirePrincipal(ctx);
  await ctx.deps.services.assets.delete(principal.workspaceId, ctx.params.id);
  ctx.log.info({ assetId: ctx.params.id, workspaceId: principal.workspaceId }, 'asset deleted');
  ctx.res.status(204).set('Cache-Control', 'no-store').end();
});
