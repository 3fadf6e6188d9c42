import { generators, render, json, ApiError } from './api.js';
import { h, clear, copyButton, debounce, toast, BlobSlot, formatBytes } from './dom.js';
import { paramControl, field } from './form.js';
import { state, saveRecipe, recipeBody, stillFormat } from './state.js';

const DEFAULT_SIZE = { width: 640, height: 360, pixelRatio: 1 };
const preview = new BlobSlot();

export async function showPlayground(view, slugFromRoute) {
  const list = await generators();
  const slug = slugFromRoute || state.recipe?.slug || list[0]?.slug;
  const gen = list.find((g) => g.slug === slug);
  clear(view);
  if (!gen) {
    view.append(h('h1', {}, 'Playground'), h('p', { class: 'error' }, `No generator "${slug}".`));
    return;
  }
  let recipe = state.recipe?.slug === gen.slug ? structuredClone(state.recipe) : initialRecipe(gen);
  if (!gen.formats.includes(recipe.format)) recipe.format = stillFormat(gen);

  const controls = [];
  const schemaProps = gen.paramSchema?.properties ?? {};
  const scheduleRender = debounce(() => refresh(), 300);
  const onChange = () => {
    recipe = readForm();
    saveRecipe(recipe);
    scheduleRender();
  };

  // Generator picker
  const picker = h(
    'select',
    { id: 'generator', onchange: () => (location.hash = `#/playground/${encodeURIComponent(picker.value)}`) },
    list.map((g) => h('option', { value: g.slug, selected: g.slug === gen.slug }, `${g.name}${g.animated ? ' (animated)' : ''}`)),
  );

  for (const [name, schema] of Object.entries(schemaProps)) {
    const value = recipe.params?.[name] ?? gen.defaults?.[name] ?? schema.default;
    controls.push({ name, ...paramControl(name, schema, value, onChange) });
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
  const shuffle = h(
    'button',
    {
      type: 'button',
      class: 'btn small',
      id: 'shuffle',
      onclick: () => {
        seed.value = String(crypto.getRandomValues(new Uint32Array(1))[0] || 1);
        onChange();
      },
    },
    '⟳ Shuffle',
  );
  const width = h('input', {
    type: 'number',
    id: 'size-width',
    min: 16,
    max: 4096,
    step: 1,
    value: recipe.size.width,
    oninput: onChange,
    class: 'num',
  });
  const height = h('input', {
    type: 'number',
    id: 'size-height',
    min: 16,
    max: 4096,
    step: 1,
    value: recipe.size.height,
    oninput: onChange,
    class: 'num',
  });
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
  const format = h(
    'select',
    { id: 'format', onchange: onChange },
    gen.formats.map((f) => h('option', { value: f, selected: f === recipe.format }, f)),
  );

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
    };
  }

  // Preview + recipe details
  const stage = h('div', { class: 'stage loading', id: 'preview' });
  const status = h('p', { class: 'preview-status muted', id: 'preview-status' }, 'Rendering…');
  const generalError = h('div', { class: 'field-error general', dataset: { errorFor: '' }, id: 'general-error', role: 'alert' });
  const metaHash = h('code', { id: 'meta-hash' }, '—');
  const metaCache = h('span', { id: 'meta-cache', class: 'chip' }, '—');
  const metaRecipe = h('code', { id: 'meta-recipe', class: 'wrap' }, '—');
  const metaSize = h('span', { id: 'meta-bytes', class: 'muted' });

  const recipeUrl = () => (state.last ? `${location.origin}/v1/render/${state.last.hash}?r=${state.last.recipe}` : '');
  // Only the recipe on screen is offered: while the form holds one the API refused, there is none to copy.
  const copyRecipeUrl = copyButton(recipeUrl, 'Copy recipe URL', 'Recipe URL copied', { id: 'copy-recipe-url' });
  const snippets = h(
    'div',
    { class: 'actions' },
    h('button', { type: 'button', class: 'btn small', id: 'rerender', onclick: () => refresh() }, 'Render again'),
    copyRecipeUrl,
    copyButton(() => curlSnippet(recipe), 'Copy curl', 'curl command copied'),
    copyButton(() => tsSnippet(recipe), 'Copy TypeScript', 'TypeScript snippet copied'),
    h('button', { type: 'button', class: 'btn small', id: 'save-preset', onclick: () => savePreset(recipe) }, 'Save as preset'),
    h('a', { class: 'btn small primary', href: '#/export', id: 'to-export' }, 'Export…'),
  );

  view.append(
    h('h1', {}, 'Playground'),
    h(
      'div',
      { class: 'playground' },
      h(
        'form',
        { class: 'panel params', id: 'params-form', onsubmit: (e) => e.preventDefault() },
        field('generator', 'Generator', wrapId('generator', picker)),
        h('p', { class: 'muted small' }, gen.description ?? '', ' ', h('span', { class: 'version' }, `v${gen.version}`)),
        h(
          'fieldset',
          {},
          h('legend', {}, 'Params'),
          controls.map((c) => c.el),
        ),
        h(
          'fieldset',
          {},
          h('legend', {}, 'Output'),
          field('seed', 'Seed (Shuffle for another composition)', wrapId('seed', h('div', { class: 'range-row' }, seed, shuffle))),
          h(
            'div',
            { class: 'size-row' },
            field('size.width', 'Width', wrapId('size-width', width)),
            field('size.height', 'Height', wrapId('size-height', height)),
            field('size.pixelRatio', 'Pixel ratio', wrapId('size-pixelRatio', pixelRatio)),
          ),
          field('format', 'Format', wrapId('format', format)),
        ),
      ),
      h(
        'section',
        { class: 'panel preview-panel' },
        stage,
        status,
        generalError,
        h(
          'dl',
          { class: 'meta' },
          h('dt', {}, 'X-Service-Cache'),
          h('dd', {}, metaCache, ' ', metaSize),
          h('dt', {}, 'X-Service-Recipe-Hash'),
          h('dd', {}, metaHash),
          h('dt', {}, 'X-Service-Recipe'),
          h('dd', {}, metaRecipe),
        ),
        snippets,
      ),
    ),
  );

  let controller;
  let seq = 0;
  async function refresh() {
    const mine = ++seq;
    controller?.abort();
    controller = new AbortController();
    recipe = readForm();
    saveRecipe(recipe);
    stage.classList.add('loading');
    status.textContent = 'Rendering…';
    try {
      const out = await render(gen.slug, recipeBody(recipe), { signal: controller.signal });
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
          saveRecipe(recipe);
        }
      }
      state.last = { slug: gen.slug, recipe: out.recipe, hash: out.hash, cache: out.cache };
      metaHash.textContent = out.hash;
      metaCache.textContent = out.cache;
      metaCache.className = `chip ${out.cache === 'MISS' ? 'miss' : 'hit'}`;
      metaRecipe.textContent = out.recipe;
      metaSize.textContent = `${formatBytes(out.blob.size)} · ${out.contentType}`;
      await show(stage, out);
      stage.classList.remove('stale');
      copyRecipeUrl.disabled = false;
      status.textContent = `Rendered ${recipe.format} ${recipe.size.width}×${recipe.size.height}`;
    } catch (err) {
      if (err.name === 'AbortError' || mine !== seq) return;
      showErrors(view, err);
      // The picture no longer matches the form: dimmed, and its recipe URL is not offered.
      stage.classList.add('stale');
      state.last = null;
      copyRecipeUrl.disabled = true;
      status.textContent = `Render failed: ${err.message}. The dimmed preview is the last recipe that rendered.`;
    } finally {
      if (mine === seq) stage.classList.remove('loading');
    }
  }
  await refresh();
}

