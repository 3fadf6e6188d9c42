import { defineHandler, requirePrincipal } from '../src/http/handler.types.ts';

/** How often the stream looks at the job row (it may be running in another process). */
const POLL_MS = 250;
const KEEPALIVE_MS = 15_000;

export default defineHandler('streamJobEvents', async (ctx) => {
  const { jobs } = ctx.deps.services;
  const workspaceId = requirePrincipal(ctx).workspaceId;
  let job = await jobs.get(workspaceId, ctx.params.id);
  const res = ctx.res;
  res.status(200).set({ 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
  res.flushHeaders();
  let id = 0;
  const send = (event: string, data: unknown) => res.write(`id: ${++id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send('status', jobs.view(job));
  const ended = (s: string) => s === 'completed' || s === 'failed' || s === 'cancelled';
  let lastKeepAlive = Date.now();
  while (!ended(job.status) && !ctx.signal.aborted) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    const next = await jobs.get(workspaceId, job.id);
    if (next.status !== job.status) send('status', jobs.view(next));
    else if (next.progress !== job.progress) send('progress', { progress: next.progress });
    else if (Date.now() - lastKeepAlive > KEEPALIVE_MS) {
      res.write(': keep-alive\n\n');
      lastKeepAlive = Date.now();
    }
    job = next;
  }
  res.end();
});
