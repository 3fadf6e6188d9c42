import { ProblemError } from '../src/errors/problem.ts';
import { DEPENDENCY_RETRY_AFTER_SECONDS } from '../src/lib/dependency-failure.ts';
import { defineHandler, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('getReady', async (ctx) => {
  const report = await ctx.deps.services.health.readiness();
  if (!report.ok) {
    const down = [!report.database && 'database', !report.ffmpeg && 'FFmpeg', !report.blobStore && 'blob store (BLOB_STORE)']
      .filter(Boolean)
      .join(' and ');
    // Still an error document, but with the same readiness fields a 200 carries.
    throw new ProblemError('not_ready', {
      detail: `Not ready: ${down} unavailable.`,
      extra: { ...report },
      headers: { 'Retry-After': String(DEPENDENCY_RETRY_AFTER_SECONDS) },
    });
  }
  sendJson(ctx, 200, report, { 'Cache-Control': 'no-store' });
});
