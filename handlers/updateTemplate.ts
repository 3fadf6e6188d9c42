import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('updateTemplate', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const updated = await ctx.deps.services.templates.update(principal.workspaceId, ctx.params.id, ctx.body);
  ctx.log.info({ templateId: updated.id, version: updated.version, workspaceId: principal.workspaceId }, 'template version saved');
  sendJson(ctx, 200, updated, { 'Cache-Control': 'no-store' });
});
