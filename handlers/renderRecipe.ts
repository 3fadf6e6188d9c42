import { defineHandler } from '../src/http/handler.types.ts';
import { renderForRequest } from '../src/http/render-response.ts';
import { validationFailed } from '../src/http/request-steps.ts';
import { FORMATS } from '../src/lib/formats.ts';

export default defineHandler('renderRecipe', async (ctx) => {
  const { r, format, w, h, pr, q } = ctx.query;
  // The path form `<hash>.<ext>` (for places that want a file name): the extension must name the format rendered.
  const [hash, extension] = ctx.params.recipeHash.split('.') as [string, string | undefined];
  // (`.jpg` for jpeg: a format's extension, src/lib/formats.ts.)
  // A template's recipe renders in its own workspace only: a key of (or a URL signed for) another answers 404.
  const resolved = await ctx.deps.services.recipes.resolveEncoded(ctx.principal?.workspaceId, hash, r, { format, w, h, pr, q });
  const expected = FORMATS[resolved.recipe.format].extension;
  if (extension !== undefined && extension !== expected)
    throw validationFailed([
      {
        path: 'path.recipeHash',
        message: `has the extension .${extension} but the format rendered is ${resolved.recipe.format} (.${expected})`,
        keyword: 'pattern',
      },
    ]);
  await renderForRequest(ctx, resolved);
});
