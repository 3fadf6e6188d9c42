// The sweep sheet, #/sweep/<slug>?r=<recipe>&param=<name or seed>&from=<a>&to=<b>&n=<cells>: one
// numeric param of a recipe across a range (on a log scale where the playground's slider is one), or
// a grid of seeds; the URL alone reproduces it. Each cell is the recipe with that one value changed,
// rendered at the size it is shown (pictures.js), a few at a time; a cell opens large in a dialog, with
// its recipe's link to the playground. In hosted mode the sheet's price comes first.
// The sheet itself (values, cells) is sweepPlan's, in explore.js.
import { generators, quote, render } from './api.js';
import { h, clear, copyButton, modal } from './dom.js';
import { sweepPlan } from './explore.js';
import { priceText } from './formatting.js';
import { PICTURES_AT_ONCE, columnsThatFit, gridColumns, limiter, pictureFormat, shownPicture } from './pictures.js';
import { playgroundHref, recipeBody } from './recipe.js';
import { state } from './state.js';

/** A cell's least width (CSS px) where the screen allows, and the grid's gap (styles.css, .sweep). */
const MIN_CELL = 180;
const GAP = 8;
const urls = [];
const picture = limiter(PICTURES_AT_ONCE);
let resizing; // the open sheet's ResizeObserver, which keeps its columns without an orphan

export async function showSweep(view, slug, isCurrent = () => true) {
  for (const u of urls.splice(0)) URL.revokeObjectURL(u);
  resizing?.disconnect();
  const gen = (await generators()).find((g) => g.slug === slug);
  if (!isCurrent()) return; // another page was asked for meanwhile
  const plan = sweepPlan(gen, slug, location.hash);
  clear(view).append(h('h1', {}, `Sweep${gen ? `: ${gen.name}` : ''}`));
  if (plan.error) return view.append(h('p', { class: 'error' }, plan.error));
  const { param, base, n, log, values, cells } = plan;
  const label = (i) => `${param} ${values[i]}`;
  const grid = h(
    'div',
    { class: 'sweep', id: 'sweep' },
    cells.map((c, i) =>
      h(
        'button',
        {
          type: 'button',
          class: 'sweep-cell',
          'aria-haspopup': 'dialog',
          dataset: { value: values[i], href: playgroundHref(slug, c) },
          onclick: () => zoom(gen, c, label(i), grid.children[i]),
        },
        h('span', { class: 'small' }, label(i)),
      ),
    ),
  );
  const cost = h('div', { id: 'sweep-cost', class: 'actions', 'aria-live': 'polite' });
  view.append(
    h(
      'p',
      { class: 'muted' },
      `${param} from ${values[0]} to ${values.at(-1)} in ${n} cells${log ? ' (log scale)' : ''}. A cell opens large, with its recipe's link to the playground.`,
    ),
    h(
      'div',
      { class: 'actions' },
      h('a', { class: 'btn small', href: playgroundHref(slug, base) }, 'Back to the playground'),
      copyButton(() => location.href, 'Copy sweep link', 'Sweep link copied', { id: 'copy-sweep-link' }),
    ),
    cost,
    grid,
  );
  // Columns without an orphan (8 cells: 2 rows of 4, not 7 and 1), cells at least MIN_CELL wide where the screen allows.
  const layout = () => {
    const columns = gridColumns(n, columnsThatFit(grid.clientWidth, MIN_CELL, GAP));
    grid.style.setProperty('--columns', String(columns)); // CSSOM: the CSP allows it, not a style attribute
    grid.dataset.columns = String(columns);
  };
  layout();
  resizing = new ResizeObserver(layout);
  resizing.observe(grid);
  // The cell's width (laid out now) decides the pixels asked for; an animation's cells are stills.
  const first = grid.firstChild;
  const padding = parseFloat(getComputedStyle(first).paddingLeft) + parseFloat(getComputedStyle(first).paddingRight);
  const box = { width: first.clientWidth - padding || MIN_CELL, height: Infinity };
  const shown = cells.map((c) => shownPicture({ ...c, format: pictureFormat(gen, c.format) }, box, devicePixelRatio));
  if (state.hosted) await costAccepted(cost, slug, shown);
  for (const cell of grid.children) cell.classList.add('loading'); // pulsing while its picture is on its way
  await Promise.all(shown.map((r, i) => picture(() => grid.isConnected && drawCell(grid.children[i], slug, r))));
}

/**
 * Hosted mode: the whole sheet's price, as the service quotes the batch of its cells, before any of them
 * renders; resolves once the sheet may render (free, or "Render the sheet" pressed).
 */
async function costAccepted(line, slug, shown) {
  line.append(h('span', { class: 'muted small' }, 'Pricing the sheet…'));
  let text;
  try {
    const q = await quote({ batch: { items: shown.map((r) => ({ slug, ...recipeBody(r) })) } });
    text = `${shown.length} cells: ${priceText(q)}.`;
    if (q.credits === 0) return void line.replaceChildren(h('span', { class: 'muted small', id: 'sweep-price' }, text));
  } catch (err) {
    text = `The sheet's price could not be quoted (${err.message}).`;
  }
  return new Promise((resolve) =>
    line.replaceChildren(
      h('span', { class: 'small', id: 'sweep-price' }, text),
      h(
        'button',
        {
          type: 'button',
          class: 'btn small primary',
          id: 'sweep-render',
          onclick: () => {
            line.replaceChildren(h('span', { class: 'muted small', id: 'sweep-price' }, text));
            resolve();
          },
        },
        'Render the sheet',
      ),
    ),
  );
}

async function drawCell(cell, slug, recipe) {
  try {
    const out = await render(slug, recipeBody(recipe));
    if (out.contentType.startsWith('text/css')) return cell.prepend(h('span', { class: 'small' }, 'css'));
    urls.push(URL.createObjectURL(out.blob));
    cell.prepend(h('img', { src: urls.at(-1), alt: '' }));
  } catch (err) {
    cell.prepend(h('span', { class: 'error small' }, err.message));
  } finally {
    cell.classList.remove('loading');
  }
}

/** A cell, large: its picture at once, then one rendered at the dialog's size; Escape or Close closes it. */
function zoom(gen, recipe, label, cell) {
  const img = h('img', { id: 'sweep-zoom-img', alt: `${gen.name}, ${label}`, src: cell.querySelector('img')?.src });
  const figure = h('figure', {}, img, h('figcaption', { id: 'sweep-zoom-title' }, label));
  let url;
  const dialog = modal(
    {
      class: 'dialog zoom',
      id: 'sweep-zoom',
      'aria-labelledby': 'sweep-zoom-title',
      onclose: () => url && URL.revokeObjectURL(url),
    },
    figure,
    h(
      'div',
      { class: 'actions' },
      h(
        'a',
        { class: 'btn primary', id: 'sweep-zoom-open', href: playgroundHref(gen.slug, recipe), onclick: () => dialog.close() },
        'Open in the playground',
      ),
      h('button', { value: 'close', class: 'btn' }, 'Close'),
    ),
  );
  const large = shownPicture(
    { ...recipe, format: pictureFormat(gen, recipe.format) },
    { width: figure.clientWidth, height: Math.round(innerHeight * 0.7) },
    devicePixelRatio,
  );
  render(gen.slug, recipeBody(large)).then(
    (out) => {
      if (!dialog.open || out.contentType.startsWith('text/css')) return;
      url = URL.createObjectURL(out.blob);
      img.src = url;
      img.dataset.sharp = 'true';
    },
    () => {}, // the cell's own picture stays
  );
}
