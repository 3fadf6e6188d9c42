import { defineHandler } from '../src/http/handler.types.ts';
import { renderForRequest } from '../src/http/render-response.ts';
import { assertWebhookUrlAllowed } from '../src/services/webhook-url.ts';

export default defineHandler('generate', async (ctx) => {
  const body = ctx.body ?? {};
  // A synchronous render delivers no webhook, but a URL that could never be delivered to is refused.
  if (body.webhookUrl !== undefined) assertWebhookUrlAllowed(body.webhookUrl, ctx.deps.config);
  // A template (`tpl_…`) is the caller's workspace's: another workspace's answers 404.
  const resolved = await ctx.deps.services.recipes.resolve(ctx.principal?.workspaceId, ctx.params.slug, body);
  await renderForRequest(ctx, resolved);
});
