import { defineHandler } from '../src/http/handler.types.ts';
import { renderForRequest } from '../src/http/render-response.ts';
import { validationFailed } from '../src/http/request-steps.ts';

export default defineHandler('renderRecipe', async (ctx) => {
  const { r, format, w, h, pr } = ctx.query;
  // The path form `<hash>.<ext>` (for places that want a file name): the extension must name the format rendered.
  const [hash, extension] = ctx.params.recipeHash.split('.') as [string, string | undefined];
  // A template's recipe renders in its own workspace only: a key of (or a URL signed for) another answers 404.
  const resolved = await ctx.deps.services.recipes.resolveEncoded(ctx.principal?.workspaceId, hash, r, { format, w, h, pr });
  if (extension !== undefined && extension !== resolved.recipe.format)
    throw validationFailed([
      {
        path: 'path.recipeHash',
        message: `has the extension .${extension} but the format rendered is ${resolved.recipe.format}`,
        keyword: 'pattern',
      },
    ]);
  await renderForRequest(ctx, resolved);
});
