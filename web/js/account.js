import { call, generators, render } from './api.js';
import { h, clear, append, copyButton, toast, labelCells, modal } from './dom.js';
import { thumbFormat } from './formats.js';
import { formatDate, money } from './formatting.js';
import { PICTURES_AT_ONCE, limiter, shownPicture } from './pictures.js';
import { recipeBody } from './recipe.js';
import { saveRecipe } from './state.js';
import { openShare } from './share-dialog.js';
import { budgetSection } from './budget.js';
import { renderScopedKeys } from './key-scopes.js';

export async function showAccount(view) {
  clear(view);
  const me = h('section', { class: 'panel', id: 'me' }, h('p', { class: 'muted' }, 'Loading…'));
  const keys = h('section', { class: 'panel', id: 'keys' });
  const signingKeys = h('section', { class: 'panel', id: 'signing-keys' });
  const usage = h('section', { class: 'panel', id: 'usage' });
  const presets = h('section', { class: 'panel', id: 'presets' });
  const credits = h('section', { class: 'panel', id: 'credits', hidden: true });
  view.append(h('h1', {}, 'Account'), me, credits, budgetSection(), keys, signingKeys, usage, presets);
  await Promise.all([
    renderMe(me).then((info) => info?.balance && renderCredits(credits)),
    renderScopedKeys(keys, { showSecret, thead, statusCells, fillRows, revoke }),
    renderSigningKeys(signingKeys),
    renderUsage(usage),
    renderPresets(presets),
  ]);
}

// Hosted workspaces pay for renders from a credit balance; local mode meters nothing, so this stays hidden there.
async function renderCredits(el) {
  el.hidden = false;
  try {
    const billing = await call('getBilling');
    const error = h('p', { class: 'field-error general', role: 'alert' });
    const buy = async (pack, button) => {
      error.textContent = '';
      button.disabled = true;
      try {
        const checkout = await call('createCheckout', { body: { packId: pack.id } });
        // The payment page belongs to the payment provider; it returns to this page afterwards.
        location.assign(checkout.url);
      } catch (err) {
        error.textContent = err.message;
        button.disabled = false;
      }
    };
    const params = new URLSearchParams(location.hash.split('?')[1] ?? '');
    const outcome = params.get('checkout');
    // append() skips null children (Element.append would print them).
    append(clear(el), [
      h('h2', {}, 'Credits'),
      outcome === 'success' ? h('p', { class: 'notice' }, 'Thank you: the credits appear here as soon as the payment is confirmed.') : null,
      outcome === 'cancelled' ? h('p', { class: 'muted' }, 'The checkout was cancelled; nothing was charged.') : null,
      h(
        'p',
        { id: 'credit-balance', class: 'big' },
        `${billing.balance.available} credits available`,
        h('span', { class: 'muted small' }, ` (${billing.balance.reserved} reserved by running work)`),
      ),
      h(
        'div',
        { class: 'packs', id: 'credit-packs' },
        billing.packs.map((pack) => {
          const button = h(
            'button',
            { type: 'button', class: 'btn primary', dataset: { pack: pack.id } },
            `Buy ${pack.credits.toLocaleString()} credits — ${money(pack.amount, pack.currency)}`,
          );
          button.addEventListener('click', () => buy(pack, button));
          return button;
        }),
      ),
      error,
      billing.purchases.length
        ? h(
            'table',
            { class: 'table', id: 'purchases' },
            thead(['Purchase', 'Credits', 'Amount', 'Status', 'Date']),
            labelCells(
              h(
                'tbody',
                {},
                billing.purchases.map((p) =>
                  h(
                    'tr',
                    {},
                    h('td', {}, h('code', {}, p.id)),
                    h('td', {}, p.credits),
                    h('td', {}, money(p.amount, p.currency)),
                    h('td', {}, p.status),
                    h('td', {}, formatDate(p.createdAt)),
                  ),
                ),
              ),
            ),
          )
        : h('p', { class: 'muted small' }, 'No purchases yet.'),
    ]);
  } catch (err) {
    clear(el).append(h('h2', {}, 'Credits'), h('p', { class: 'error' }, err.message));
  }
}

