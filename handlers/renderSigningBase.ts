import { defineHandler, requirePrincipal } from '../src/http/handler.types.ts';
import { renderForRequest } from '../src/http/render-response.ts';

export default defineHandler('renderSigningBase', async (ctx) => {
  // Authenticated by the path's signature (the signing key is the principal, as for a signed recipe URL).
  const principal = requirePrincipal(ctx);
  // The query as the server parsed it: a slot given twice is an array, refused naming it.
  const resolved = await ctx.deps.services.signingBases.recipeFor(principal.workspaceId, ctx.params.baseId, ctx.req.query);
  // Answered by the code that answers signed recipe URLs: ETag, public caching, charges and limits alike.
  await renderForRequest(ctx, resolved);
});
