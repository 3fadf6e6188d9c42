import { defineHandler, requirePrincipal } from '../src/http/handler.types.ts';

export default defineHandler('deleteTemplate', async (ctx) => {
  const principal = requirePrincipal(ctx);
  await ctx.deps.services.templates.delete(principal.workspaceId, ctx.params.id);
  ctx.log.info({ templateId: ctx.params.id, workspaceId: principal.workspaceId }, 'template deleted');
  ctx.res.status(204).set('Cache-Control', 'no-store').end();
});
