import { generators, render, json, ApiError, priceLine, quote } from './api.js';
import { h, clear, copyButton, debounce, toast, BlobSlot } from './dom.js';
import { paramControl, field } from './form.js';
import { issueLine } from './field-text.js';
import { openedFile, recipeOfFile } from './recipe-file.js';
import { exportQuestion, gifMegabytes, GIF_WARN_MB, gifQuestion } from './estimate.js';
import { defaultQuality, formats, kindOf, stillFormat } from './formats.js';
import { formatBytes } from './formatting.js';
import { shufflePalette } from './param-values.js';
import { decodeRecipe, fileName, initialRecipe, playgroundHref, recipeBody, recipeOfHash, sweepHref } from './recipe.js';
import { SIZE_PRESETS, fitSize, lockedSide, presetValue, previewRecipe, quickRecipe } from './sizing.js';
import { curlSnippet, recipeUrl as recipeUrlOf, tsSnippet } from './snippets.js';
import { openShare } from './share-dialog.js';
import { nearVariations, seedVariations, sweepParams, sweepRange } from './explore.js';
import { state, saveRecipe } from './state.js';

const VARIATIONS = 6;
const preview = new BlobSlot();
const variationUrls = [];
/** Params kept by Shuffle, per generator (for this tab). */
const locked = new Map();

