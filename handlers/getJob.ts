import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('getJob', async (ctx) => {
  const { jobs } = ctx.deps.services;
  sendJson(ctx, 200, await jobs.view(await jobs.get(requirePrincipal(ctx).workspaceId, ctx.params.id)), { 'Cache-Control': 'no-store' });
});
