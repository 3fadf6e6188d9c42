import { defineHandler } from '../src/http/handler.types.ts';
import { renderForRequest } from '../src/http/render-response.ts';

export default defineHandler('renderRecipe', async (ctx) => {
  const { r, format, w, h, pr } = ctx.query;
  const resolved = ctx.deps.services.render.resolveEncoded(ctx.params.recipeHash, r, { format, w, h, pr });
  await renderForRequest(ctx, resolved);
});