export async function showPlayground(view, slugFromRoute) {
  const list = await generators();
  const slug = slugFromRoute || state.recipe?.slug || list[0]?.slug;
  const gen = list.find((g) => g.slug === slug);
  clear(view);
  if (!gen) {
    view.append(h('h1', {}, 'Playground'), h('p', { class: 'error' }, `No generator "${slug}".`));
    return;
  }
  let recipe = recipeOfHash(gen, location.hash) ?? (state.recipe?.slug === gen.slug ? structuredClone(state.recipe) : initialRecipe(gen));
  if (!gen.formats.includes(recipe.format)) recipe.format = stillFormat(gen);

  const controls = [];
  const schemaProps = gen.paramSchema?.properties ?? {};
  const locks = locked.get(gen.slug) ?? new Set();
  locked.set(gen.slug, locks);
  // Short: a superseded render is aborted (the service stops it), so only a burst of keystrokes waits.
  const scheduleRender = debounce(() => refresh(), 50);
  // The URL is the state: every change rewrites the route (no new history entry), so a reload, a
  // new tab or a shared link opens this recipe.
  const persist = () => {
    saveRecipe(recipe);
    if (stage.isConnected) history.replaceState(null, '', playgroundHref(gen.slug, recipe));
  };
  // What Download (and Export) of the recipe would cost, as the service quotes it (hosted mode).
  const price = priceLine('quote', () => ({ render: { slug: gen.slug, ...recipeBody(readForm()) } }));
  const onChange = () => {
    syncQuality();
    recipe = readForm();
    persist();
    scheduleRender();
    price.update();
  };

  // Generator picker
  const picker = h(
    'select',
    { id: 'generator', onchange: () => (location.hash = `#/playground/${encodeURIComponent(picker.value)}`) },
    list.map((g) => h('option', { value: g.slug, selected: g.slug === gen.slug }, `${g.name}${g.animated ? ' (animated)' : ''}`)),
  );

  for (const [name, schema] of Object.entries(schemaProps)) {
    const value = recipe.params?.[name] ?? gen.defaults?.[name] ?? schema.default;
    const control = paramControl(name, schema, value, onChange);
    const lock = h('input', {
      type: 'checkbox',
      id: `lock-${name}`,
      class: 'lock',
      checked: locks.has(name),
      'aria-label': `Lock ${schema.title || name} (Shuffle keeps it)`,
      onchange: () => (lock.checked ? locks.add(name) : locks.delete(name)),
    });
    control.el.prepend(h('label', { class: 'lock-toggle', title: 'Keep this value when shuffling' }, lock, h('span', {}, 'lock')));
    controls.push({ name, lock, ...control });
  }

  // Seed, size, format
  const seed = h('input', {
    type: 'number',
    id: 'seed',
    min: 0,
    max: 4294967295,
    step: 1,
    value: recipe.seed ?? 0,
    oninput: onChange,
    class: 'num wide',
  });
  const randomSeed = () => String(crypto.getRandomValues(new Uint32Array(1))[0] || 1);
  const newSeed = h(
    'button',
    {
      type: 'button',
      class: 'btn small',
      id: 'new-seed',
      title: 'Another seed, same params',
      onclick: () => {
        seed.value = randomSeed();
        onChange();
      },
    },
    'New seed',
  );
  const numInput = (id, min, max, step, value) =>
    h('input', { type: 'number', id, min, max, step, value, class: 'num', oninput: () => sized(id) });
  const width = numInput('size-width', 16, 4096, 1, recipe.size.width);
  const height = numInput('size-height', 16, 4096, 1, recipe.size.height);
  const pixelRatio = h('input', {
    type: 'number',
    id: 'size-pixelRatio',
    min: 0.5,
    max: 3,
    step: 0.25,
    value: recipe.size.pixelRatio ?? 1,
    oninput: onChange,
    class: 'num',
  });
  const presetSel = h(
    'select',
    { id: 'size-preset', onchange: () => applyPreset() },
    h('option', { value: '' }, 'Custom'),
    SIZE_PRESETS.map(([w, ht, what]) => h('option', { value: `${w}x${ht}` }, `${w}×${ht} (${what})`)),
  );
  let ratio = recipe.size.width / recipe.size.height;
  const aspect = h('input', {
    type: 'checkbox',
    id: 'aspect-lock',
    onchange: () => (ratio = Number(width.value) / Number(height.value) || ratio),
  });
  const syncPreset = () => (presetSel.value = presetValue(width.value, height.value));
  function sized(id) {
    // With the aspect ratio locked, the other side follows.
    if (aspect.checked && ratio > 0) {
      if (id === 'size-width' && width.value !== '') height.value = String(lockedSide('width', Number(width.value), ratio));
      if (id === 'size-height' && height.value !== '') width.value = String(lockedSide('height', Number(height.value), ratio));
    }
    syncPreset();
    onChange();
  }
  function applyPreset() {
    if (!presetSel.value) return;
    [width.value, height.value] = presetSel.value.split('x');
    ratio = Number(width.value) / Number(height.value);
    onChange();
  }
  syncPreset();
  const format = h(
    'select',
    { id: 'format', onchange: onChange },
    gen.formats.map((f) => h('option', { value: f, selected: f === recipe.format }, f)),
  );
  // jpeg's quality (the formats that take one): empty renders at the service's default.
  const quality = h('input', {
    type: 'number',
    id: 'quality',
    min: 1,
    max: 100,
    step: 1,
    value: recipe.quality ?? '',
    oninput: onChange,
    class: 'num',
  });
  const qualityField = field('quality', 'Quality', wrapId('quality', quality));
  // Shown for a format that takes one, its default as the placeholder.
  const syncQuality = () => {
    quality.placeholder = defaultQuality(format.value) ?? '';
    qualityField.hidden = !quality.placeholder;
  };
  syncQuality();

  function readForm() {
    const params = {};
    for (const c of controls) {
      const v = c.get();
      if (v !== undefined) params[c.name] = v;
    }
    const num = (input) => (input.value === '' ? undefined : Number(input.value));
    return {
      slug: gen.slug,
      params,
      seed: num(seed) ?? 0,
      size: { width: num(width), height: num(height), pixelRatio: num(pixelRatio) ?? 1 },
      format: format.value,
      quality: num(quality),
    };
  }

  // Preview + recipe details
  const stage = h('div', { class: 'stage loading', id: 'preview' });
  const status = h('p', { class: 'preview-status muted', id: 'preview-status' }, 'Rendering…');
  const generalError = h('div', { class: 'field-error general', dataset: { errorFor: '' }, id: 'general-error', role: 'alert' });
  const metaHash = h('code', { id: 'meta-hash' }, '—');
  const metaCache = h('span', { id: 'meta-cache', class: 'chip' }, '—');
  const metaRecipe = h('code', { id: 'meta-recipe', class: 'wrap' }, '—');
  const metaEngine = h('code', { id: 'meta-engine' }, '—');
  const metaUrl = h('code', { id: 'meta-url', class: 'wrap' }, '—');
  const metaSize = h('span', { id: 'meta-bytes', class: 'muted' });

  // The recipe URL of what Download gives (as "Copy curl" does): the preview's recipe with the
  // chosen format, size and pixel ratio as the URL's overrides (the hash stays the preview's).
  const recipeUrl = () => (state.last ? recipeUrlOf(location.origin, state.last, readForm()) : '');
  // Only the recipe on screen is offered: while the form holds one the API refused, there is none to copy.
  const copyRecipeUrl = copyButton(recipeUrl, 'Copy recipe URL', 'Recipe URL copied', { id: 'copy-recipe-url' });
  const downloadBtn = h('button', { type: 'button', class: 'btn primary', id: 'download', onclick: () => downloadFile() }, 'Download');
  const shuffle = h(
    'button',
    { type: 'button', class: 'btn', id: 'shuffle', title: 'Random unlocked params and a new seed', onclick: () => shuffleAll() },
    '⟳ Shuffle',
  );
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
  const actions = h(
    'div',
    { class: 'actions' },
    downloadBtn,
    price,
    // A public URL of what Download gives, signed, with its <img> and og:image tags (share-dialog.js).
    h('button', { type: 'button', class: 'btn', id: 'share', onclick: () => openShare(gen, readForm(), state.last) }, 'Share…'),
    shuffle,
    h('button', { type: 'button', class: 'btn', id: 'reset', onclick: () => reset() }, 'Reset'),
    h('button', { type: 'button', class: 'btn small', id: 'rerender', onclick: () => refresh() }, 'Render again'),
    h('a', { class: 'btn small', href: '#/export', id: 'to-export' }, 'Export…'),
    h(
      'button',
      {
        type: 'button',
        class: 'btn small',
        id: 'open-file-btn',
        title: 'A file this service rendered (or drop it here)',
        onclick: () => fileInput.click(),
      },
      'Open a file…',
    ),
    fileInput,
  );
  // Variations are the recipe itself (same size, params and format) with other seeds, or, "more
  // like this", one variation's seed with its numeric params nudged: the same picture as the
  // preview would show for it, with fewer pixels (a tile's share of the screen).
  const variationGrid = h('div', { class: 'variations', id: 'variations' });
  // Sweep…: the sweep sheet of one numeric param (from..to, by default its schema's range) or of seeds
  // (from this one on), opened by its link (web/js/sweep.js).
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
    [sweepFrom.value, sweepTo.value] = sweepRange(p, schemaProps[p], p === 'seed' ? Number(seed.value) : readForm().params[p]);
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
            (location.hash = sweepHref(gen.slug, readForm(), {
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
  const variations = h(
    'div',
    { class: 'variations-box' },
    h(
      'div',
      { class: 'section-head' },
      h('h2', {}, 'Variations'),
      h(
        'button',
        { type: 'button', class: 'btn small', id: 'variations-btn', onclick: () => showVariations(otherSeeds(readForm())) },
        'Other seeds',
      ),
    ),
    variationGrid,
    sweep,
  );
  const details = h(
    'details',
    { class: 'dev-details', id: 'dev-details' },
    h('summary', {}, 'Developer details'),
    h(
      'p',
      { class: 'muted small' },
      'Response headers of the preview render (the pixels shown, maybe as webp). The recipe URL and the copy buttons give what Download gives.',
    ),
    h(
      'dl',
      { class: 'meta' },
      h('dt', {}, 'X-Service-Cache'),
      h('dd', {}, metaCache, ' ', metaSize),
      h('dt', {}, 'X-Service-Recipe-Hash'),
      h('dd', {}, metaHash),
      h('dt', {}, 'X-Service-Recipe'),
      h('dd', {}, metaRecipe),
      h('dt', {}, 'X-Service-Engine'),
      h('dd', {}, metaEngine),
      h('dt', {}, 'Recipe URL'),
      h('dd', {}, metaUrl),
    ),
    h(
      'div',
      { class: 'actions' },
      copyRecipeUrl,
      copyButton(() => curlSnippet(location.origin, recipe), 'Copy curl', 'curl command copied', { id: 'copy-curl' }),
      copyButton(() => `${location.origin}/${playgroundHref(gen.slug, recipe)}`, 'Copy playground link', 'Playground link copied', {
        id: 'copy-playground-link',
      }),
      copyButton(() => tsSnippet(location.origin, recipe), 'Copy TypeScript', 'TypeScript snippet copied'),
    ),
    presetForm(() => recipe),
  );

  view.append(
    h('h1', {}, 'Playground'),
    h(
      'form',
      { class: 'panel toolbar', id: 'output-form', onsubmit: (e) => e.preventDefault() },
      field('generator', 'Generator', wrapId('generator', picker)),
      field('format', 'Format', wrapId('format', format)),
      qualityField,
      field('size.preset', 'Size preset', wrapId('size-preset', presetSel)),
      field('size.width', 'Width', wrapId('size-width', width)),
      field('size.height', 'Height', wrapId('size-height', height)),
      field('size.aspect', 'Lock ratio', wrapId('aspect-lock', aspect)),
      field('size.pixelRatio', 'Pixel ratio', wrapId('size-pixelRatio', pixelRatio)),
      field('seed', 'Seed', wrapId('seed', h('div', { class: 'range-row' }, seed, newSeed))),
    ),
    h(
      'div',
      { class: 'playground' },
      h('section', { class: 'panel preview-panel', id: 'preview-panel' }, stage, status, generalError, actions),
      h(
        'div',
        { class: 'side' },
        // Beside the preview, above the params: a click on one makes it the recipe.
        h('section', { class: 'panel' }, variations),
        h(
          'form',
          { class: 'panel params', id: 'params-form', onsubmit: (e) => e.preventDefault() },
          h('p', { class: 'muted small' }, gen.description ?? '', ' ', h('span', { class: 'version' }, `v${gen.version}`)),
          h(
            'fieldset',
            {},
            h('legend', {}, 'Params'),
            controls.map((c) => c.el),
          ),
        ),
        h('section', { class: 'panel' }, details),
      ),
    ),
  );

  function shuffleAll() {
    // One curated palette for every colour, so the colours go together.
    const palette = shufflePalette();
    for (const c of controls) if (!c.lock.checked) c.shuffle?.(palette);
    seed.value = randomSeed();
    onChange();
  }

  function reset() {
    // Back to the generator's defaults (seed 0: the one its params derive), through the URL.
    const target = playgroundHref(gen.slug, initialRecipe(gen));
    if (location.hash === target) showPlayground(view, gen.slug);
    else location.hash = target;
  }

  async function downloadFile() {
    const chosen = readForm();
    const mb = gifMegabytes(chosen, gen);
    if (mb > GIF_WARN_MB && !confirm(gifQuestion(mb, 'Download'))) return void format.focus();
    // Longer than a direct render may take, by the service's estimate: an export job instead, asked
    // before rather than failed after. A recipe the quote refuses goes on to the render, which says why.
    const q = await quote({ render: { slug: gen.slug, ...recipeBody(chosen) } }).catch(() => null);
    if (q && !q.fitsSyncBudget) {
      if (confirm(exportQuestion(q.estimatedMs / 1000))) {
        saveRecipe(chosen);
        location.hash = '#/export';
      }
      return;
    }
    downloadBtn.disabled = true;
    try {
      const out = await render(gen.slug, recipeBody(chosen));
      const a = h('a', { href: URL.createObjectURL(out.blob), download: fileName(gen.slug, chosen), hidden: true });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
      toast(`Saved ${a.download}`);
      price.update(); // rendered now: free the next time
    } catch (err) {
      // Too long for a direct render: the same recipe as an export job is one click away.
      if (err.code === 'animation_budget_exceeded' || err.code === 'render_timeout') {
        toast('Too long to render directly: export it instead (it runs as a job you can follow).');
        document.getElementById('to-export')?.focus();
      } else toast(`Download failed: ${err.message}`);
    } finally {
      downloadBtn.disabled = false;
    }
  }

  /** VARIATIONS recipes: this one with random seeds. */
  const otherSeeds = (base) => seedVariations(base, VARIATIONS, () => Number(randomSeed()));
  /** VARIATIONS recipes near one: its seed, each unlocked ranged number nudged. */
  const nearOnes = (base) =>
    nearVariations(
      base,
      controls.filter((c) => c.range && !c.lock.checked).map((c) => [c.name, c.range]),
      VARIATIONS,
    );
  /** Makes a variation the recipe: its params and seed in the form. */
  const useVariation = (v) => {
    for (const c of controls) if (c.name in v.params) c.set?.(v.params[c.name]);
    seed.value = String(v.seed);
    onChange();
  };

  let variationSeq = 0;
  async function showVariations(recipes) {
    const mine = ++variationSeq;
    for (const u of variationUrls.splice(0)) URL.revokeObjectURL(u);
    const tiles = recipes.map((v) =>
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
            onclick: () => useVariation(v),
          },
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
    variationGrid.replaceChildren(...tiles);
    // The tile's width (laid out now) decides the pixels asked for.
    const cssWidth = variationGrid.querySelector('.variation')?.clientWidth || 160;
    await Promise.all(
      recipes.map(async (v, i) => {
        const btn = tiles[i].firstChild;
        // An animation's variations are stills (its first frame) of the same recipe.
        const still = kindOf(v.format) === 'motion' ? { ...v, format: stillFormat(gen) } : v;
        const shown = previewRecipe(gen, still, { width: cssWidth, height: cssWidth }, devicePixelRatio);
        try {
          const out = await render(gen.slug, recipeBody(shown));
          if (mine !== variationSeq) return;
          if (out.contentType.startsWith('text/css')) {
            btn.prepend(h('span', { class: 'small' }, 'css'));
            return;
          }
          const url = URL.createObjectURL(out.blob);
          variationUrls.push(url);
          btn.dataset.hash = out.hash;
          btn.prepend(h('img', { src: url, alt: '' }));
        } catch (err) {
          btn.prepend(h('span', { class: 'error small' }, err.message));
        } finally {
          btn.classList.remove('loading');
        }
      }),
    );
  }

  let controller;
  let seq = 0;
  let shownKey = '';
  // A window resized enough to show other pixels renders them (often a cache hit).
  onResize = () => {
    if (!stage.isConnected || !state.last) return;
    const box = previewBox(stage);
    const r = previewRecipe(gen, recipe, box, devicePixelRatio);
    if (`${r.size.pixelRatio} ${fitSize(recipe.size, box).width}` !== shownKey) refresh();
  };
  async function refresh() {
    if (!stage.isConnected && seq > 0) return; // left the page
    const mine = ++seq;
    controller?.abort();
    controller = new AbortController();
    recipe = readForm();
    persist();
    const box = previewBox(stage);
    const shown = previewRecipe(gen, recipe, box, devicePixelRatio);
    shownKey = `${shown.size.pixelRatio} ${fitSize(recipe.size, box).width}`;
    stage.classList.add('loading');
    status.textContent = 'Rendering…';
    const cssSize = fitSize(recipe.size, box);
    // A large picture first comes quick and soft (pixel ratio 0.5, a few times fewer pixels to draw
    // and encode), then sharp; the quick one is shown only while the sharp one is on its way.
    let sharp = false;
    const quick = quickRecipe(shown);
    if (quick)
      render(gen.slug, recipeBody(quick), { signal: controller.signal }).then(
        (out) => mine === seq && !sharp && show(stage, out, cssSize),
        () => {}, // the sharp render reports any error
      );
    try {
      const out = await render(gen.slug, recipeBody(shown), { signal: controller.signal });
      sharp = true;
      if (mine !== seq) return;
      clearErrors(view);
      // Seed 0 means "derived from the params", so every tweak of a param would re-compose the whole
      // picture. The playground keeps the derived seed as a concrete number instead (the same picture,
      // the same recipe hash): from now on a param changes only that param's effect.
      if (recipe.seed === 0) {
        const derived = decodeRecipe(out.recipe)?.seed;
        if (Number.isInteger(derived) && derived > 0) {
          seed.value = String(derived);
          recipe = readForm();
          persist();
        }
      }
      state.last = { slug: gen.slug, recipe: out.recipe, hash: out.hash, cache: out.cache };
      metaHash.textContent = out.hash;
      metaCache.textContent = out.cache;
      metaCache.className = `chip ${out.cache === 'MISS' ? 'miss' : 'hit'}`;
      metaRecipe.textContent = out.recipe;
      metaEngine.textContent = out.engine ?? '—';
      metaUrl.textContent = recipeUrl();
      metaSize.textContent = `${formatBytes(out.blob.size)} · ${out.contentType}`;
      await show(stage, out, cssSize);
      stage.dataset.hash = out.hash;
      stage.classList.remove('stale');
      copyRecipeUrl.disabled = false;
      const sizeNote =
        shown.size.width !== recipe.size.width
          ? ` ${shown.size.width}×${shown.size.height} (a quick preview; use Export for long or large animations)`
          : '';
      status.textContent = `Rendered ${recipe.size.width}×${recipe.size.height} · preview ${shown.format}${sizeNote} @${shown.size.pixelRatio}x (the pixels shown); Download and Export give ${recipe.format} @${recipe.size.pixelRatio}x`;
    } catch (err) {
      if (err.name === 'AbortError' || mine !== seq) return;
      showErrors(view, err);
      // The picture no longer matches the form: dimmed, and its recipe URL is not offered.
      stage.classList.add('stale');
      state.last = null;
      copyRecipeUrl.disabled = true;
      metaUrl.textContent = '—';
      status.textContent = `Render failed: ${err.message}. The dimmed preview is the last recipe that rendered.`;
    } finally {
      if (mine === seq) stage.classList.remove('loading');
    }
  }
  price.update();
  await refresh();
}

function wrapId(id, control) {
  const div = h('div', { class: 'control' }, control);
  div.dataset.inputId = id;
  return div;
}

/** The CSS box the preview fits in: the stage's width, and the window's height less the chrome around it (on a phone, a sticky 40 %). */
function previewBox(stage) {
  const phone = matchMedia('(max-width: 860px)').matches;
  return { width: stage.clientWidth || 640, height: Math.max(200, phone ? window.innerHeight * 0.4 : window.innerHeight - 240) };
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

/** Shows a render on the stage; a picture is drawn at `cssSize` (the recipe's size fitted to the stage). */
async function show(stage, out, cssSize) {
  clear(stage);
  const type = out.contentType.split(';')[0].trim();
  if (type === 'text/css') {
    const css = await out.blob.text();
    stage.append(h('div', { class: 'css-split' }, cssSwatch(css), h('pre', { class: 'css-output', id: 'preview-css' }, css)));
    preview.revoke();
    return;
  }
  const url = preview.set(out.blob);
  if (type === 'video/mp4') {
    stage.append(h('video', { src: url, id: 'preview-media', autoplay: true, loop: true, muted: true, controls: true, playsInline: true }));
  } else {
    const img = h('img', { src: url, id: 'preview-media', alt: 'Rendered preview', width: cssSize.width, height: cssSize.height });
    stage.append(img);
    await img.decode().catch(() => {});
  }
}

/**
 * The returned CSS applied to a div: a constructed stylesheet in a shadow root (the CSP allows no
 * <style> element), on an element with the stylesheet's first class.
 */
function cssSwatch(css) {
  const host = h('div', { class: 'css-swatch', id: 'css-swatch', role: 'img', 'aria-label': 'The CSS applied to a box' });
  const root = host.attachShadow({ mode: 'open' });
  const sheet = new CSSStyleSheet();
  try {
    sheet.replaceSync(`${css}\n:host{display:block}.swatch{width:100%;height:100%;border-radius:8px}`);
  } catch {
    /* not CSS the browser takes: an empty swatch */
  }
  root.adoptedStyleSheets = [sheet];
  const cls = /\.(-?[_a-zA-Z][\w-]*)\s*[{,]/.exec(css)?.[1] ?? '';
  root.append(h('div', { class: `swatch ${cls}` }));
  return host;
}

export function clearErrors(root) {
  for (const el of root.querySelectorAll('.field-error')) el.textContent = '';
  for (const el of root.querySelectorAll('.field.invalid')) el.classList.remove('invalid');
}

/**
 * Puts each API issue next to the field it names (body.size.width → the Width field), in plain words
 * under the field's own title ("Title: must be at most 80 characters"); the rest goes on top.
 */
export function showErrors(root, err) {
  clearErrors(root);
  const titles = {};
  for (const el of root.querySelectorAll('.field[data-field]')) titles[el.dataset.field] = el.querySelector('.field-label')?.textContent;
  const leftovers = [];
  const issues = err instanceof ApiError ? err.issues : [];
  for (const issue of issues) {
    const { field, text } = issueLine(issue, titles);
    const target = field && root.querySelector(`.field-error[data-error-for="${CSS.escape(field)}"]`);
    if (target) {
      target.textContent = target.textContent ? `${target.textContent}; ${text}` : text;
      target.closest('.field').classList.add('invalid');
    } else leftovers.push(text);
  }
  if (!issues.length || leftovers.length) {
    const title =
      err instanceof ApiError ? `${err.status} ${err.code ?? ''} — ${issues.length ? err.problem.title : err.message}` : err.message;
    root.querySelector('.field-error.general').textContent = [title, ...leftovers].join('\n');
  }
}

/** "Save as preset", named inline (an empty name takes the placeholder: slug and date). */
function presetForm(current) {
  const name = h('input', { type: 'text', id: 'preset-name', maxlength: 100, 'aria-label': 'Preset name' });
  const form = h(
    'form',
    {
      class: 'actions',
      id: 'preset-form',
      onsubmit: async (e) => {
        e.preventDefault();
        const recipe = current();
        const named = name.value.trim() || `${recipe.slug} ${new Date().toISOString().slice(0, 10)}`;
        try {
          await json('/v1/presets', { method: 'POST', body: { name: named, recipe: { slug: recipe.slug, ...recipeBody(recipe) } } });
          name.value = '';
          toast(`Saved preset "${named}"`);
        } catch (err) {
          toast(`Could not save the preset: ${err.message}`);
        }
      },
    },
    name,
    h('button', { type: 'submit', class: 'btn small', id: 'save-preset' }, 'Save as preset'),
  );
  name.placeholder = 'Preset name (default: generator and date)';
  return form;
}
