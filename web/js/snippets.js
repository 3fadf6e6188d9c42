// The text the playground's copy buttons give: the recipe URL, a curl command and a TypeScript snippet
// (the Share panel's <img> and og:image tags are share.js's). No DOM: the page's origin comes in as an
// argument (unit-tested in Node: test/unit/web-snippets.test.ts).
import { formats } from './formats.js';
import { decodeRecipe, recipeBody } from './recipe.js';

/**
 * The recipe URL of what Download gives (as the curl command does): the preview's recipe URL (`last`:
 * its encoded `recipe` and `hash`) with the `chosen` recipe's format, size and pixel ratio as the URL's
 * overrides where they differ (the hash stays the preview's).
 */
export function recipeUrl(origin, last, chosen) {
  const shown = decodeRecipe(last.recipe) ?? {};
  const overrides = [
    ['format', shown.format, chosen.format],
    ['w', shown.size?.width, chosen.size.width],
    ['h', shown.size?.height, chosen.size.height],
    ['pr', shown.size?.pixelRatio, chosen.size.pixelRatio],
    ['q', shown.quality, recipeBody(chosen).quality],
  ].filter(([, was, is]) => was !== is && is !== undefined);
  return `${origin}/v1/render/${last.hash}?r=${last.recipe}${overrides.map(([k, , v]) => `&${k}=${v}`).join('')}`;
}

export function curlSnippet(origin, recipe) {
  const body = JSON.stringify(recipeBody(recipe)).replace(/'/g, "'\\''");
  return [
    `curl -sS -X POST '${origin}/v1/generate/${recipe.slug}' \\`,
    `  -H "Authorization: Bearer $KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '${body}' \\`,
    `  -o out.${formats[recipe.format]?.extension ?? recipe.format}`,
  ].join('\n');
}

/** The typed client: openapi-fetch over types generated from this service's contract. */
export function tsSnippet(origin, recipe) {
  const body = JSON.stringify(recipeBody(recipe), null, 2).replace(/\n/g, '\n  ');
  return [
    `// npm i openapi-fetch && npx openapi-typescript ${origin}/v1/openapi.json -o render-service.ts`,
    `import createClient from 'openapi-fetch';`,
    `import type { paths } from './render-service';`,
    ``,
    `const client = createClient<paths>({`,
    `  baseUrl: '${origin}',`,
    '  headers: { Authorization: `Bearer ${process.env.RENDER_SERVICE_KEY}` },',
    `});`,
    `const { data, error, response } = await client.POST('/v1/generate/{slug}', {`,
    `  params: { path: { slug: '${recipe.slug}' } },`,
    // as const keeps the format a literal, so openapi-fetch types `data` by parseAs (ArrayBuffer).
    `  body: ${body} as const,`,
    `  parseAs: 'arrayBuffer',`,
    `});`,
    'if (error) throw new Error(`${error.code}: ${error.detail ?? error.title}`);',
    `const recipeHash = response.headers.get('X-Service-Recipe-Hash');`,
    `const bytes = new Uint8Array(data); // ${recipe.format}`,
  ].join('\n');
}
