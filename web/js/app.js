// Hash router and start-up: decides between the app and the sign-in page (hosted mode).
import { call } from './api.js';
import { h, clear } from './dom.js';
import { showGallery } from './gallery.js';
import { parseRoute, queryOf } from './route.js';
import { state } from './state.js';

const view = document.getElementById('view');
let authConfig = null;
/** The export page's leave hook, once its chunk is loaded (it follows a running job while shown). */
let leaveExport = () => {};

/**
 * A page in its own chunk, loaded when first opened: the first load carries the gallery alone.
 * `current()` is false once a newer navigation started, so a page that arrives late never paints
 * over the one asked for since; a page that awaits data before it paints asks it again then.
 */
const lazy = (load) => async (v, arg, current) => {
  const show = await load(arg);
  if (current()) await show(v, arg, current);
};

// The skip link (the first Tab stop) moves focus to the view without touching the hash, which is the route.
document.querySelector('.skip-link')?.addEventListener('click', (e) => {
  e.preventDefault();
  view.focus();
});

const routes = {
  '': showGallery,
  gallery: showGallery,
  playground: lazy(() =>
    import('./playground.js').then((m) => (v, arg, current) => m.showPlayground(v, arg ? decodeURIComponent(arg) : undefined, current)),
  ),
  sweep: lazy(() => import('./sweep.js').then((m) => (v, arg, current) => m.showSweep(v, decodeURIComponent(arg ?? ''), current))),
  export: lazy(() =>
    import('./export.js').then((m) => {
      leaveExport = m.leaveExport;
      return m.showExport;
    }),
  ),
  account: lazy(() => import('./account.js').then((m) => m.showAccount)),
  templates: lazy((arg) =>
    arg
      ? import('./templates/editor.js').then(
          (m) => (v, id, current) => m.showTemplateEditor(v, decodeURIComponent(id), queryOf(location.hash), current),
        )
      : import('./templates/list.js').then((m) => m.showTemplateList),
  ),
};

let navSeq = 0;
async function navigate() {
  const mine = ++navSeq;
  // The page on screen stays until the next one is built: marked busy meanwhile, so neither a
  // screen reader nor a script reads the old page as the new one; data-route is the address the
  // page on screen was built for (the playground then rewrites the address as its recipe changes).
  view.setAttribute('aria-busy', 'true');
  const route = location.hash;
  try {
    await show(mine);
  } finally {
    if (mine === navSeq) {
      view.dataset.route = route;
      view.removeAttribute('aria-busy');
    }
    // Every page the router started says when it is done, one left behind by a newer navigation too
    // (it must then draw nothing): what a script or a test can wait on.
    document.dispatchEvent(new CustomEvent('route-settled', { detail: { route } }));
  }
}

async function show(mine) {
  leaveExport();
  // A route may carry a query (#/account?checkout=success, where the checkout returns to).
  const { name, arg } = parseRoute(location.hash);
  for (const a of document.querySelectorAll('#nav a[data-route]')) {
    a.classList.toggle('active', a.dataset.route === (name || 'gallery'));
  }
  if (authConfig?.mode === 'hosted' && !authConfig.session) {
    const { showSignIn } = await import('./account.js');
    if (mine === navSeq) showSignIn(view, authConfig);
    return;
  }
  const page = routes[name];
  try {
    if (!page) {
      clear(view).append(h('h1', {}, 'Not found'), h('p', {}, h('a', { href: '#/' }, 'Back to the gallery')));
      return;
    }
    await page(view, arg, () => mine === navSeq);
  } catch (err) {
    if (mine !== navSeq) return;
    if (err.status === 401) {
      clear(view).append(h('h1', {}, 'Not signed in'), h('p', { class: 'error' }, err.message));
      return;
    }
    clear(view).append(h('h1', {}, 'Something went wrong'), h('p', { class: 'error' }, err.message));
  }
}

async function start() {
  try {
    authConfig = await call('getAuthConfig');
    state.hosted = authConfig.mode === 'hosted';
    const badge = document.getElementById('mode-badge');
    badge.textContent =
      authConfig.mode === 'local'
        ? 'local mode'
        : authConfig.session
          ? (authConfig.session.user.email ?? authConfig.session.user.name ?? 'signed in')
          : 'hosted';
  } catch {
    authConfig = null;
  }
  window.addEventListener('hashchange', navigate);
  await navigate();
  document.documentElement.dataset.ready = 'true';
}

start();