async function renderMe(el) {
  try {
    const me = await call('getMe');
    const method =
      { local: 'local gateway (local mode, no sign-in)', session: 'browser session', api_key: 'API key' }[me.authMethod] ?? me.authMethod;
    append(clear(el), [
      h('h2', {}, 'Workspace'),
      h(
        'dl',
        { class: 'meta' },
        h('dt', {}, 'Workspace'),
        h('dd', { id: 'me-workspace' }, `${me.workspace.name} (${me.workspace.kind})`),
        h('dt', {}, 'Signed in as'),
        h('dd', {}, me.user ? `${me.user.name ?? ''} ${me.user.email ? `<${me.user.email}>` : ''}`.trim() : '—'),
        h('dt', {}, 'Authenticated by'),
        h('dd', { id: 'me-auth' }, method),
        h('dt', {}, 'Credits'),
        h('dd', {}, me.balance ? `${me.balance.available} available (${me.balance.reserved} reserved)` : 'not metered in local mode'),
      ),
      me.authMethod === 'session' ? h('button', { type: 'button', class: 'btn small', onclick: signOut }, 'Sign out') : null,
    ]);
    return me;
  } catch (err) {
    clear(el).append(h('h2', {}, 'Workspace'), h('p', { class: 'error' }, err.message));
  }
}

async function signOut() {
  try {
    await fetch('/v1/auth/sign-out', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
      credentials: 'same-origin',
    });
  } finally {
    location.hash = '#/';
    location.reload();
  }
}

/** A new key's secret, shown once with a copy button, until "I have stored it". */
function showSecret(box, secret = '', id, what) {
  box.replaceChildren(
    h(
      'div',
      { class: 'secret' },
      h('p', { class: 'warning' }, '⚠ Copy this key now. It is shown only once and cannot be recovered.'),
      h('div', { class: 'range-row' }, h('code', { id, class: 'wrap' }, secret || '(not returned)'), copyButton(secret, 'Copy', what)),
      h('button', { type: 'button', class: 'btn small', onclick: () => box.replaceChildren() }, 'I have stored it'),
    ),
  );
}

const thead = (titles) =>
  h(
    'thead',
    {},
    h(
      'tr',
      {},
      titles.map((t) => h('th', {}, t === ACTIONS ? h('span', { class: 'visually-hidden' }, t) : t)),
    ),
  );

/** The heading of a column of buttons: read by screen readers (a table header is never empty), not shown. */
const ACTIONS = 'Actions';

/** A key's status chip and, while it is active, its Revoke button: the last two cells of both key tables. */
const statusCells = (key, onRevoke) => [
  h(
    'td',
    { class: 'key-status' },
    key.revoked
      ? h('span', { class: 'chip status-cancelled' }, `revoked ${formatDate(key.revokedAt)}`)
      : h('span', { class: 'chip status-completed' }, 'active'),
  ),
  h(
    'td',
    { class: 'row-actions' },
    key.revoked ? '' : h('button', { type: 'button', class: 'btn small danger revoke', onclick: onRevoke }, 'Revoke'),
  ),
];

/**
 * A table body of a row per item that `list` (a list operation's call) resolves with (`cols` columns):
 * `empty` when there is none, the error when the request fails.
 */
async function fillRows(tbody, list, cols, empty, row) {
  try {
    const items = await list;
    clear(tbody).append(...(items.length ? items.map(row) : [h('tr', {}, h('td', { colspan: cols, class: 'muted' }, empty))]));
    labelCells(tbody);
  } catch (err) {
    clear(tbody).append(h('tr', {}, h('td', { colspan: cols, class: 'error' }, err.message)));
  }
}

const confirmDialog = (message, confirmLabel) =>
  new Promise((resolve) =>
    modal(
      { id: 'confirm-dialog', onclose: (e) => resolve(e.target.returnValue === 'ok') },
      h('p', {}, message),
      h(
        'div',
        { class: 'actions' },
        h('button', { value: 'cancel', class: 'btn', id: 'confirm-cancel' }, 'Cancel'),
        h('button', { value: 'ok', class: 'btn danger', id: 'confirm-ok' }, confirmLabel),
      ),
    ),
  );

