import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('getMe', async (ctx) => {
  const principal = requirePrincipal(ctx);
  const workspace = await ctx.deps.services.workspaces.current(principal.workspaceId);
  sendJson(
    ctx,
    200,
    {
      // Only renderRecipe accepts the signedUrl scheme, so no signed principal gets here.
      authMethod: principal.method as Exclude<typeof principal.method, 'signed_url'>,
      user: principal.user ?? null,
      workspace,
      // Local mode performs no credit checks.
      balance: ctx.deps.services.credits.enabled ? await ctx.deps.services.credits.balance(workspace.id) : null,
    },
    { 'Cache-Control': 'no-store' },
  );
});
