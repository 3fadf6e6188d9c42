// The templates area (#/templates, docs/web-app.md "Templates"): the workspace's templates, newest
// first, each a card with a thumbnail drawn by the service (POST /v1/templates/preview, free), Open
// (the editor, #/templates/<id>), Duplicate and Delete; New… makes one blank, from a starter or
// around the playground's recipe. The bodies it posts are new-template.js's, the paging and the
// thumbnails' pixels list-rules.js's (both pure, unit-tested in Node).
import { call, request } from '../api.js';
import { h, clear, modal, toast } from '../dom.js';
import { parseRoute } from '../route.js';
import { state } from '../state.js';
import { nextLink, thumbSize } from './list-rules.js';
import { BLANK_SIZES, blankTemplate, duplicateTemplate, recipeTemplate, starterTemplate, templateBody } from './new-template.js';
import { sampleParams } from './sample-params.js';

const PAGE = 24;
/** Thumbnails asked at once: a page of cards never floods the render queue. */
const IN_FLIGHT = 3;

/** Shows or hides `el`: `hidden`, and display through the CSSOM, since a class's display (.btn, .settings-row) beats [hidden]. */
function shown(el, on) {
  el.hidden = !on;
  el.style.display = on ? '' : 'none';
  return el;
}

/** The list on screen: what leaving it must stop (its requests, its observer) and free (its blob: URLs). */
let live = null;

function leave() {
  if (!live) return;
  live.abort.abort();
  live.observer.disconnect();
  for (const url of live.urls) URL.revokeObjectURL(url);
  window.removeEventListener('hashchange', live.onHash);
  live = null;
}

export async function showTemplateList(view) {
  leave();
  const ctx = { abort: new AbortController(), urls: [], queue: [], running: 0, next: null };
  live = ctx;
  ctx.onHash = () => {
    const { name, arg } = parseRoute(location.hash);
    if (live === ctx && !(name === 'templates' && !arg)) leave();
  };
  window.addEventListener('hashchange', ctx.onHash);
  // A card's thumbnail is asked for once the card comes near the viewport.
  ctx.observer = new IntersectionObserver(
    (entries) => {
      for (const e of entries.filter((x) => x.isIntersecting)) {
        ctx.observer.unobserve(e.target);
        enqueue(ctx, e.target.loadThumb);
      }
    },
    { rootMargin: '200px' },
  );

  const grid = h('div', { class: 'grid', id: 'templates' });
  const newButton = h('button', { type: 'button', class: 'btn primary', id: 'templates-new', onclick: () => openNew() }, 'New template…');
  const empty = h(
    'div',
    { class: 'panel templates-empty', id: 'templates-empty', hidden: true },
    h('h2', {}, 'No templates yet'),
    h(
      'p',
      {},
      'A template is a design with holes: a size, layers, and the variables a render fills in (a title, a photo). ',
      'Start from a blank canvas, from a starter, or from the picture in the playground.',
    ),
    h('button', { type: 'button', class: 'btn primary', id: 'templates-new-empty', onclick: () => openNew() }, 'New template…'),
  );
  const more = shown(h('button', { type: 'button', class: 'btn', id: 'templates-more' }, 'Show more'), false);
  const status = h('p', { class: 'muted small', id: 'templates-status', role: 'status' }, 'Loading…');
  ctx.grid = grid;
  ctx.refresh = () => {
    const none = !grid.querySelector('.card');
    empty.hidden = !none;
    shown(newButton, !none);
    shown(more, Boolean(ctx.next));
  };

  clear(view).append(
    h('div', { class: 'section-head' }, h('h1', {}, 'Templates'), newButton),
    h('p', { class: 'muted' }, 'Your designs with variables. Each renders like a generator, with its id as the slug.'),
    status,
    empty,
    grid,
    h('div', { class: 'actions' }, more),
  );

  // The first page by its operation, the next ones by the URL the last page's Link header gave.
  const load = async (next) => {
    const signal = ctx.abort.signal;
    const res = await (next ? request(next, { signal }) : call('listTemplates', { query: { limit: PAGE }, signal, raw: true }));
    const page = await res.json();
    ctx.next = nextLink(res.headers.get('link'), location.href);
    const cards = page.map((t) => card(ctx, t));
    grid.append(...cards);
    ctx.refresh();
    return cards;
  };
  more.addEventListener('click', async () => {
    more.disabled = true;
    try {
      const cards = await load(ctx.next);
      cards[0]?.querySelector('a')?.focus(); // the keyboard goes on where the new cards start
    } catch (err) {
      if (err.name !== 'AbortError') toast(err.message);
    } finally {
      more.disabled = false;
    }
  });
  await load(null);
  status.textContent = '';
}