/** Asks `question`; confirmed, `send()`s the revocation (a revoke operation's call), then reloads the table. */
async function revoke(send, question, label, reload) {
  if (!(await confirmDialog(question, 'Revoke'))) return;
  try {
    await send();
    toast(`Revoked "${label}"`);
  } catch (err) {
    toast(err.message);
  }
  await reload();
}

// URL signing keys sign public recipe URLs (docs/embedding.md): the Share panel (share-dialog.js) uses them.
async function renderSigningKeys(el) {
  const input = (id, attrs, name) => h('input', { id, 'aria-label': name, ...attrs });
  const label = input(
    'usk-label',
    { type: 'text', placeholder: 'Label, e.g. "blog og:images"', maxlength: 100, required: true },
    'Label of the new URL signing key',
  );
  const limit = input(
    'usk-limit',
    { type: 'number', min: 0, step: 1, placeholder: 'Monthly credit limit' },
    'Monthly credit limit (optional)',
  );
  const maxAge = input(
    'usk-max-age',
    { type: 'number', min: 60, max: 31536000, step: 1, placeholder: 'Max-age (s)' },
    'Max-age in seconds (optional)',
  );
  const secretBox = h('div', { id: 'usk-secret-box' });
  const error = h('p', { class: 'field-error general', role: 'alert' });
  const tbody = h('tbody', { id: 'usk-list' });
  const form = h(
    'form',
    { class: 'actions', id: 'usk-create' },
    label,
    limit,
    maxAge,
    h('button', { type: 'submit', class: 'btn primary' }, 'Create signing key'),
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.textContent = '';
    try {
      const body = { label: label.value.trim() };
      if (limit.value !== '') body.monthlyCreditLimit = Number(limit.value);
      if (maxAge.value !== '') body.maxAgeSeconds = Number(maxAge.value);
      const key = await call('createUrlSigningKey', { body });
      form.reset();
      showSecret(secretBox, key.secret, 'usk-secret', 'Signing secret copied');
      await loadSigningKeys(tbody);
    } catch (err) {
      error.textContent = err.message;
    }
  });
  clear(el).append(
    h('h2', {}, 'URL signing keys'),
    h(
      'p',
      { class: 'muted small' },
      'Sign public recipe URLs for ',
      h('code', {}, '<img>'),
      ', og:image, e-mail and CDNs: they render with no key. Share, in the playground and beside each preset, copies them.',
    ),
    form,
    error,
    secretBox,
    h(
      'table',
      { class: 'table' },
      thead(['Label', 'Id', 'Prefix', 'Monthly limit', 'Spent this month', 'Max-age', 'Created', 'Last used', 'Status', ACTIONS]),
      tbody,
    ),
  );
  await loadSigningKeys(tbody);
}

const loadSigningKeys = (tbody) =>
  fillRows(tbody, call('listUrlSigningKeys'), 10, 'No URL signing keys yet.', (key) =>
    h(
      'tr',
      { dataset: { usk: key.id, revoked: String(key.revoked) }, class: key.revoked ? 'revoked' : '' },
      h('td', { class: 'key-label' }, key.label),
      h('td', {}, h('code', {}, key.id)),
      h('td', {}, h('code', {}, `${key.prefix}…`)),
      h('td', {}, key.monthlyCreditLimit ?? 'none'),
      h('td', {}, key.creditsSpentThisMonth),
      h('td', {}, `${key.maxAgeSeconds} s`),
      h('td', {}, formatDate(key.createdAt)),
      h('td', {}, formatDate(key.lastUsedAt)),
      statusCells(key, () =>
        revoke(
          () => call('revokeUrlSigningKey', { path: { id: key.id } }),
          `Revoke the URL signing key "${key.label}" (${key.id})? Every URL it signed answers 401 at once; copies a CDN or browser holds stay until their max-age ends.`,
          key.label,
          () => loadSigningKeys(tbody),
        ),
      ),
    ),
  );

