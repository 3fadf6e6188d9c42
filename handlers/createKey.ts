import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('createKey', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const created = await ctx.deps.services.keys.create(principal.workspaceId, ctx.body.label);
  ctx.log.info({ keyId: created.id, workspaceId: principal.workspaceId }, 'api key created');
  sendJson(ctx, 201, created, { 'Cache-Control': 'no-store', Location: `/v1/keys/${created.id}` });
});
