// Hash router and start-up: decides between the app and the sign-in page (hosted mode).
import { json } from './api.js';
import { h, clear } from './dom.js';
import { showGallery } from './gallery.js';
import { showPlayground } from './playground.js';
import { showSweep } from './sweep.js';
import { showExport, leaveExport } from './export.js';
import { showAccount, showSignIn } from './account.js';
import { parseRoute, queryOf } from './route.js';
import { state } from './state.js';

const view = document.getElementById('view');
let authConfig = null;

const routes = {
  '': showGallery,
  gallery: showGallery,
  playground: (v, arg) => showPlayground(v, arg ? decodeURIComponent(arg) : undefined),
  sweep: (v, arg) => showSweep(v, decodeURIComponent(arg ?? '')),
  export: showExport,
  account: showAccount,
  // The templates area is its own chunk, loaded when first opened; `current()` is false once a newer
  // navigation started, so a page that arrives late never paints over the one asked for since.
  templates: async (v, arg, current) => {
    if (arg) {
      const { showTemplateEditor } = await import('./templates/editor.js');
      if (current()) await showTemplateEditor(v, decodeURIComponent(arg), queryOf(location.hash));
    } else {
      const { showTemplateList } = await import('./templates/list.js');
      if (current()) await showTemplateList(v);
    }
  },
};

let navSeq = 0;
async function navigate() {
  const mine = ++navSeq;
  leaveExport();
  // A route may carry a query (#/account?checkout=success, where the checkout returns to).
  const { name, arg } = parseRoute(location.hash);
  for (const a of document.querySelectorAll('#nav a[data-route]')) {
    a.classList.toggle('active', a.dataset.route === (name || 'gallery'));
  }
  if (authConfig?.mode === 'hosted' && !authConfig.session) {
    showSignIn(view, authConfig);
    return;
  }
  const show = routes[name];
  try {
    if (!show) {
      clear(view).append(h('h1', {}, 'Not found'), h('p', {}, h('a', { href: '#/' }, 'Back to the gallery')));
      return;
    }
    await show(view, arg, () => mine === navSeq);
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
    authConfig = await json('/v1/auth-config');
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