async function renderUsage(el) {
  try {
    const usage = await call('getUsage');
    const days = usage.byDay ?? [];
    clear(el).append(
      h('h2', {}, 'Usage'),
      h(
        'p',
        { class: 'muted small' },
        `${usage.from} – ${usage.to}: ${usage.totals.renders} renders, ${usage.totals.cacheHits} cache hits, ${usage.totals.credits} credits.`,
      ),
      days.length ? barChart(days) : h('p', { class: 'muted' }, 'No renders in this period.'),
    );
  } catch (err) {
    clear(el).append(h('h2', {}, 'Usage'), h('p', { class: 'error' }, err.message));
  }
}

const SVG = 'http://www.w3.org/2000/svg';
function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c);
  return el;
}

function barChart(days) {
  const W = 640,
    H = 160,
    pad = 20;
  const max = Math.max(1, ...days.map((d) => d.renders));
  const bw = Math.min(48, (W - pad * 2) / days.length);
  const svg = s('svg', { viewBox: `0 0 ${W} ${H + 20}`, class: 'chart', role: 'img', 'aria-label': 'Renders per day' });
  days.forEach((d, i) => {
    const bh = (d.renders / max) * (H - pad);
    const x = pad + i * bw;
    const title = s('title', {});
    title.textContent = `${d.date}: ${d.renders} renders, ${d.cacheHits} cache hits`;
    svg.append(s('rect', { x: x + 2, y: H - bh, width: Math.max(1, bw - 4), height: bh, class: 'bar' }, title));
    if (days.length <= 14 || i % Math.ceil(days.length / 10) === 0) {
      const label = s('text', { x: x + bw / 2, y: H + 14, 'text-anchor': 'middle', class: 'axis' });
      label.textContent = d.date.slice(5);
      svg.append(label);
    }
  });
  return svg;
}

async function renderPresets(el) {
  const tbody = h('tbody', { id: 'preset-list' });
  clear(el).append(
    h('h2', {}, 'Presets'),
    h('p', { class: 'muted small' }, 'Save a recipe from the playground with “Save as preset”.'),
    h('table', { class: 'table', id: 'preset-table' }, thead(['Name', 'Generator', 'Updated', ACTIONS]), tbody),
  );
  await loadPresets(tbody);
}

// The rows' pictures are observed afresh each time the rows are (earlier rows are gone).
const loadPresets = (tbody) => {
  nearView?.disconnect();
  return fillRows(tbody, call('listPresets'), 4, 'No presets yet.', (p) =>
    h(
      'tr',
      { dataset: { preset: p.id } },
      h('td', { class: 'preset-name' }, presetThumb(p), p.name),
      h('td', {}, p.recipe.slug),
      h('td', {}, formatDate(p.updatedAt)),
      h(
        'td',
        { class: 'row-actions one-line' },
        h('button', { type: 'button', class: 'btn small', onclick: () => load(p) }, 'Load'),
        h('button', { type: 'button', class: 'btn small', dataset: { share: p.id }, onclick: () => share(p) }, 'Share…'),
        h('button', { type: 'button', class: 'btn small danger', onclick: () => remove(p, tbody) }, 'Delete'),
      ),
    ),
  );
};

// A page of presets asks for their pictures a few at a time, and only for those near the viewport.
const picture = limiter(PICTURES_AT_ONCE);
const whenNear = new WeakMap(); // a picture's element → what to do once it comes near the viewport
let nearView;

/**
 * A preset's picture, at the size it is shown: its recipe as a still (webp where offered) with no more
 * pixels than its box shows (shownPicture: a 4096² preset in 48×27 CSS px at dpr 2 is 54×54, 1 credit).
 * In hosted mode its first render is charged like any render; after that it is a cache hit, free.
 * Nothing for a css-only generator.
 */
