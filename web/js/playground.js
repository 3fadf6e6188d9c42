// The playground page: it wires the shared parts — the output-settings bar, the param panel, the
// preview stage and its loop, the variations, the Developer details — to one recipe, which the URL
// carries, and owns the actions under the preview (Download, Share…, Shuffle, Reset, files).
import { generators, render, priceLine, quote } from './api.js';
import { h, clear, debounce, toast } from './dom.js';
import { devDetails } from './dev-details.js';
import { exportQuestion, gifMegabytes, GIF_WARN_MB, gifQuestion, tooLongText } from './estimate.js';
import { clearErrors, showErrors } from './field-errors.js';
import { formats, stillFormat } from './formats.js';
import { outputSettings, randomSeed } from './output-settings.js';
import { paramPanel } from './param-panel.js';
import { shufflePalette } from './param-values.js';
import { createPreviewLoop } from './preview-loop.js';
import { previewBox, previewStage } from './preview-stage.js';
import { openedFile, recipeOfFile } from './recipe-file.js';
import { decodeRecipe, fileName, initialRecipe, playgroundHref, recipeBody, recipeOfHash } from './recipe.js';
import { openShare } from './share-dialog.js';
import { fitSize, previewRecipe, quickRecipe } from './sizing.js';
import { state, saveRecipe } from './state.js';
import { variationsPanel } from './variations.js';

