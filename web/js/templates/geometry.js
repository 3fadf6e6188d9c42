// The template editor's box geometry, in template pixels (the template's own `size`): the scale
// between shown (CSS) and template pixels, moving and resizing a box from a drag, snapping to the
// canvas and to other layers with the guides to draw, clamping and arrow-key nudges. No DOM
// (unit-tested in Node: test/unit/web-template-geometry.test.ts).

/** Snapping reaches this many shown (CSS) pixels. */
export const SNAP_PX = 6;

/** The smallest box a resize leaves, in template pixels. */
export const MIN_SIZE = 4;

/** The API's bounds of a box's position and size (TemplateBox). */
export const BOX_LIMIT = 16384;

/** Shown pixels per template pixel: a template `size.width` wide shown `shownWidth` CSS pixels wide. */
export const scaleOf = (size, shownWidth) => (size.width > 0 ? shownWidth / size.width : 1);

/** A box in template pixels → in shown pixels (the overlay's CSS box). */
export const toShown = (box, scale) => ({ x: box.x * scale, y: box.y * scale, width: box.width * scale, height: box.height * scale });

/** A distance in shown pixels → in template pixels. */
export const toTemplate = (px, scale) => px / scale;

/** Whole template pixels: a dragged box keeps round numbers. */
export const roundBox = (box) => ({
  x: Math.round(box.x),
  y: Math.round(box.y),
  width: Math.max(1, Math.round(box.width)),
  height: Math.max(1, Math.round(box.height)),
});

/** A layer's box, or the whole canvas for a layer without one (fill, generator). */
export const boxOf = (layer, size) => layer.box ?? { x: 0, y: 0, width: size.width, height: size.height };

/**
 * The lines a box snaps to: the canvas's edges and centre, and every other box's edges and centre,
 * as `{ x: [...], y: [...] }` in template pixels.
 */
export function snapTargets(size, others = []) {
  const x = [0, size.width / 2, size.width];
  const y = [0, size.height / 2, size.height];
  for (const b of others) {
    x.push(b.x, b.x + b.width / 2, b.x + b.width);
    y.push(b.y, b.y + b.height / 2, b.y + b.height);
  }
  return { x: [...new Set(x)], y: [...new Set(y)] };
}

/** The nearest target to any of `points` within `reach`: { shift, at } (add `shift` to land on `at`), or null. */
function nearest(points, targets, reach) {
  let best = null;
  for (const p of points)
    for (const t of targets) {
      const d = t - p;
      if (Math.abs(d) <= reach && (!best || Math.abs(d) < Math.abs(best.shift))) best = { shift: d, at: t };
    }
  return best;
}

/**
 * A moved box snapped: its left edge, centre or right edge (and top, middle or bottom) moves onto the
 * nearest target within `reach` template pixels. Returns the box and the guides to draw
 * (`{ axis: 'x' | 'y', at }`: a vertical line at x = at, a horizontal one at y = at).
 */
export function snapMove(box, targets, reach) {
  const guides = [];
  const out = { ...box };
  const sx = nearest([box.x, box.x + box.width / 2, box.x + box.width], targets.x, reach);
  if (sx) {
    out.x = box.x + sx.shift;
    guides.push({ axis: 'x', at: sx.at });
  }
  const sy = nearest([box.y, box.y + box.height / 2, box.y + box.height], targets.y, reach);
  if (sy) {
    out.y = box.y + sy.shift;
    guides.push({ axis: 'y', at: sy.at });
  }
  return { box: out, guides };
}

/** The box `start` moved by (dx, dy) template pixels. */
export const moveBox = (start, dx, dy) => ({ ...start, x: start.x + dx, y: start.y + dy });

/** Which edges a handle moves: 'n', 's', 'e', 'w' and their corners ('nw', 'se', …). */
const edges = (handle) => ({ n: handle.includes('n'), s: handle.includes('s'), e: handle.includes('e'), w: handle.includes('w') });

/**
 * The box `start` resized by dragging `handle` by (dx, dy) template pixels: the opposite edges stay,
 * and neither side goes below `min`.
 */
