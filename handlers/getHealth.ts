import { defineHandler, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('getHealth', (ctx) => {
  sendJson(ctx, 200, ctx.deps.services.health.health(), { 'Cache-Control': 'no-store' });
});
