import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('createQuote', async (ctx) => {
  const quote = await ctx.deps.services.quotes.quote(requirePrincipal(ctx), ctx.body);
  sendJson(ctx, 200, quote, { 'Cache-Control': 'no-store' });
});
