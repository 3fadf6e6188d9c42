// The template editor's box geometry (web/js/templates/geometry.js, plain JS run here in Node): the
// scale between shown and template pixels, move and resize with a minimum size, snapping to the
// canvas and to other boxes with its guides, clamping and the arrow keys' nudges.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  MIN_SIZE,
  boxOf,
  clampBox,
  moveBox,
  nudge,
  PREVIEW_MAX_PIXELS,
  previewSize,
  quickSize,
  resizeBox,
  roundBox,
  scaleOf,
  snapMove,
  snapResize,
  snapTargets,
  toShown,
  toTemplate,
} from '../../web/js/templates/geometry.js';

const size = { width: 1200, height: 630 };

test('scale: a 1200 px template shown 600 px wide is 0.5 shown px per template px, both ways', () => {
  const s = scaleOf(size, 600);
  assert.equal(s, 0.5);
  assert.deepEqual(toShown({ x: 100, y: 40, width: 300, height: 90 }, s), { x: 50, y: 20, width: 150, height: 45 });
  assert.equal(toTemplate(6, s), 12, '6 shown px reach 12 template px');
  assert.deepEqual(roundBox({ x: 10.4, y: 10.6, width: 0.2, height: 99.5 }), { x: 10, y: 11, width: 1, height: 100 });
  assert.deepEqual(boxOf({}, size), { x: 0, y: 0, width: 1200, height: 630 }, 'a layer without a box covers the canvas');
});

test('move: a box moves by the drag, and snaps its nearest edge or centre to the canvas and other boxes', () => {
  const start = { x: 100, y: 100, width: 200, height: 100 };
  assert.deepEqual(moveBox(start, 7, -3), { x: 107, y: 97, width: 200, height: 100 });
  const targets = snapTargets(size, [{ x: 700, y: 300, width: 100, height: 50 }]);
  assert.deepEqual(targets.x, [0, 600, 1200, 700, 750, 800]);
  // Edges 420, 520, 620 and 150, 200, 250: no target within 5.
  assert.deepEqual(snapMove({ ...start, x: 420, y: 150 }, targets, 5), { box: { ...start, x: 420, y: 150 }, guides: [] });
  // Centre at 597 (x 497): 3 px from the canvas centre → snaps there, guide at x = 600.
  const centred = snapMove({ ...start, x: 497, y: 150 }, targets, 5);
  assert.deepEqual(centred.box, { x: 500, y: 150, width: 200, height: 100 });
  assert.deepEqual(centred.guides, [{ axis: 'x', at: 600 }]);
  // Right edge at 698 → the other box's left edge (700); bottom at 298 → its top (300).
  const beside = snapMove({ ...start, x: 498 + 0, y: 198 }, targets, 5);
  assert.deepEqual(beside.box, { x: 500, y: 200, width: 200, height: 100 }, 'the nearest of the candidates wins');
  const edge = snapMove({ x: 496, y: 198, width: 202, height: 102 }, snapTargets(size, [{ x: 700, y: 300, width: 10, height: 10 }]), 5);
  assert.deepEqual(edge.box, { x: 498, y: 198, width: 202, height: 102 }, 'right edge 698 → 700, bottom 300 already on the target');
  assert.deepEqual(edge.guides, [
    { axis: 'x', at: 700 },
    { axis: 'y', at: 300 },
  ]);
  // The canvas's edges: x −3 snaps to 0.
  assert.equal(snapMove({ ...start, x: -3 }, targets, 5).box.x, 0);
});

test('resize: each handle moves its own edges, the opposite ones stay, never below the minimum', () => {
  const start = { x: 100, y: 100, width: 200, height: 100 };
  assert.deepEqual(resizeBox(start, 'se', 50, 20), { x: 100, y: 100, width: 250, height: 120 });
  assert.deepEqual(resizeBox(start, 'nw', 50, 20), { x: 150, y: 120, width: 150, height: 80 });
  assert.deepEqual(resizeBox(start, 'e', 10, 999), { x: 100, y: 100, width: 210, height: 100 }, 'a side handle ignores the other axis');
  assert.deepEqual(resizeBox(start, 'w', 500, 0), { x: 300 - MIN_SIZE, y: 100, width: MIN_SIZE, height: 100 }, 'the right edge stays');
  assert.deepEqual(resizeBox(start, 'n', 0, 500, 10), { x: 100, y: 190, width: 200, height: 10 });
});

