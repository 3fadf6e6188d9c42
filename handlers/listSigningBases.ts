import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('listSigningBases', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const bases = await ctx.deps.services.signingBases.list(principal.workspaceId, ctx.params.id, ctx.deps.config.signIn.publicUrl);
  sendJson(ctx, 200, bases, { 'Cache-Control': 'no-store' });
});
