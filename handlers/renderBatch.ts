import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('renderBatch', async (ctx) => {
  const results = await ctx.deps.services.batch.renderAll(ctx.body.items, requirePrincipal(ctx), ctx.signal);
  sendJson(ctx, 200, { count: results.length, results });
});
