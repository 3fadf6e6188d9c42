// The templates list's rules: the next page of GET /v1/templates and the pixels of a thumbnail.
// No DOM (unit-tested in Node: test/unit/web-new-template.test.ts).
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

/** The sides and pixel ratios a preview's `size` takes (openapi.yaml Size): 16–4096 px, 0.5–3. */
const SIDE = { min: 16, max: 4096 };
const RATIO = { min: 0.5, max: 3 };

/**
 * A thumbnail's preview `size`: the template fitted into the card's frame (`box`, CSS pixels) —
 * enlarged too, since a template draws sharp at any size and the frame would stretch a smaller
 * picture — with its aspect ratio to the nearest pixel, as the service requires of a template's
 * size; at least 16 px a side; at the screen's pixel ratio (`dpr`, within 0.5–3). So it asks for
 * exactly the pixels the frame shows.
 */
export function thumbSize(template, dpr, box = THUMB_BOX) {
  const { width: W, height: H } = template;
  let width = Math.floor(box.width);
  let height = Math.round((width * H) / W);
  if (height > box.height) {
    height = Math.floor(box.height);
    width = Math.round((height * W) / H);
  }
  if (width < SIDE.min) [width, height] = [SIDE.min, Math.round((SIDE.min * H) / W)];
  if (height < SIDE.min) [width, height] = [Math.round((SIDE.min * W) / H), SIDE.min];
  const pixelRatio = Math.min(RATIO.max, Math.max(RATIO.min, dpr || 1));
  return { width: Math.min(SIDE.max, width), height: Math.min(SIDE.max, height), pixelRatio };
}
