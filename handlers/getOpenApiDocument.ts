import { defineHandler, sendJson } from '../src/http/handler.types.ts';
import { openApiDocument } from '../src/lib/openapi-document.ts';

export default defineHandler('getOpenApiDocument', (ctx) => {
  sendJson(ctx, 200, openApiDocument(), { 'Cache-Control': 'public, max-age=300' });
});
