import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('createSigningBase', async (ctx) => {
  const principal = requirePrincipal(ctx);
  // The contract refuses expiresAt with expiresInSeconds (`not: { required: [...] }`): 400 naming body.expiresInSeconds.
  const base = await ctx.deps.services.signingBases.create(
    principal.workspaceId,
    ctx.params.id,
    ctx.body,
    ctx.deps.config.signIn.publicUrl,
  );
  ctx.log.info({ baseId: base.id, keyId: base.keyId, workspaceId: principal.workspaceId }, 'signed base created');
  sendJson(ctx, 201, base, { 'Cache-Control': 'no-store', Location: `/v1/url-signing-keys/${base.keyId}/bases/${base.id}` });
});
