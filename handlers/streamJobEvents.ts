import { defineHandler, requirePrincipal } from '../src/http/handler.types.ts';

// Streams of one job share a single watcher; open streams are capped per workspace (job-event-streams.ts).
export default defineHandler('streamJobEvents', async (ctx) => {
  const { jobs, jobEvents } = ctx.deps.services;
  const workspaceId = requirePrincipal(ctx).workspaceId;
  const job = await jobs.get(workspaceId, ctx.params.id);
  await jobEvents.stream(workspaceId, job, ctx.res, ctx.signal);
});
