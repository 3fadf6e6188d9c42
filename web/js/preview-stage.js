// The stage a preview is drawn on (the playground's, the template editor's): a rendered file shown
// at the size it is laid out, a css file as its source beside a live swatch, and the CSS box a
// picture fits in (what sizing.js previewRecipe asks the pixels for).
import { h, clear, BlobSlot } from './dom.js';

/** The CSS box the preview fits in: the stage's width, and the window's height less the chrome around it (on a phone, a sticky 40 %). */
export function previewBox(stage) {
  const phone = matchMedia('(max-width: 860px)').matches;
  return { width: stage.clientWidth || 640, height: Math.max(200, phone ? window.innerHeight * 0.4 : window.innerHeight - 240) };
}

/** The stage's element (`id` preview) and `show(out, cssSize)`, which draws a render on it; a picture at `cssSize` (the recipe's size fitted to the stage). */
export function previewStage() {
  const slot = new BlobSlot();
  const stage = h('div', { class: 'stage loading', id: 'preview' });
  async function show(out, cssSize) {
    clear(stage);
    const type = out.contentType.split(';')[0].trim();
    if (type === 'text/css') {
      const css = await out.blob.text();
      stage.append(h('div', { class: 'css-split' }, cssSwatch(css), h('pre', { class: 'css-output', id: 'preview-css' }, css)));
      slot.revoke();
      return;
    }
    const url = slot.set(out.blob);
    if (type === 'video/mp4') {
      stage.append(
        h('video', { src: url, id: 'preview-media', autoplay: true, loop: true, muted: true, controls: true, playsInline: true }),
      );
    } else {
      const img = h('img', { src: url, id: 'preview-media', alt: 'Rendered preview', width: cssSize.width, height: cssSize.height });
      stage.append(img);
      await img.decode().catch(() => {});
    }
  }
  return { stage, show };
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