/** Runs `job` once fewer than IN_FLIGHT thumbnails are being asked for. */
function enqueue(ctx, job) {
  ctx.queue.push(job);
  pump(ctx);
}

function pump(ctx) {
  while (live === ctx && ctx.running < IN_FLIGHT && ctx.queue.length) {
    ctx.running++;
    ctx.queue
      .shift()()
      .finally(() => {
        ctx.running--;
        pump(ctx);
      });
  }
}

const sizeText = ({ width, height }) => `${width}×${height}`;

/** A template's card. `full`, the template with its layers when known (a duplicate's answer), spares its GET. */
function card(ctx, summary, full) {
  const { id, name } = summary;
  const shown = thumbSize(summary.size, 1);
  const img = h('img', { class: 'thumb', alt: `Thumbnail of ${name}`, width: shown.width, height: shown.height });
  const frame = h('div', { class: 'thumb-frame loading' }, img);
  const updated = new Date(summary.updatedAt);
  const actions = h(
    'div',
    { class: 'actions' },
    h('a', { class: 'btn small', href: `#/templates/${encodeURIComponent(id)}`, 'aria-label': `Open ${name}` }, 'Open'),
    h(
      'button',
      { type: 'button', class: 'btn small', 'aria-label': `Duplicate ${name}`, onclick: (e) => duplicate(ctx, summary, e.currentTarget) },
      'Duplicate',
    ),
    h(
      'button',
      { type: 'button', class: 'btn small danger', 'aria-label': `Delete ${name}`, onclick: () => remove(ctx, el, summary) },
      'Delete',
    ),
  );
  const el = h(
    'article',
    { class: 'card template-card', dataset: { id } },
    frame,
    h(
      'div',
      { class: 'card-body' },
      h('h2', {}, name),
      h(
        'p',
        { class: 'muted small' },
        `${sizeText(summary.size)} · version ${summary.version} · updated `,
        h('time', { datetime: summary.updatedAt }, Number.isNaN(updated.getTime()) ? summary.updatedAt : updated.toLocaleDateString()),
      ),
      actions,
    ),
  );
  el.loadThumb = () => thumbnail(ctx, frame, img, summary, full);
  ctx.observer.observe(el);
  return el;
}

/**
 * Draws a card's thumbnail: the template (GET) rendered by POST /v1/templates/preview with its sample
 * params, at the pixels the card shows. A refusal (say, a required image variable without a sample)
 * is a neutral placeholder with the reason in its title: a card, not an error.
 */
async function thumbnail(ctx, frame, img, summary, full) {
  const signal = ctx.abort.signal;
  try {
    const template = full ?? (await call('getTemplate', { path: { id: summary.id }, signal }));
    // The frame as laid out now (the grid's column decides it), else the card's nominal box.
    const box = frame.clientWidth ? { width: frame.clientWidth, height: frame.clientHeight } : undefined;
    const res = await call('previewTemplate', {
      signal,
      raw: true,
      headers: { Accept: 'image/webp, image/*, application/problem+json' },
      body: {
        template: templateBody(template),
        params: sampleParams(template),
        size: thumbSize(template.size, devicePixelRatio, box),
        format: 'webp',
      },
    });
    const url = URL.createObjectURL(await res.blob());
    if (signal.aborted) return URL.revokeObjectURL(url);
    ctx.urls.push(url);
    img.src = url;
    await img.decode().catch(() => {});
    frame.classList.remove('loading');
  } catch (err) {
    if (signal.aborted || err.name === 'AbortError') return;
    frame.classList.remove('loading');
    frame.classList.add('no-preview');
    frame.replaceChildren(h('span', { class: 'muted small', title: `No preview: ${err.message}` }, 'No preview'));
  }
}

