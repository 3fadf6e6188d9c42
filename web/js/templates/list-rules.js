// The templates list's rules: the next page of GET /v1/templates and the pixels of a thumbnail.
// No DOM (unit-tested in Node: test/unit/web-new-template.test.ts).
import { fitSize } from '../sizing.js';

/** The thumbnail box of a card, in CSS pixels: a template is fitted into it, never enlarged. */
export const THUMB_BOX = { width: 320, height: 180 };

/**
 * The `rel="next"` target of an RFC 8288 `Link` header, as a same-origin path and query (the service
 * may name its public URL, another host than the page's); null when there is none.
 */
export function nextLink(header, base = 'http://localhost/') {
  for (const [, target, params] of String(header ?? '').matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(params);
    if (rel && (rel[1] ?? rel[2]).toLowerCase().split(/\s+/).includes('next')) {
      const url = new URL(target, base);
      return url.pathname + url.search;
    }
  }
  return null;
}

/**
 * A thumbnail's preview: the template's own size (so the aspect is exact) at the pixel ratio of the
 * pixels the card shows — the fitted CSS width × `dpr` ÷ the template's width, rounded down to 0.01
 * and kept within the preview's 0.1–4 — and the CSS size it is shown at.
 */
export function thumbRequest(size, dpr, box = THUMB_BOX) {
  const shown = fitSize(size, box);
  const ratio = Math.floor(((shown.width * (dpr || 1)) / size.width) * 100 + 1e-9) / 100;
  return { shown, size: { width: size.width, height: size.height }, pixelRatio: Math.min(4, Math.max(0.1, ratio)) };
}
