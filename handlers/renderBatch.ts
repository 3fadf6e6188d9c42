import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';
import { CREDITS_REMAINING_HEADER, creditsRemainingFor } from '../src/http/render-response.ts';

export default defineHandler('renderBatch', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const results = await ctx.deps.services.batch.renderAll(ctx.body.items, principal, ctx.signal);
  // The balance the batch's last charge left (hosted mode only).
  const remaining = await creditsRemainingFor(ctx.deps.services.credits, principal);
  sendJson(ctx, 200, { count: results.length, results }, remaining === undefined ? {} : { [CREDITS_REMAINING_HEADER]: String(remaining) });
});
