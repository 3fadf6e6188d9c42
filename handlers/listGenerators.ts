import { toGeneratorView } from '../src/generators/generator.view.ts';
import { defineHandler, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('listGenerators', (ctx) => {
  sendJson(ctx, 200, ctx.deps.services.generators.list().map(toGeneratorView), { 'Cache-Control': 'public, max-age=60' });
});
