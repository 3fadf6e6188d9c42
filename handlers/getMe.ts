import { ProblemError } from '../src/errors/problem.ts';
import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('getMe', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const workspace = await ctx.deps.services.workspaces.findById(principal.workspaceId);
  if (!workspace) throw new ProblemError('unauthorized', { detail: 'The workspace of these credentials no longer exists.' });
  sendJson(
    ctx,
    200,
    {
      authMethod: principal.method,
      user: principal.user ?? null,
      workspace: { id: workspace.id, name: workspace.name, kind: workspace.kind, createdAt: new Date(workspace.createdAt).toISOString() },
      // Local mode performs no credit checks.
      balance: ctx.deps.services.credits.enabled ? await ctx.deps.services.credits.balance(workspace.id) : null,
    },
    { 'Cache-Control': 'no-store' },
  );
});