function presetThumb(preset) {
  // data-picture: "waiting" until near the viewport, then "asked".
  const img = h('img', {
    class: 'job-thumb preset-thumb',
    alt: '',
    width: 48,
    height: 27,
    dataset: { thumb: preset.id, picture: 'waiting' },
  });
  nearView ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries.filter((e) => e.isIntersecting)) {
        nearView.unobserve(entry.target);
        whenNear.get(entry.target)?.();
      }
    },
    { rootMargin: '200px' },
  );
  whenNear.set(img, () => {
    img.dataset.picture = 'asked';
    picture(() => drawPreset(preset, img)).catch(() => img.remove());
  });
  nearView.observe(img);
  return img;
}

async function drawPreset(preset, img) {
  if (!img.isConnected) return; // the page changed while it waited its turn
  const r = preset.recipe;
  const gen = (await generators()).find((g) => g.slug === r.slug);
  const format = gen && thumbFormat(gen);
  if (!gen || format === 'css') return img.remove();
  const box = { width: img.clientWidth || 48, height: img.clientHeight || 27 };
  const shown = shownPicture(
    { params: r.params ?? {}, seed: r.seed ?? 0, size: { ...(r.size ?? gen.defaultSize) }, format },
    box,
    devicePixelRatio,
  );
  const out = await render(r.slug, recipeBody(shown));
  preset.last = out; // its recipe and hash: the Share panel measures each format's size by them
  img.src = URL.createObjectURL(out.blob);
  img.onload = () => URL.revokeObjectURL(img.src);
}

/** A preset's recipe as the playground carries it. */
const recipeOf = ({ recipe: r }) => ({
  slug: r.slug,
  params: r.params ?? {},
  seed: r.seed ?? 0,
  size: { pixelRatio: 1, ...(r.size ?? { width: 640, height: 360 }) },
  format: r.format ?? 'png',
  quality: r.quality,
});

function load(preset) {
  saveRecipe(recipeOf(preset));
  location.hash = `#/playground/${encodeURIComponent(preset.recipe.slug)}`;
}

/** The Share panel of a preset: a signed URL of its recipe, as the playground's Share gives one. */
async function share(preset) {
  const gen = (await generators()).find((g) => g.slug === preset.recipe.slug);
  if (gen) openShare(gen, recipeOf(preset), preset.last);
}

async function remove(preset, tbody) {
  if (!(await confirmDialog(`Delete the preset "${preset.name}"?`, 'Delete'))) return;
  try {
    await call('deletePreset', { path: { id: preset.id } });
  } catch (err) {
    toast(err.message);
  }
  await loadPresets(tbody);
}

/** Hosted mode without a session: GitHub / Google sign-in (or a trial's development sign-in). */
export function showSignIn(view, config) {
  clear(view);
  const error = h('p', { class: 'field-error general', role: 'alert' });
  const names = { github: 'Continue with GitHub', google: 'Continue with Google', dev: 'Development sign-in (this machine only)' };
  const providers = config.providers?.length ? config.providers : [];
  view.append(
    h(
      'section',
      { class: 'panel signin', id: 'sign-in' },
      h('h1', {}, 'Sign in'),
      h('p', { class: 'muted' }, 'Sign in to render, export and manage API keys. A personal workspace is created on first sign-in.'),
      providers.length
        ? providers.map((p) =>
            h(
              'button',
              { type: 'button', class: `btn provider ${p.id}`, dataset: { provider: p.id }, onclick: () => signIn(p, error) },
              names[p.id] ?? `Continue with ${p.name}`,
            ),
          )
        : h('p', { class: 'error' }, 'No sign-in provider is configured on this service.'),
      error,
    ),
  );
}

async function signIn(provider, error) {
  error.textContent = '';
  try {
    const url = provider.signInUrl || '/v1/auth/sign-in/social';
    const res = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ provider: provider.id, callbackURL: `${location.origin}/` }),
    });
    const body = await res.json().catch(() => ({}));
    if (!res.ok || !body.url) throw new Error(body.detail || body.message || `Sign-in failed (${res.status})`);
    location.assign(body.url);
  } catch (err) {
    error.textContent = err.message;
  }
}