function wrapId(id, control) {
  const div = h('div', { class: 'control' }, control);
  div.dataset.inputId = id;
  return div;
}

/** The canonical recipe inside an encoded one (base64url of its UTF-8 JSON), or null. */
function decodeRecipe(encoded) {
  try {
    const base64 = encoded.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4)), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null;
  }
}

function initialRecipe(gen) {
  return { slug: gen.slug, params: structuredClone(gen.defaults ?? {}), seed: 0, size: { ...DEFAULT_SIZE }, format: stillFormat(gen) };
}

async function show(stage, out) {
  clear(stage);
  const type = out.contentType.split(';')[0].trim();
  if (type === 'text/css') {
    stage.append(h('pre', { class: 'css-output', id: 'preview-css' }, await out.blob.text()));
    preview.revoke();
    return;
  }
  const url = preview.set(out.blob);
  if (type === 'video/mp4') {
    stage.append(h('video', { src: url, id: 'preview-media', autoplay: true, loop: true, muted: true, controls: true, playsInline: true }));
  } else {
    const img = h('img', { src: url, id: 'preview-media', alt: 'Rendered preview' });
    stage.append(img);
    await img.decode().catch(() => {});
  }
}

export function clearErrors(root) {
  for (const el of root.querySelectorAll('.field-error')) el.textContent = '';
  for (const el of root.querySelectorAll('.field.invalid')) el.classList.remove('invalid');
}

