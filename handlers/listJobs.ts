import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('listJobs', async (ctx) => {
  const { jobs } = ctx.deps.services;
  const { status, limit, cursor } = ctx.query as {
    status?: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
    limit?: number;
    cursor?: string;
  };
  const page = await jobs.list(requirePrincipal(ctx).workspaceId, { status, limit, cursor });
  const headers: Record<string, string> = { 'Cache-Control': 'no-store' };
  if (page.next) {
    const params = new URLSearchParams({ ...(status ? { status } : {}), ...(limit ? { limit: String(limit) } : {}), cursor: page.next });
    headers.Link = `</v1/jobs?${params}>; rel="next"`;
  }
  sendJson(ctx, 200, await Promise.all(page.jobs.map((j) => jobs.view(j))), headers);
});
