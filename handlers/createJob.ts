import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';
import type { JobCreate } from '../src/jobs/jobs.service.ts';

export default defineHandler('createJob', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const job = await ctx.deps.services.jobs.submit(principal, ctx.body as JobCreate);
  sendJson(ctx, 202, await ctx.deps.services.jobs.view(job), { Location: `/v1/jobs/${job.id}`, 'Cache-Control': 'no-store' });
});