export function resizeBox(start, handle, dx, dy, min = MIN_SIZE) {
  const e = edges(handle);
  let { x, y, width, height } = start;
  const right = x + width;
  const bottom = y + height;
  if (e.e) width = Math.max(min, width + dx);
  if (e.s) height = Math.max(min, height + dy);
  if (e.w) {
    width = Math.max(min, width - dx);
    x = right - width;
  }
  if (e.n) {
    height = Math.max(min, height - dy);
    y = bottom - height;
  }
  return { x, y, width, height };
}

/**
 * A resized box snapped: only the edges its handle moves snap (to the nearest target within `reach`),
 * keeping `min`. Returns the box and its guides.
 */
export function snapResize(box, handle, targets, reach, min = MIN_SIZE) {
  const e = edges(handle);
  const guides = [];
  let { x, y, width, height } = box;
  const snapEdge = (value, list, axis) => {
    const s = nearest([value], list, reach);
    if (s) guides.push({ axis, at: s.at });
    return s ? s.at : value;
  };
  if (e.e) width = Math.max(min, snapEdge(x + width, targets.x, 'x') - x);
  if (e.w) {
    const right = x + width;
    x = Math.min(right - min, snapEdge(x, targets.x, 'x'));
    width = right - x;
  }
  if (e.s) height = Math.max(min, snapEdge(y + height, targets.y, 'y') - y);
  if (e.n) {
    const bottom = y + height;
    y = Math.min(bottom - min, snapEdge(y, targets.y, 'y'));
    height = bottom - y;
  }
  return { box: { x, y, width, height }, guides };
}

/**
 * A box kept where it can still be grabbed: at least `keep` template pixels of it stay on the canvas
 * on each axis (a box may bleed off an edge, as a design's image does), and it stays within the API's
 * bounds.
 */
export function clampBox(box, size, keep = 8) {
  const width = Math.min(BOX_LIMIT, Math.max(1, box.width));
  const height = Math.min(BOX_LIMIT, Math.max(1, box.height));
  const kx = Math.min(keep, width);
  const ky = Math.min(keep, height);
  return {
    x: Math.min(size.width - kx, Math.max(kx - width, box.x)),
    y: Math.min(size.height - ky, Math.max(ky - height, box.y)),
    width,
    height,
  };
}

/** The arrow keys' moves: 1 template pixel, 10 with Shift. */
const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** The box an arrow key moves (`key` as KeyboardEvent.key names it), or null for any other key. */
export function nudge(box, key, shift = false) {
  const d = ARROWS[key];
  if (!d) return null;
  const step = shift ? 10 : 1;
  return moveBox(box, d[0] * step, d[1] * step);
}

/** The preview's most device pixels (POST /v1/templates/preview: 1920×1080). */
export const PREVIEW_MAX_PIXELS = 2_073_600;

/**
 * The `size` a preview shown `cssWidth` CSS pixels wide asks for on a screen of `dpr`: that width and
 * the height of the template's aspect (as the service requires, to the nearest pixel), at the
 * screen's pixel ratio rounded down to 0.05 within the API's 0.5–3, with fewer pixels when it would
 * pass the preview's cap. Sides stay within 16–4096.
 */
export function previewSize(size, cssWidth, dpr) {
  const aspect = size.height / size.width;
  const pixelRatio = Math.min(3, Math.max(0.5, Math.floor((dpr || 1) * 20 + 1e-9) / 20));
  const heightOf = (w) => Math.max(16, Math.round(w * aspect));
  let width = Math.max(16, Math.min(4096, Math.round(cssWidth), Math.floor(4096 / aspect)));
  while (width > 16 && width * heightOf(width) * pixelRatio ** 2 > PREVIEW_MAX_PIXELS) width = Math.floor(width * 0.99);
  return { width, height: Math.min(4096, heightOf(width)), pixelRatio };
}

/**
 * The quick first picture before a sharp one of `shown` (a previewSize): the same picture at about
 * 0.3 of the shown width in device pixels (pixel ratio 0.5, 0.6 of the width); null when the sharp
 * one is small anyway (under 250,000 device pixels).
 */
export function quickSize(shown, size) {
  if (shown.width * shown.height * shown.pixelRatio ** 2 < 250_000) return null;
  const width = Math.max(16, Math.round(shown.width * 0.6));
  return { width, height: Math.max(16, Math.round((width * size.height) / size.width)), pixelRatio: 0.5 };
}
