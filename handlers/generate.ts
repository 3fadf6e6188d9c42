import { defineHandler } from '../src/http/handler.types.ts';
import { renderForRequest } from '../src/http/render-response.ts';

export default defineHandler('generate', async (ctx) => {
  const body = ctx.body ?? {};
  const resolved = ctx.deps.services.render.resolve(ctx.params.slug, body);
  await renderForRequest(ctx, resolved);
});
