import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('listAssets', async (ctx) => {
  const { limit, cursor } = ctx.query as { limit?: number; cursor?: string };
  const page = await ctx.deps.services.assets.list(requirePrincipal(ctx).workspaceId, { limit, cursor });
  const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
  if (page.next) {
    const params = new URLSearchParams({ ...(limit ? { limit: String(limit) } : {}), cursor: page.next });
    headers.Link = `</v1/assets?${params}>; rel="next"`;
  }
  sendJson(ctx, 200, page.assets, headers);
});
