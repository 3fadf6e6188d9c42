import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('createKey', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const { label, scopes, monthlyCreditLimit } = ctx.body;
  // The caller bounds the new key: a scoped key creates keys only within its own scopes.
  const created = await ctx.deps.services.keys.create(principal.workspaceId, label, { scopes, monthlyCreditLimit }, principal);
  ctx.log.info({ keyId: created.id, workspaceId: principal.workspaceId, scopes: created.scopes }, 'api key created');
  sendJson(ctx, 201, created, { 'Cache-Control': 'no-store', Location: `/v1/keys/${created.id}` });
});
