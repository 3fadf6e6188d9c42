import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('cancelJob', async (ctx) => {
  const { jobs } = ctx.deps.services;
  sendJson(ctx, 200, await jobs.view(await jobs.cancel(requirePrincipal(ctx).workspaceId, ctx.params.id)), { 'Cache-Control': 'no-store' });
});
