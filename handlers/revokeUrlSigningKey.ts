import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('revokeUrlSigningKey', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const revoked = await ctx.deps.services.urlSigningKeys.revoke(principal.workspaceId, ctx.params.id);
  ctx.log.info({ keyId: revoked.id, workspaceId: principal.workspaceId }, 'url signing key revoked');
  sendJson(ctx, 200, revoked, { 'Cache-Control': 'no-store' });
});