async function duplicate(ctx, summary, button) {
  button.disabled = true;
  try {
    const template = await call('getTemplate', { path: { id: summary.id } });
    const created = await call('createTemplate', { body: duplicateTemplate(template) });
    if (live !== ctx) return;
    const el = card(ctx, created, created);
    ctx.grid.prepend(el);
    ctx.refresh();
    toast(`Duplicated as "${created.name}"`);
    el.querySelector('a').focus();
  } catch (err) {
    toast(err.message);
  } finally {
    button.disabled = false;
  }
}

/** A confirmation naming what it does; resolves true when confirmed. */
const confirmDelete = (summary) =>
  new Promise((resolve) =>
    modal(
      {
        id: 'template-delete-dialog',
        'aria-labelledby': 'template-delete-title',
        'aria-describedby': 'template-delete-what',
        onclose: (e) => resolve(e.target.returnValue === 'ok'),
      },
      h('h2', { id: 'template-delete-title' }, `Delete “${summary.name}”?`),
      h(
        'p',
        { id: 'template-delete-what' },
        `Its recipes — API calls, signed URLs and presets naming ${summary.id} — will answer 404 from now on. `,
        'Files already rendered are unaffected.',
      ),
      h(
        'div',
        { class: 'actions' },
        h('button', { value: 'cancel', class: 'btn', id: 'template-delete-cancel' }, 'Cancel'),
        h('button', { value: 'ok', class: 'btn danger', id: 'template-delete-ok' }, 'Delete'),
      ),
    ),
  );

async function remove(ctx, el, summary) {
  if (!(await confirmDelete(summary))) return;
  try {
    await call('deleteTemplate', { path: { id: summary.id } });
    // Focus goes on to the next card (or the previous, or New), not to the page's top.
    const after = el.nextElementSibling ?? el.previousElementSibling;
    el.remove();
    ctx.refresh();
    toast(`Deleted "${summary.name}"`);
    (after?.querySelector('a') ?? document.querySelector('#templates-new:not([hidden]), #templates-new-empty'))?.focus();
  } catch (err) {
    toast(err.message);
  }
}

/**
 * New…: a blank canvas (a size preset or a custom size), a starter (GET /v1/template-starters), or
 * the playground's recipe as the background; created with POST /v1/templates, then opened in the editor.
 */
