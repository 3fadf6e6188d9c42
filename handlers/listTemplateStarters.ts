import { defineHandler, sendJson } from '../src/http/handler.types.ts';
import { templateStarters } from '../src/templates/starters.ts';

export default defineHandler('listTemplateStarters', async (ctx) => {
  sendJson(ctx, 200, templateStarters(), { 'Cache-Control': 'no-store' });
});
