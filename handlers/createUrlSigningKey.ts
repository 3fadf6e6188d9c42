import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('createUrlSigningKey', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const created = await ctx.deps.services.urlSigningKeys.create(principal.workspaceId, ctx.body);
  ctx.log.info({ keyId: created.id, workspaceId: principal.workspaceId }, 'url signing key created');
  sendJson(ctx, 201, created, { 'Cache-Control': 'no-store', Location: `/v1/url-signing-keys/${created.id}` });
});
