import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('createTemplate', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const created = await ctx.deps.services.templates.create(principal.workspaceId, ctx.body);
  ctx.log.info({ templateId: created.id, workspaceId: principal.workspaceId }, 'template created');
  sendJson(ctx, 201, created, { 'Cache-Control': 'no-store', Location: `/v1/templates/${created.id}` });
});
