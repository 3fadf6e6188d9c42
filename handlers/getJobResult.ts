import { defineHandler, requirePrincipal } from '../src/http/handler.types.ts';
import { resultFilename } from '../src/jobs/job-results.ts';

export default defineHandler('getJobResult', async (ctx) => {
  const { job, bytes } = await ctx.deps.services.jobs.result(requirePrincipal(ctx).workspaceId, ctx.params.id);
  ctx.res
    .status(200)
    .set({
      'Content-Type': job.contentType ?? 'application/octet-stream',
      'Content-Length': String(bytes.length),
      'Content-Disposition': `attachment; filename="${resultFilename(job)}"`,
      'Cache-Control': 'private, no-store',
    })
    .end(bytes);
});
