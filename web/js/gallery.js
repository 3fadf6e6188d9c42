import { generators, render } from './api.js';
import { h, clear } from './dom.js';
import { thumbFormat } from './formats.js';
import { screenRatio } from './sizing.js';

// Thumbnails at the screen's pixel ratio (sharp on a retina screen), as webp when offered (lighter).
const THUMB = { width: 320, height: 180 };
const urls = [];

export async function showGallery(view) {
  for (const u of urls.splice(0)) URL.revokeObjectURL(u);
  clear(view);
  view.append(h('h1', {}, 'Gallery'), h('p', { class: 'muted' }, 'Every generator, rendered by this service with its default params.'));
  const grid = h('div', { class: 'grid', id: 'gallery' });
  view.append(grid);
  const list = await generators();
  for (const gen of list) grid.append(card(gen));
}

function card(gen) {
  const format = thumbFormat(gen);
  const img = h('img', { class: 'thumb', alt: `${gen.name} thumbnail`, width: THUMB.width, height: THUMB.height });
  const frame = h('div', { class: 'thumb-frame loading' }, img);
  const href = `#/playground/${encodeURIComponent(gen.slug)}`;
  const el = h(
    'article',
    { class: 'card', dataset: { slug: gen.slug } },
    // The picture opens the playground too, for the pointer; the keyboard and screen readers have the
    // named link below (one stop per card, not two links to the same place).
    h('a', { class: 'thumb-link', href, tabindex: -1, 'aria-hidden': 'true' }, frame),
    h(
      'div',
      { class: 'card-body' },
      h('h2', {}, gen.name, ' ', h('span', { class: 'version' }, `v${gen.version}`)),
      gen.description ? h('p', { class: 'muted small' }, gen.description) : null,
      h(
        'p',
        { class: 'formats' },
        gen.formats.map((f) => h('span', { class: 'chip' }, f)),
        gen.animated ? h('span', { class: 'chip accent' }, 'animated') : null,
      ),
      h('a', { class: 'btn', href }, `Open ${gen.name} in the playground`),
    ),
  );
  render(gen.slug, { size: { ...THUMB, pixelRatio: screenRatio(devicePixelRatio) }, format })
    .then((out) => {
      if (format === 'css') {
        frame.replaceChildren(h('pre', { class: 'css-thumb' }, '')); // css has no raster still
        out.blob.text().then((t) => (frame.firstChild.textContent = t));
      } else {
        const url = URL.createObjectURL(out.blob);
        urls.push(url);
        img.src = url;
      }
      frame.classList.remove('loading');
    })
    .catch((err) => {
      frame.classList.remove('loading');
      frame.classList.add('failed');
      frame.replaceChildren(h('p', { class: 'error' }, err.message));
    });
  return el;
}
