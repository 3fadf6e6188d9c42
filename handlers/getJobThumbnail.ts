import { defineHandler, requirePrincipal } from '../src/http/handler.types.ts';

export default defineHandler('getJobThumbnail', async (ctx) => {
  const thumbnail = await ctx.deps.services.jobs.thumbnail(requirePrincipal(ctx).workspaceId, ctx.params.id, ctx.query.pr ?? 1);
  ctx.res
    .status(200)
    .set({
      'Content-Type': thumbnail.contentType,
      'Content-Length': String(thumbnail.bytes.length),
      // A job's recipe never changes, so neither does its thumbnail.
      'Cache-Control': 'private, max-age=86400',
    })
    .end(thumbnail.bytes);
});
