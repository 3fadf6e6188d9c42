// The bodies the templates area posts to POST /v1/templates (a TemplateCreate of openapi.yaml): a
// blank template, one from a starter, one around the playground's recipe, and a duplicate. No DOM
// (unit-tested in Node: test/unit/web-new-template.test.ts, which checks them against the contract).

/** The blank template's size presets: [width, height, what for]; "Custom" takes any size. */
export const BLANK_SIZES = [
  [1200, 630, 'social card'],
  [1080, 1080, 'square'],
  [1920, 1080, 'HD'],
];

/** The contract's bounds: a name of 1–200 characters, sides of 1–4096 px. */
export const NAME_MAX = 200;
export const SIDE_MAX = 4096;

/** The title's sample value (its variable's `examples[0]`): what the first picture shows. */
export const SAMPLE_TITLE = 'Your title here';

/** A name cut to the contract's 200 characters, counted as the service counts them (code points). */
const cut = (name, max = NAME_MAX) => Array.from(name).slice(0, max).join('');

/** The name typed, trimmed and cut; empty: `fallback`. */
export const nameOr = (typed, fallback) => cut(String(typed ?? '').trim() || fallback);

const side = (n) => Math.min(SIDE_MAX, Math.max(1, Math.round(Number(n) || 1)));

/** One `title` variable (a string) with its sample value, as both new kinds declare it. */
const titleVariables = () => ({
  type: 'object',
  properties: { title: { type: 'string', maxLength: 140, examples: [SAMPLE_TITLE] } },
});

/**
 * A text layer of `{{title}}` inside a margin of 6 % of the shorter side, centred, fitted from an
 * eighth of the height down to half that on at most three lines, then cut with "…".
 */
function titleLayer(width, height, color) {
  const margin = Math.floor(Math.min(width, height) * 0.06);
  const max = Math.max(1, Math.round(Math.min(height / 8, width / 6)));
  return {
    id: 'title',
    kind: 'text',
    text: '{{title}}',
    // At least 2 px tall: one line at the smallest size (1 px × line height 1.2) must fit, even on a tiny canvas.
    box: { x: margin, y: margin, width: Math.max(1, width - 2 * margin), height: Math.max(2, height - 2 * margin) },
    color,
    align: 'center',
    valign: 'middle',
    fit: { max, min: Math.max(1, Math.round(max / 2)), maxLines: 3, overflow: 'ellipsis' },
  };
}

/** A blank template: white, with one centred title (a template needs a layer) whose sample value shows. */
export function blankTemplate({ name, width, height } = {}) {
  const [w, h] = [side(width), side(height)];
  return {
    name: nameOr(name, 'Untitled'),
    size: { width: w, height: h },
    background: '#ffffff',
    variables: titleVariables(),
    layers: [titleLayer(w, h, '#1c1f2a')],
  };
}

/** A starter's template (GET /v1/template-starters) as it is; its image variables keep no sample (no asset of yours yet). */
export function starterTemplate(starter, name) {
  const body = structuredClone(starter.template);
  return { ...body, name: nameOr(name, body.name || starter.name) };
}

/**
 * The playground's recipe as a template's background: one `generator` layer of the recipe's
 * generator, params and seed at the recipe's size, and a title over it with a sample value.
 */
export function recipeTemplate(recipe, name) {
  const [w, h] = [side(recipe.size?.width), side(recipe.size?.height)];
  const background = { id: 'background', kind: 'generator', slug: recipe.slug, params: structuredClone(recipe.params ?? {}) };
  if (Number.isInteger(recipe.seed)) background.seed = recipe.seed;
  return {
    name: nameOr(name, `${recipe.slug} template`),
    size: { width: w, height: h },
    variables: titleVariables(),
    layers: [background, titleLayer(w, h, '#ffffff')],
  };
}

/** A template's (or version's) body as POST and PUT take it: the TemplateCreate fields alone. */
export function templateBody(template) {
  const body = { name: template.name, size: { ...template.size } };
  if (template.background !== undefined) body.background = template.background;
  if (template.variables !== undefined) body.variables = structuredClone(template.variables);
  body.layers = structuredClone(template.layers);
  return body;
}

/** A duplicate's body: the template as it is, named "<name> copy" (the name cut so " copy" fits). */
export function duplicateTemplate(template) {
  return { ...templateBody(template), name: `${cut(template.name, NAME_MAX - 5)} copy` };
}
