import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';
import { FORMATS } from '../src/lib/formats.ts';

export default defineHandler('signRenderUrl', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const { slug, params, seed, size, format, quality, expiresAt, expiresInSeconds, extension } = ctx.body;
  // The contract refuses expiresAt with expiresInSeconds (`not: { required: [...] }`): 400 naming body.expiresInSeconds.
  // Validated exactly as POST /v1/generate/{slug} validates its body.
  const resolved = await ctx.deps.services.recipes.resolve(principal.workspaceId, slug, { params, seed, size, format, quality });
  const path = `/v1/render/${resolved.hash}${extension ? `.${FORMATS[resolved.recipe.format].extension}` : ''}?r=${resolved.encoded}`;
  const signed = await ctx.deps.services.urlSigningKeys.signTarget(principal.workspaceId, ctx.params.id, path, {
    expiresAt,
    expiresInSeconds,
  });
  sendJson(
    ctx,
    200,
    {
      url: `${ctx.deps.config.signIn.publicUrl}${signed.target}`,
      expiresAt: signed.expiresAt === null ? null : new Date(signed.expiresAt * 1000).toISOString(),
      recipeHash: resolved.hash,
    },
    { 'Cache-Control': 'no-store' },
  );
});
