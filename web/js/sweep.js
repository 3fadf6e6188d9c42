// The sweep sheet, #/sweep/<slug>?r=<recipe>&param=<name or seed>&from=<a>&to=<b>&n=<cells>: one
// numeric param of a recipe across a range (on a log scale where the playground's slider is one), or
// a grid of seeds; the URL alone reproduces it. Each cell is the recipe with that one value changed,
// rendered at the cell's pixel ratio (the same picture, fewer pixels), and links to it in the playground.
import { generators, render } from './api.js';
import { h, clear, copyButton } from './dom.js';
import { playgroundHref, recipeBody, stillFormat, kindOf } from './state.js';
import { fromUrl, initialRecipe, previewRecipe } from './playground.js';

const urls = [];

/** n values from `from` to `to`: evenly spaced (geometrically on a log scale), integers rounded, others to 4 digits. */
function sweepValues(from, to, n, integer, log) {
  return Array.from({ length: n }, (_, i) => {
    const t = n > 1 ? i / (n - 1) : 0;
    const v = log ? from * (to / from) ** t : from + (to - from) * t;
    return integer ? Math.round(v) : Number(v.toPrecision(4));
  });
}

export async function showSweep(view, slug) {
  for (const u of urls.splice(0)) URL.revokeObjectURL(u);
  const gen = (await generators()).find((g) => g.slug === slug);
  const q = new URLSearchParams(location.hash.split('?')[1] ?? '');
  const param = q.get('param') || 'seed';
  const seeds = param === 'seed';
  const schema = seeds ? { type: 'integer', minimum: 0 } : gen?.paramSchema?.properties?.[param];
  const types = [schema?.type].flat();
  clear(view).append(h('h1', {}, `Sweep${gen ? `: ${gen.name}` : ''}`));
  if (!types.includes('number') && !types.includes('integer'))
    return view.append(h('p', { class: 'error' }, gen ? `${slug} has no numeric param "${param}".` : `No generator "${slug}".`));
  const base = fromUrl(gen) ?? initialRecipe(gen);
  const num = (key, fallback) => (q.get(key) && Number.isFinite(Number(q.get(key))) ? Number(q.get(key)) : fallback);
  const n = Math.min(48, Math.max(2, Math.round(num('n', 8))));
  const from = num('from', seeds ? base.seed : (schema.minimum ?? base.params[param] ?? 0));
  const to = num('to', seeds ? from + n - 1 : (schema.maximum ?? from + 1));
  const log = schema.minimum > 0 && schema.maximum / schema.minimum >= 40 && from > 0 && to > 0;
  const values = sweepValues(from, to, n, types.includes('integer'), log);
  const cells = values.map((v) => (seeds ? { ...base, seed: v } : { ...base, params: { ...base.params, [param]: v } }));
  const grid = h(
    'div',
    { class: 'sweep', id: 'sweep' },
    cells.map((c, i) =>
      h(
        'a',
        { class: 'sweep-cell loading', href: playgroundHref(slug, c), dataset: { value: values[i] } },
        h('span', { class: 'small' }, `${param} ${values[i]}`),
      ),
    ),
  );
  view.append(
    h(
      'p',
      { class: 'muted' },
      `${param} from ${values[0]} to ${values.at(-1)} in ${n} cells${log ? ' (log scale)' : ''}. A cell opens its recipe in the playground.`,
    ),
    h(
      'div',
      { class: 'actions' },
      h('a', { class: 'btn small', href: playgroundHref(slug, base) }, 'Back to the playground'),
      copyButton(() => location.href, 'Copy sweep link', 'Sweep link copied', { id: 'copy-sweep-link' }),
    ),
    grid,
  );
  // The cell's width (laid out now) decides the pixels asked for; an animation's cells are stills.
  const width = grid.firstChild.clientWidth || 160;
  await Promise.all(
    cells.map(async (c, i) => {
      const cell = grid.children[i];
      const still = kindOf(c.format) === 'motion' ? { ...c, format: stillFormat(gen) } : c;
      try {
        const out = await render(slug, recipeBody(previewRecipe(gen, still, { width, height: width })));
        if (out.contentType.startsWith('text/css')) return cell.prepend(h('span', { class: 'small' }, 'css'));
        urls.push(URL.createObjectURL(out.blob));
        cell.prepend(h('img', { src: urls.at(-1), alt: '' }));
      } catch (err) {
        cell.prepend(h('span', { class: 'error small' }, err.message));
      } finally {
        cell.classList.remove('loading');
      }
    }),
  );
}
