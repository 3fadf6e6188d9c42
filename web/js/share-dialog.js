// The Share panel (docs/embedding.md, "In the web app"): a public URL of a recipe, signed with one of
// the workspace's URL signing keys by POST /v1/url-signing-keys/{id}/sign (the secret never reaches
// the browser), expiring when chosen, in a format shown with its file's size, and Copy for the URL, an
// <img> tag and og:image tags. The playground opens it for the recipe Download renders, the Account
// page for a preset; its rules are share.js's.
import { call } from './api.js';
import { h, copyText, modal } from './dom.js';
import { kindOf } from './formats.js';
import { formatBytes, formatDate } from './formatting.js';
import { recipeUrl } from './snippets.js';
import { DEFAULT_EXPIRY, EXPIRIES, imgTag, ogTags, shareFormat, shareFormats, signBody } from './share.js';

const SIGNING_KEY = 'render-service.signing-key';

/**
 * Opens the panel for `recipe` of generator `gen`. `last`, a render of the recipe ({ recipe, hash } as
 * its headers name them; maybe in another format and size), lets each format's size be measured: a
 * HEAD of its recipe URL, which renders it like any recipe URL and caches it (animations are not).
 */
export async function openShare(gen, recipe, last) {
  const offered = shareFormats(gen, recipe.format);
  // The key chosen last time; storage may be unavailable (a private window, a policy): then none.
  const stored = (value) => {
    try {
      return value === undefined ? localStorage.getItem(SIGNING_KEY) : localStorage.setItem(SIGNING_KEY, value);
    } catch {
      return null;
    }
  };
  const key = h('select', { id: 'share-key', onchange: () => stored(key.value) });
  const expiry = h(
    'select',
    { id: 'share-expiry' },
    EXPIRIES.map(([label, s]) => h('option', { value: s, selected: s === DEFAULT_EXPIRY }, label)),
  );
  const format = h(
    'select',
    { id: 'share-format' },
    offered.map((f) => h('option', { value: f, selected: f === recipe.format }, f)),
  );
  const status = h('p', { class: 'small', id: 'share-status', role: 'status' });
  const keyRow = h('p', {}, 'Loading signing keys…');
  const copy = (id, label, what, text) =>
    h(
      'button',
      {
        type: 'button',
        class: 'btn small',
        id,
        disabled: true,
        onclick: async () => {
          try {
            const signed = await call('signRenderUrl', {
              path: { id: key.value },
              body: signBody(recipe, format.value, +expiry.value),
            });
            status.textContent = `${what}: ${signed.expiresAt ? `expires ${formatDate(signed.expiresAt)}` : 'never expires'}.`;
            await copyText(text(signed.url, { ...recipe, format: format.value }), what);
          } catch (err) {
            status.textContent = `Could not sign: ${err.status ?? ''} ${err.message}`;
          }
        },
      },
      label,
    );
  const buttons = [
    copy('share-url', 'Copy URL', 'URL copied', (url) => url),
    copy('share-img', 'Copy <img> tag', '<img> tag copied', (url, r) => imgTag(url, r, gen.name)),
    copy('share-og', 'Copy og:image tags', 'og:image tags copied', ogTags),
  ];
  const { width, height, pixelRatio = 1 } = recipe.size;
  const dialog = modal(
    { class: 'dialog share', id: 'share-dialog', 'aria-labelledby': 'share-title' },
    h('h2', { id: 'share-title' }, `Share ${gen.name}`),
    h(
      'p',
      { class: 'muted small' },
      `A public URL of ${width}×${height} @${pixelRatio}x: it renders with no key, for <img>, og:image, e-mail and CDNs.`,
    ),
    keyRow,
    h('label', {}, 'Expires ', expiry),
    h('label', {}, 'Format ', format),
    h('div', { class: 'actions' }, buttons, h('button', { class: 'btn small', value: '' }, 'Close')),
    status,
  );
  let keys;
  try {
    keys = (await call('listUrlSigningKeys')).filter((k) => !k.revoked);
    const saved = stored();
    key.append(
      ...keys.map((k) => h('option', { value: k.id, selected: k.id === saved }, `${k.label} (${k.id}, max-age ${k.maxAgeSeconds} s)`)),
    );
  } catch (err) {
    return keyRow.replaceChildren(h('span', { class: 'error' }, err.message));
  }
  keyRow.replaceChildren(
    keys.length
      ? h('label', {}, 'Signing key ', key)
      : h(
          'span',
          { class: 'muted small', id: 'no-signing-key' },
          'No URL signing key: ',
          h('a', { href: '#/account', onclick: () => dialog.close() }, 'create one on the Account page'),
          '.',
        ),
  );
  if (!keys.length) return;
  for (const b of buttons) b.disabled = false;
  if (!last) return;
  const sizes = {};
  await Promise.all(
    offered
      .filter((f) => kindOf(f) !== 'motion')
      .map(
        async (f) =>
          (sizes[f] = +(await fetch(recipeUrl('', last, { ...recipe, format: f }), { method: 'HEAD' }).then(
            (r) => r.ok && r.headers.get('content-length'),
            () => 0,
          ))),
      ),
  );
  const first = shareFormat(sizes, recipe.format);
  format.replaceChildren(
    ...offered.map((f) => h('option', { value: f, selected: f === first }, sizes[f] ? `${f} · ${formatBytes(sizes[f])}` : f)),
  );
}