function openNew() {
  const recipe = state.recipe;
  // A radio and its label, one per line (the page's .field), the reason a disabled one is disabled beside it.
  const radio = (value, label, attrs = {}, why = null) =>
    h(
      'div',
      { class: 'field' },
      h('input', { type: 'radio', name: 'new-kind', value, id: `new-kind-${value}`, onchange: show, ...attrs }),
      ' ',
      h('label', { for: `new-kind-${value}` }, label),
      why,
    );
  const kinds = h(
    'fieldset',
    {},
    h('legend', {}, 'Start from'),
    radio('blank', 'A blank canvas', { checked: true }),
    radio('starter', 'A starter'),
    recipe
      ? radio('recipe', 'The playground’s picture, as the background')
      : radio(
          'recipe',
          'The playground’s picture, as the background',
          { disabled: true, 'aria-describedby': 'new-recipe-why' },
          h(
            'span',
            { class: 'muted small', id: 'new-recipe-why' },
            ' — no playground recipe in this tab yet: open a generator in the playground first',
          ),
        ),
  );

  const sizeSelect = h(
    'select',
    { id: 'new-size', onchange: show },
    BLANK_SIZES.map(([w, hh, what]) => h('option', { value: `${w}x${hh}` }, `${w}×${hh} (${what})`)),
    h('option', { value: '' }, 'Custom'),
  );
  const side = (id, value) => h('input', { id, type: 'number', min: 1, max: 4096, step: 1, value, inputmode: 'numeric' });
  const width = side('new-width', 1200);
  const height = side('new-height', 630);
  const custom = h(
    'div',
    { class: 'settings-row' },
    h('label', { class: 'setting', for: 'new-width' }, 'Width', width),
    h('label', { class: 'setting', for: 'new-height' }, 'Height', height),
  );
  const blankPanel = h('div', { class: 'field' }, h('label', { class: 'setting', for: 'new-size' }, 'Size', sizeSelect), custom);

  const starterList = h(
    'div',
    { class: 'starters', role: 'radiogroup', 'aria-label': 'Starters' },
    h('p', { class: 'muted small' }, 'Loading starters…'),
  );
  const starterPanel = h('div', { class: 'field', hidden: true }, starterList);
  let starters = [];
  call('listTemplateStarters').then(
    (list) => {
      starters = list;
      starterList.replaceChildren(
        ...list.map((s, i) =>
          h(
            'div',
            { class: 'field' },
            h('input', {
              type: 'radio',
              name: 'new-starter',
              value: s.id,
              id: `starter-${s.id}`,
              checked: i === 0,
              'aria-describedby': `starter-${s.id}-what`,
            }),
            ' ',
            h('label', { for: `starter-${s.id}` }, h('strong', {}, s.name)),
            h('br'),
            h('span', { class: 'muted small', id: `starter-${s.id}-what` }, s.description ?? ''),
          ),
        ),
      );
    },
    (err) => starterList.replaceChildren(h('p', { class: 'error' }, `Could not load the starters: ${err.message}`)),
  );

  const recipePanel = h(
    'div',
    { class: 'field', hidden: true },
    recipe
      ? h(
          'p',
          { class: 'muted small' },
          `${recipe.slug} at ${recipe.size.width}×${recipe.size.height}, seed ${recipe.seed}, as a generator layer, with a title over it.`,
        )
      : null,
  );

  const name = h('input', { id: 'new-name', type: 'text', maxlength: 200, autocomplete: 'off' });
  const status = h('p', { class: 'small', id: 'new-status', role: 'status' });
  const createButton = h('button', { class: 'btn primary', id: 'new-create', value: 'create' }, 'Create');
  const dialog = modal(
    { class: 'dialog new-template', id: 'new-template-dialog', 'aria-labelledby': 'new-template-title' },
    h('h2', { id: 'new-template-title' }, 'New template'),
    kinds,
    blankPanel,
    starterPanel,
    recipePanel,
    h('label', { class: 'setting', for: 'new-name' }, 'Name', name),
    h(
      'div',
      { class: 'actions' },
      // Cancel is not a submit button: Enter in a field creates.
      h('button', { type: 'button', class: 'btn', onclick: () => dialog.close() }, 'Cancel'),
      createButton,
    ),
    status,
  );
  const kind = () => dialog.querySelector('input[name="new-kind"]:checked')?.value;
  function show() {
    blankPanel.hidden = kind() !== 'blank';
    starterPanel.hidden = kind() !== 'starter';
    recipePanel.hidden = kind() !== 'recipe';
    shown(custom, sizeSelect.value === '');
    name.placeholder = { blank: 'Untitled', starter: 'the starter’s name', recipe: recipe ? `${recipe.slug} template` : '' }[kind()] ?? '';
  }
  show();

  const body = () => {
    if (kind() === 'starter') {
      const chosen = starters.find((s) => s.id === dialog.querySelector('input[name="new-starter"]:checked')?.value);
      if (!chosen) throw new Error('Choose a starter.');
      return starterTemplate(chosen, name.value);
    }
    if (kind() === 'recipe') return recipeTemplate(recipe, name.value);
    const [w, hh] = sizeSelect.value ? sizeSelect.value.split('x').map(Number) : [width.valueAsNumber, height.valueAsNumber];
    for (const [input, v] of [
      [width, w],
      [height, hh],
    ])
      if (!(Number.isInteger(v) && v >= 1 && v <= 4096)) {
        input.focus();
        throw new Error('Width and height: whole pixels, 1 to 4096.');
      }
    return blankTemplate({ name: name.value, width: w, height: hh });
  };
  dialog.querySelector('form').addEventListener('submit', async (e) => {
    e.preventDefault();
    status.className = 'small';
    try {
      const template = body();
      createButton.disabled = true;
      status.textContent = 'Creating…';
      const created = await call('createTemplate', { body: template });
      dialog.close();
      location.hash = `#/templates/${encodeURIComponent(created.id)}`;
    } catch (err) {
      status.className = 'small error';
      status.textContent = err.message;
    } finally {
      createButton.disabled = false;
    }
  });
}
