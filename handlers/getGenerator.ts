import { ProblemError } from '../src/errors/problem.ts';
import { toGeneratorDetailView } from '../src/generators/generator.view.ts';
import { defineHandler, sendJson } from '../src/http/handler.types.ts';

export default defineHandler('getGenerator', (ctx) => {
  const { generators } = ctx.deps.services;
  const def = generators.get(ctx.params.slug);
  if (!def)
    throw new ProblemError('generator_not_found', { detail: `No generator has the slug "${ctx.params.slug}". See GET /v1/generators.` });
  sendJson(ctx, 200, toGeneratorDetailView(def, generators.releases(def.slug)), { 'Cache-Control': 'public, max-age=60' });
});
