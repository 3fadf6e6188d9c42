import { defineHandler, requirePrincipal } from '../src/http/handler.types.ts';
import { ProblemError } from '../src/errors/problem.ts';
import { FORMATS } from '../src/lib/formats.ts';
import { deviceSize } from '../src/lib/device-size.ts';
import { MAX_PREVIEW_PIXELS, textFitHeader } from '../src/templates/draft-preview.ts';

export default defineHandler('previewTemplate', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const { template, ...input } = ctx.body;
  const { resolved, textFits } = await ctx.deps.services.recipes.resolveDraft(principal.workspaceId, template, input);
  const device = deviceSize(resolved.recipe.size);
  if (device.width * device.height > MAX_PREVIEW_PIXELS) {
    const message = `is ${device.width}×${device.height} output pixels; a preview is at most ${MAX_PREVIEW_PIXELS.toLocaleString('en')} (1920×1080)`;
    throw new ProblemError('validation_failed', {
      detail: `body.size ${message}.`,
      issues: [{ path: 'body.size', message, keyword: 'maximum' }],
    });
  }
  let bytes: Buffer;
  try {
    bytes = await ctx.deps.services.render.renderDraft(resolved, { signal: ctx.signal });
  } catch (err) {
    if (err instanceof ProblemError && err.code === 'client_closed_request' && ctx.signal.aborted) {
      ctx.res.statusCode = 499;
      ctx.log.info({}, 'client closed request; preview stopped');
      return;
    }
    throw err;
  }
  const res = ctx.res;
  res.statusCode = 200;
  res.setHeader('Content-Type', FORMATS[resolved.recipe.format].contentType);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Service-Credits', '0');
  if (textFits.length > 0) res.setHeader('X-Service-Text-Fit', textFitHeader(textFits));
  res.setHeader('Content-Length', String(bytes.length));
  res.end(bytes);
});
