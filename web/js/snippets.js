// The text the playground's copy buttons give: the recipe URL, a curl command, a TypeScript snippet,
// an <img> tag and og:image tags. No DOM: the page's origin comes in as an argument (unit-tested in
// Node: test/unit/web-snippets.test.ts).
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

/** Text as an HTML attribute value (in double quotes). */
export const attr = (text) => String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** An <img> tag of a signed URL at the recipe's CSS size. */
export const imgTag = (url, recipe, alt) =>
  `<img src="${attr(url)}" width="${recipe.size.width}" height="${recipe.size.height}" alt="${attr(alt)}">`;

/** The formats the og:image copy offers; link previews take jpeg and png, not all of them webp. */
export const OG_FORMATS = ['jpeg', 'png', 'webp'];

/** The og:image format offered first: of those every link preview takes (jpeg, png), the smallest measured (`sizes`: bytes by format). */
export function ogFormat(sizes) {
  return OG_FORMATS.slice(0, 2)
    .filter((f) => sizes[f] > 0)
    .sort((a, b) => sizes[a] - sizes[b])[0];
}

/** Open Graph and Twitter card tags of a signed URL (the image's device pixels, its media type). */
export function ogTags(url, recipe) {
  const px = (n) => Math.round(n * (recipe.size.pixelRatio ?? 1));
  const meta = (key, content, name = 'property') => `<meta ${name}="${key}" content="${attr(content)}">`;
  return [
    meta('og:image', url),
    meta('og:image:width', px(recipe.size.width)),
    meta('og:image:height', px(recipe.size.height)),
    meta('og:image:type', formats[recipe.format].contentType),
    meta('twitter:card', 'summary_large_image', 'name'),
    meta('twitter:image', url, 'name'),
  ].join('\n');
}
