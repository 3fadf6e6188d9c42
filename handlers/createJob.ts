import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';
import { CREDITS_REMAINING_HEADER, creditsRemainingFor } from '../src/http/render-response.ts';
import type { JobCreate } from '../src/jobs/jobs.service.ts';

export default defineHandler('createJob', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const job = await ctx.deps.services.jobs.submit(principal, ctx.body as JobCreate);
  // The balance after the job's hold (hosted mode only): what is left for other renders meanwhile.
  const remaining = await creditsRemainingFor(ctx.deps.services.credits, principal);
  sendJson(ctx, 202, await ctx.deps.services.jobs.view(job), {
    Location: `/v1/jobs/${job.id}`,
    'Cache-Control': 'no-store',
    ...(remaining === undefined ? {} : { [CREDITS_REMAINING_HEADER]: String(remaining) }),
  });
});
