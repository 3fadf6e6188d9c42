// The variations panel (beside the playground's preview): "Other seeds" shows VARIATIONS tiles that
// are the recipe itself with random seeds, "More like this" under a tile VARIATIONS with its seed
// and the unlocked numbers nudged, each rendered at a tile's pixels; a click makes one the recipe,
// and the chosen tile stays marked (aria-pressed) while the recipe is still it. "Sweep…" under
// them opens the sweep sheet of one param by its link (web/js/sweep.js).
import { render } from './api.js';
import { h } from './dom.js';
import { nearVariations, seedVariations, sweepParams, sweepRange } from './explore.js';
import { kindOf, stillFormat } from './formats.js';
import { randomSeed } from './output-settings.js';
import { recipeBody, sweepHref } from './recipe.js';
import { previewRecipe } from './sizing.js';

const VARIATIONS = 6;
const urls = [];
const same = (a, b) => JSON.stringify(recipeBody(a)) === JSON.stringify(recipeBody(b));

/**
 * @param {{ gen: object, schemaProps: object, read: () => object, ranged: () => [string, object][], onUse: (recipe: object) => void }} options
 * `read()` is the form's recipe, `onUse(v)` makes a variation the recipe.
 */
export function variationsPanel({ gen, schemaProps, read, ranged, onUse }) {
  const grid = h('div', { class: 'variations', id: 'variations' });
  let seq = 0;
  let shown = [];

  /** Marks the tile that is the recipe (if one is): the mark outlasts the focus. */
  function mark(recipe) {
    shown.forEach(({ v, btn }) => btn.setAttribute('aria-pressed', String(same(v, recipe))));
  }

  async function showVariations(recipes) {
    const mine = ++seq;
    for (const u of urls.splice(0)) URL.revokeObjectURL(u);
    // Each picture's place is kept at its recipe's shape before it arrives, so a tile (and the button
    // under it) does not move when its picture comes in. Set through the CSSOM: the CSP allows no
    // style attributes.
    const pictures = recipes.map((v) => {
      const picture = h('span', { class: 'variation-picture' });
      picture.style.aspectRatio = `${v.size.width} / ${v.size.height}`;
      return picture;
    });
    const tiles = recipes.map((v, i) =>
      h(
        'div',
        { class: 'variation-tile' },
        h(
          'button',
          {
            type: 'button',
            class: 'variation loading',
            dataset: { seed: v.seed, recipe: JSON.stringify(recipeBody(v)) },
            'aria-label': `${v.seed}: use this variation`,
            'aria-pressed': 'false',
            onclick: () => {
              onUse(v);
              mark(read());
            },
          },
          pictures[i],
          h('span', { class: 'muted small' }, String(v.seed)),
        ),
        h(
          'button',
          {
            type: 'button',
            class: 'btn small more-like',
            onclick: () => showVariations(nearOnes(v)),
            'aria-label': `More like this (seed ${v.seed})`,
          },
          'More like this',
        ),
      ),
    );
    shown = recipes.map((v, i) => ({ v, btn: tiles[i].firstChild }));
    grid.replaceChildren(...tiles);
    mark(read());
    // The tile's width (laid out now) decides the pixels asked for.
    const cssWidth = grid.querySelector('.variation')?.clientWidth || 160;
    await Promise.all(
      recipes.map(async (v, i) => {
        const btn = tiles[i].firstChild;
        const picture = pictures[i];
        // An animation's variations are stills (its first frame) of the same recipe.
        const still = kindOf(v.format) === 'motion' ? { ...v, format: stillFormat(gen) } : v;
        const tile = previewRecipe(gen, still, { width: cssWidth, height: cssWidth }, devicePixelRatio);
        try {
          const out = await render(gen.slug, recipeBody(tile));
          if (mine !== seq) return;
          if (out.contentType.startsWith('text/css')) {
            picture.style.aspectRatio = '';
            picture.append(h('span', { class: 'small' }, 'css'));
            return;
          }
          const url = URL.createObjectURL(out.blob);
          urls.push(url);
          btn.dataset.hash = out.hash;
          picture.append(h('img', { src: url, alt: '' }));
        } catch (err) {
          picture.style.aspectRatio = '';
          picture.append(h('span', { class: 'error small' }, err.message));
        } finally {
          btn.classList.remove('loading');
        }
      }),
    );
  }
  /** VARIATIONS recipes: this one with random seeds. */
  const otherSeeds = (base) => seedVariations(base, VARIATIONS, () => Number(randomSeed()));
  /** VARIATIONS recipes near one: its seed, each unlocked ranged number nudged. */
  const nearOnes = (base) => nearVariations(base, ranged(), VARIATIONS);

  // Sweep…: the sweep sheet of one numeric param (from..to, by default its schema's range) or of seeds
  // (from this one on), opened by its link.
  const sweepParam = h(
    'select',
    { id: 'sweep-param', onchange: () => sweepDefaults() },
    sweepParams(schemaProps).map((k) => h('option', { value: k }, schemaProps[k]?.title || k)),
  );
  const sweepNum = (id, attrs) => h('input', { type: 'number', id, step: 'any', class: 'num', ...attrs });
  const sweepFrom = sweepNum('sweep-from');
  const sweepTo = sweepNum('sweep-to', { placeholder: 'from + n − 1' });
  const sweepN = sweepNum('sweep-n', { min: 2, max: 48, step: 1, value: 8 });
  const sweepDefaults = () => {
    const p = sweepParam.value;
    const recipe = read();
    [sweepFrom.value, sweepTo.value] = sweepRange(p, schemaProps[p], p === 'seed' ? recipe.seed : recipe.params[p]);
  };
  const label = (text, input) => h('label', {}, `${text} `, input);
  const sweep = h(
    'details',
    { class: 'sweep-form', id: 'sweep-form', ontoggle: () => sweep.open && sweepDefaults() },
    h('summary', {}, 'Sweep…'),
    h(
      'div',
      { class: 'actions' },
      label('Param', sweepParam),
      label('From', sweepFrom),
      label('To', sweepTo),
      label('Cells', sweepN),
      h(
        'button',
        {
          type: 'button',
          class: 'btn small',
          id: 'sweep-open',
          onclick: () =>
            (location.hash = sweepHref(gen.slug, read(), {
              param: sweepParam.value,
              from: sweepFrom.value,
              to: sweepTo.value,
              n: sweepN.value,
            })),
        },
        'Open sweep',
      ),
    ),
  );
  const el = h(
    'div',
    { class: 'variations-box' },
    h(
      'div',
      { class: 'section-head' },
      h('h2', {}, 'Variations'),
      h(
        'button',
        { type: 'button', class: 'btn small', id: 'variations-btn', onclick: () => showVariations(otherSeeds(read())) },
        'Other seeds',
      ),
    ),
    grid,
    sweep,
  );
  return { el, mark };
}
