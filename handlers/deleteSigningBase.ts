import { defineHandler, requirePrincipal } from '../src/http/handler.types.ts';

export default defineHandler('deleteSigningBase', async (ctx) => {
  const principal = requirePrincipal(ctx);
  await ctx.deps.services.signingBases.delete(principal.workspaceId, ctx.params.id, ctx.params.baseId);
  ctx.log.info({ baseId: ctx.params.baseId, keyId: ctx.params.id, workspaceId: principal.workspaceId }, 'signed base deleted');
  ctx.res.status(204).set('Cache-Control', 'no-store').end();
});
