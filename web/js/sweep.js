// The sweep sheet, #/sweep/<slug>?r=<recipe>&param=<name or seed>&from=<a>&to=<b>&n=<cells>: one
// numeric param of a recipe across a range (on a log scale where the playground's slider is one), or
// a grid of seeds; the URL alone reproduces it. Each cell is the recipe with that one value changed,
// rendered at the cell's pixel ratio (the same picture, fewer pixels), and links to it in the playground.
// The sheet itself (values, cells) is sweepPlan's, in explore.js.
import { generators, render } from './api.js';
import { h, clear, copyButton } from './dom.js';
import { sweepPlan } from './explore.js';
import { kindOf, stillFormat } from './formats.js';
import { playgroundHref, recipeBody } from './recipe.js';
import { previewRecipe } from './sizing.js';

const urls = [];

export async function showSweep(view, slug) {
  for (const u of urls.splice(0)) URL.revokeObjectURL(u);
  const gen = (await generators()).find((g) => g.slug === slug);
  const plan = sweepPlan(gen, slug, location.hash);
  clear(view).append(h('h1', {}, `Sweep${gen ? `: ${gen.name}` : ''}`));
  if (plan.error) return view.append(h('p', { class: 'error' }, plan.error));
  const { param, base, n, log, values, cells } = plan;
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
        const out = await render(slug, recipeBody(previewRecipe(gen, still, { width, height: width }, devicePixelRatio)));
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
