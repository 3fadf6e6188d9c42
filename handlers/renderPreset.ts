import { defineHandler, requirePrincipal } from '../src/http/handler.types.ts';
import { renderForRequest } from '../src/http/render-response.ts';

export default defineHandler('renderPreset', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const resolved = await ctx.deps.services.presets.resolve(principal.workspaceId, ctx.params.id);
  await renderForRequest(ctx, resolved);
});
