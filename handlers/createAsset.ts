import { defineHandler, requirePrincipal, sendJson } from '../src/http/handler.types.ts';
import type { RawBodyRequest } from '../src/http/body.middleware.ts';

export default defineHandler('createAsset', async (ctx) => {
  const principal = requirePrincipal(ctx);
  // The file is the raw body (read by the body reader with its type's limit); a JSON body is refused here (415).
  const { status, asset } = await ctx.deps.services.assets.upload(
    principal.workspaceId,
    ctx.req.headers['content-type'],
    (ctx.req as RawBodyRequest).rawBody,
  );
  ctx.log.info(
    { assetId: asset.id, workspaceId: principal.workspaceId, kind: asset.kind, bytes: asset.bytes, outcome: status },
    'asset uploaded',
  );
  const headers = { 'Cache-Control': 'no-store', Location: `/v1/assets/${asset.id}` };
  // The same bytes again (or a deleted asset restored) are the asset the workspace already had: 200.
  if (status === 'created') sendJson(ctx, 201, asset, headers);
  else sendJson(ctx, 200, asset, headers);
});