export async function showPlayground(view, slugFromRoute, isCurrent = () => true) {
  const list = await generators();
  if (!isCurrent()) return; // another page was asked for meanwhile
  const slug = slugFromRoute || state.recipe?.slug || list[0]?.slug;
  const gen = list.find((g) => g.slug === slug);
  clear(view);
  if (!gen) {
    view.append(h('h1', {}, 'Playground'), h('p', { class: 'error' }, `No generator "${slug}".`));
    return;
  }
  let recipe = recipeOfHash(gen, location.hash) ?? (state.recipe?.slug === gen.slug ? structuredClone(state.recipe) : initialRecipe(gen));
  if (!gen.formats.includes(recipe.format)) recipe.format = stillFormat(gen);

  // Short: a superseded render is aborted (the service stops it), so only a burst of keystrokes waits.
  const scheduleRender = debounce(() => refresh(), 50);
  // The URL is the state: every change rewrites the route (no new history entry), so a reload, a
  // new tab or a shared link opens this recipe. Only while the address is still the one this page
  // opened at or last wrote: another one means the page is being left (Reset, a link, Back), and a
  // render still scheduled from the last keystroke must not write the old recipe over it (nor over
  // the recipe the next page saves; the keystroke itself saved it already).
  let address = location.hash;
  const leaving = () => !stage.isConnected || location.hash !== address;
  const persist = () => {
    if (leaving()) return;
    saveRecipe(recipe);
    history.replaceState(null, '', playgroundHref(gen.slug, recipe));
    address = location.hash;
  };
  // What Download (and Export) of the recipe would cost, as the service quotes it (hosted mode).
  const price = priceLine('quote', () => ({ render: { slug: gen.slug, ...recipeBody(readForm()) } }));
  const onChange = () => {
    recipe = readForm();
    persist();
    scheduleRender();
    price.update();
    variations.mark(recipe);
  };

  const settings = outputSettings({ list, gen, recipe, onChange });
  const params = paramPanel({ gen, recipe, onChange });
  const readForm = () => ({ slug: gen.slug, params: params.read(), ...settings.read() });
  const variations = variationsPanel({
    gen,
    schemaProps: params.schemaProps,
    read: readForm,
    ranged: params.ranged,
    // A variation becomes the recipe: its params and seed in the form.
    onUse: (v) => {
      params.set(v.params);
      settings.setSeed(v.seed);
      onChange();
    },
  });
  const details = devDetails({ gen, recipe: () => recipe, read: readForm });

  const { stage, show } = previewStage();
  const status = h('p', { class: 'preview-status muted', id: 'preview-status' }, 'Rendering…');
  const generalError = h('div', { class: 'field-error general', dataset: { errorFor: '' }, id: 'general-error', role: 'alert' });
  // A download too long to render directly: Export of the same recipe, one click away.
  const tooLong = h('p', { class: 'notice', id: 'download-too-long', role: 'alert', hidden: true });
  const downloadBtn = h('button', { type: 'button', class: 'btn primary', id: 'download', onclick: () => downloadFile() }, 'Download');
  // Any file the service rendered reopens its recipe: chosen here or dropped on the page.
  const fileInput = h('input', {
    type: 'file',
    id: 'open-file',
    hidden: true,
    'aria-label': 'Open a rendered file',
    accept: Object.values(formats).flatMap((f) => [`.${f.extension}`, f.contentType]),
    onchange: () => fileInput.files[0] && openFile(fileInput.files[0]),
  });
  onDropFile = (file) => stage.isConnected && openFile(file);
  async function openFile(file) {
    const found = await recipeOfFile(file).catch(() => null);
    fileInput.value = '';
    // A recipe pinning a superseded version opens with the current one (what the playground edits), and says so.
    const { href, message } = openedFile(file.name, found, list);
    if (href === location.hash) showPlayground(view, found.slug);
    else if (href) location.hash = href;
    toast(message);
  }
  const button = (id, text, onclick, attrs = {}) => h('button', { type: 'button', class: 'btn', id, onclick, ...attrs }, text);
  const actions = h(
    'div',
    { class: 'actions' },
    downloadBtn,
    price,
    // A public URL of what Download gives, signed, with its <img> and og:image tags (share-dialog.js).
    button('share', 'Share…', () => openShare(gen, readForm(), state.last)),
    button('shuffle', '⟳ Shuffle', () => shuffleAll(), { title: 'Random unlocked params and a new seed' }),
    button('reset', 'Reset', () => reset()),
    button('rerender', 'Render again', () => refresh(), { class: 'btn small' }),
    h('a', { class: 'btn small', href: '#/export', id: 'to-export' }, 'Export…'),
    button('open-file-btn', 'Open a file…', () => fileInput.click(), {
      class: 'btn small',
      title: 'A file this service rendered (or drop it here)',
    }),
    fileInput,
  );

  view.append(
    h('h1', {}, 'Playground'),
    settings.el,
    h(
      'div',
      { class: 'playground' },
      h('section', { class: 'panel preview-panel', id: 'preview-panel' }, stage, status, generalError, tooLong, actions),
      h(
        'div',
        { class: 'side' },
        // Beside the preview, above the params: a click on one makes it the recipe.
        h('section', { class: 'panel' }, variations.el),
        params.el,
        h('section', { class: 'panel' }, details.el),
      ),
    ),
  );

  function shuffleAll() {
    // One curated palette for every colour, so the colours go together.
    params.shuffle(shufflePalette());
    settings.setSeed(randomSeed());
    onChange();
  }

  function reset() {
    // Back to the generator's defaults (seed 0: the one its params derive), through the URL.
    const target = playgroundHref(gen.slug, initialRecipe(gen));
    if (location.hash === target) showPlayground(view, gen.slug);
    else location.hash = target;
  }

  /** Export of `chosen` instead: the export page opens with it. */
  const toExport = (chosen) => {
    saveRecipe(chosen);
    location.hash = '#/export';
  };

  async function downloadFile() {
    const chosen = readForm();
    tooLong.hidden = true;
    const mb = gifMegabytes(chosen, gen);
    if (mb > GIF_WARN_MB && !confirm(gifQuestion(mb, 'Download'))) return void settings.format.focus();
    downloadBtn.disabled = true;
    try {
      // Longer than a direct render may take, by the service's estimate and budget: an export job
      // instead, decided before any render starts. A recipe the quote refuses goes on to the render, which says why.
      const q = await quote({ render: { slug: gen.slug, ...recipeBody(chosen) } }).catch(() => null);
      if (q && !q.fitsSyncBudget) {
        if (confirm(exportQuestion(q.estimatedMs / 1000))) toExport(chosen);
        return;
      }
      const out = await render(gen.slug, recipeBody(chosen));
      const a = h('a', { href: URL.createObjectURL(out.blob), download: fileName(gen.slug, chosen), hidden: true });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
      toast(`Saved ${a.download}`);
      price.update(); // rendered now: free the next time
    } catch (err) {
      // Too long for a direct render after all (a loaded service): the same recipe as an export job, one click away.
      if (err.code === 'animation_budget_exceeded' || err.code === 'render_timeout') {
        const exportIt = button('download-export', 'Export it', () => toExport(chosen), { class: 'btn primary small' });
        tooLong.replaceChildren(tooLongText(), ' ', exportIt);
        tooLong.hidden = false;
        exportIt.focus();
      } else toast(`Download failed: ${err.message}`);
    } finally {
      downloadBtn.disabled = false;
    }
  }

  // The preview: quick then sharp, a superseded render aborted, never an old answer over a newer one.
  let shownKey = '';
  const loop = createPreviewLoop({
    render: ({ shown }, signal) => render(gen.slug, recipeBody(shown), { signal }),
    onPicture: async (out, { shown, cssSize }, { quick }) => {
      if (quick) return show(out, cssSize);
      clearErrors(view);
      // Seed 0 means "derived from the params", so every tweak of a param would re-compose the whole
      // picture. The playground keeps the derived seed as a concrete number instead (the same picture,
      // the same recipe hash): from now on a param changes only that param's effect.
      if (recipe.seed === 0) {
        const derived = decodeRecipe(out.recipe)?.seed;
        if (Number.isInteger(derived) && derived > 0) {
          settings.setSeed(derived);
          recipe = readForm();
          persist();
        }
      }
      state.last = { slug: gen.slug, recipe: out.recipe, hash: out.hash, cache: out.cache };
      details.shown(out);
      await show(out, cssSize);
      stage.dataset.hash = out.hash;
      stage.classList.remove('stale');
      const sizeNote =
        shown.size.width !== recipe.size.width
          ? ` ${shown.size.width}×${shown.size.height} (a quick preview; use Export for long or large animations)`
          : '';
      status.textContent = `Rendered ${recipe.size.width}×${recipe.size.height} · preview ${shown.format}${sizeNote} @${shown.size.pixelRatio}x (the pixels shown); Download and Export give ${recipe.format} @${recipe.size.pixelRatio}x`;
    },
    onError: (err) => {
      showErrors(view, err);
      // The picture no longer matches the form: dimmed, and its recipe URL is not offered.
      stage.classList.add('stale');
      state.last = null;
      details.refused();
      status.textContent = `Render failed: ${err.message}. The dimmed preview is the last recipe that rendered.`;
    },
  });
  // A window resized enough to show other pixels renders them (often a cache hit).
  onResize = () => {
    if (!stage.isConnected || !state.last) return;
    const box = previewBox(stage);
    const r = previewRecipe(gen, recipe, box, devicePixelRatio);
    if (`${r.size.pixelRatio} ${fitSize(recipe.size, box).width}` !== shownKey) refresh();
  };
  async function refresh() {
    if (!stage.isConnected && loop.requests > 0) return void loop.stop(); // left the page
    if (leaving()) return; // being left: the page for the new address renders its own
    recipe = readForm();
    persist();
    const box = previewBox(stage);
    const shown = previewRecipe(gen, recipe, box, devicePixelRatio);
    const cssSize = fitSize(recipe.size, box);
    shownKey = `${shown.size.pixelRatio} ${cssSize.width}`;
    stage.classList.add('loading');
    status.textContent = 'Rendering…';
    // A large picture first comes quick and soft (the least pixel ratio, a few times fewer pixels to
    // draw and encode), then sharp; the quick one is shown only while the sharp one is on its way.
    const quick = quickRecipe(shown);
    if (await loop.request({ shown, cssSize }, quick && { shown: quick, cssSize })) stage.classList.remove('loading');
  }
  price.update();
  await refresh();
}

let onResize;
let onDropFile;
// A file dropped anywhere on the playground opens its recipe (elsewhere the browser's default stays).
document.addEventListener('dragover', (e) => onDropFile && document.getElementById('preview') && e.preventDefault());
document.addEventListener('drop', (e) => {
  const file = e.dataTransfer?.files?.[0];
  if (!file || !onDropFile || !document.getElementById('preview')) return;
  e.preventDefault();
  onDropFile(file);
});
window.addEventListener(
  'resize',
  debounce(() => onResize?.(), 250),
);