/** Puts each API issue next to the field it names (body.size.width → size.width); the rest goes on top. */
export function showErrors(root, err) {
  clearErrors(root);
  const general = root.querySelector('.field-error.general');
  const leftovers = [];
  const issues = err instanceof ApiError ? err.issues : [];
  for (const issue of issues) {
    const path = String(issue.path || '')
      .replace(/^body\.?/, '')
      .replace(/\//g, '.');
    const target = findErrorSlot(root, path);
    if (target) {
      append(target, issue.message);
      target.closest('.field')?.classList.add('invalid');
    } else leftovers.push(`${issue.path}: ${issue.message}`);
  }
  if (!issues.length || leftovers.length) {
    const title = err instanceof ApiError ? `${err.status} ${err.code ?? ''} — ${err.message}` : err.message;
    general.textContent = [title, ...leftovers].join('\n');
  }
}

function append(el, text) {
  el.textContent = el.textContent ? `${el.textContent}; ${text}` : text;
}

function findErrorSlot(root, path) {
  const parts = path.split('.');
  while (parts.length) {
    const el = root.querySelector(`.field-error[data-error-for="${CSS.escape(parts.join('.'))}"]`);
    if (el) return el;
    parts.pop();
  }
  return null;
}

function bodyJson(recipe) {
  return JSON.stringify(recipeBody(recipe));
}

function curlSnippet(recipe) {
  const body = bodyJson(recipe).replace(/'/g, "'\\''");
  return [
    `curl -sS -X POST '${location.origin}/v1/generate/${recipe.slug}' \\`,
    `  -H "Authorization: Bearer $KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '${body}' \\`,
    `  -o out.${recipe.format}`,
  ].join('\n');
}

// The typed client: openapi-fetch over types generated from this service's contract.
function tsSnippet(recipe) {
  const body = JSON.stringify(recipeBody(recipe), null, 2).replace(/\n/g, '\n  ');
  return [
    `// npm i openapi-fetch && npx openapi-typescript ${location.origin}/v1/openapi.json -o render-service.ts`,
    `import createClient from 'openapi-fetch';`,
    `import type { paths } from './render-service';`,
    ``,
    `const client = createClient<paths>({`,
    `  baseUrl: '${location.origin}',`,
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

async function savePreset(recipe) {
  const name = window.prompt('Preset name', `${recipe.slug} ${new Date().toISOString().slice(0, 10)}`);
  if (!name) return;
  try {
    await json('/v1/presets', { method: 'POST', body: { name, recipe: { slug: recipe.slug, ...recipeBody(recipe) } } });
    toast(`Saved preset "${name}"`);
  } catch (err) {
    toast(`Could not save the preset: ${err.message}`);
  }
}