test('resize snapping: only the moved edges snap, keeping the minimum', () => {
  const targets = snapTargets(size);
  const r = snapResize({ x: 100, y: 100, width: 497, height: 100 }, 'e', targets, 5);
  assert.deepEqual(r.box, { x: 100, y: 100, width: 500, height: 100 }, 'right edge 597 → centre 600');
  assert.deepEqual(r.guides, [{ axis: 'x', at: 600 }]);
  const left = snapResize({ x: 3, y: 100, width: 200, height: 100 }, 'nw', targets, 5);
  assert.deepEqual(left.box, { x: 0, y: 100, width: 203, height: 100 }, 'the left edge to 0, the right edge stays at 203');
  assert.deepEqual(snapResize({ x: 100, y: 100, width: 200, height: 100 }, 'se', targets, 5).guides, []);
});

test('clamp: at least 8 px of a box stay on the canvas; sizes stay within the API’s bounds', () => {
  assert.deepEqual(clampBox({ x: -500, y: 2000, width: 100, height: 100 }, size), { x: -92, y: 622, width: 100, height: 100 });
  assert.deepEqual(clampBox({ x: 10, y: 10, width: 99999, height: 0 }, size), { x: 10, y: 10, width: 16384, height: 1 });
  const inside = { x: 10, y: 20, width: 30, height: 40 };
  assert.deepEqual(clampBox(inside, size), inside);
});

test('nudge: the arrow keys move 1 template px, 10 with Shift; other keys do nothing', () => {
  const b = { x: 10, y: 10, width: 5, height: 5 };
  assert.deepEqual(nudge(b, 'ArrowRight'), { ...b, x: 11 });
  assert.deepEqual(nudge(b, 'ArrowUp', true), { ...b, y: 0 });
  assert.deepEqual(nudge(b, 'ArrowLeft', true), { ...b, x: 0 });
  assert.deepEqual(nudge(b, 'ArrowDown'), { ...b, y: 11 });
  assert.equal(nudge(b, 'Enter'), null);
});

test('preview pixels: the shown width at the screen’s ratio (0.5–3), the template’s aspect, within 1920×1080 device pixels; a quick picture first when the sharp one is big', () => {
  assert.deepEqual(previewSize(size, 600, 2), { width: 600, height: 315, pixelRatio: 2 });
  assert.deepEqual(
    previewSize(size, 700.4, 1.33),
    { width: 700, height: 368, pixelRatio: 1.3 },
    'the height to the nearest pixel; the ratio down to 0.05',
  );
  assert.deepEqual(previewSize(size, 800, 0.25), { width: 800, height: 420, pixelRatio: 0.5 }, 'at least 0.5');
  const big = previewSize({ width: 4096, height: 4096 }, 1400, 3);
  assert.equal(big.pixelRatio, 3);
  assert.ok(big.width * big.height * 9 <= PREVIEW_MAX_PIXELS, 'within the cap');
  assert.ok(big.width * big.height * 9 > 0.95 * PREVIEW_MAX_PIXELS, 'and not much under it');
  assert.equal(big.width, big.height);
  assert.deepEqual(previewSize({ width: 64, height: 64 }, 5, 1), { width: 16, height: 16, pixelRatio: 1 }, 'sides of at least 16');
  assert.deepEqual(quickSize(previewSize(size, 600, 2), size), { width: 360, height: 189, pixelRatio: 0.5 });
  assert.equal(quickSize(previewSize(size, 300, 1), size), null, 'a small picture comes sharp at once');
});
