// The web app's sizes and pixel ratios (web/js/sizing.js, plain JS run here in Node): the size
// presets and the ratio lock, the screen's pixel ratio of thumbnails, and the pixels a preview asks
// for — the export's picture with only the pixels the screen shows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generator } from '../support/web-generators.ts';
import {
  ANIMATION_PREVIEW_WIDTH,
  SIZE_PRESETS,
  fitSize,
  lockedSide,
  presetValue,
  previewRecipe,
  quickRecipe,
  screenRatio,
  shownRatio,
} from '../../web/js/sizing.js';

test('size presets: a preset names its size; any other size is Custom', () => {
  assert.deepEqual(
    SIZE_PRESETS.map(([w, h]) => presetValue(w, h)),
    ['1200x630', '1080x1080', '1920x1080', '256x256'],
  );
  assert.equal(presetValue('1200', '630'), '1200x630', 'as the inputs hold them');
  assert.equal(presetValue(600, 315), '');
  assert.equal(presetValue(630, 1200), '');
});

test('the ratio lock: the other side follows, rounded, never below 1', () => {
  const ratio = 1200 / 630;
  assert.equal(lockedSide('width', 600, ratio), 315);
  assert.equal(lockedSide('height', 315, ratio), 600);
  assert.equal(lockedSide('width', 1080, 1), 1080);
  assert.equal(lockedSide('width', 1, 16 / 9), 1);
});

test('thumbnails at the screen pixel ratio, in the service’s steps of 0.25 within 1–3', () => {
  assert.equal(screenRatio(2), 2);
  assert.equal(screenRatio(1), 1);
  assert.equal(screenRatio(undefined), 1);
  assert.equal(screenRatio(1.1), 1);
  assert.equal(screenRatio(1.3), 1.25);
  assert.equal(screenRatio(0.5), 1);
  assert.equal(screenRatio(4), 3);
});

test('a recipe is shown at its own size, scaled down to fit (never up)', () => {
  assert.deepEqual(fitSize({ width: 640, height: 360 }, { width: 1000, height: 800 }), { width: 640, height: 360 });
  assert.deepEqual(fitSize({ width: 1200, height: 630 }, { width: 600, height: 800 }), { width: 600, height: 315 });
  assert.deepEqual(fitSize({ width: 1200, height: 630 }, { width: 1000, height: 315 }), { width: 600, height: 315 });
  assert.deepEqual(fitSize({ width: 4096, height: 16 }, { width: 100, height: 100 }), { width: 100, height: 1 });
});

test('the pixels asked for never exceed the pixels on screen, nor fall a step (0.05) below them; 0.5–3', () => {
  for (const dpr of [1, 1.5, 2, 3])
    for (let cssWidth = 100; cssWidth <= 1200; cssWidth += 7) {
      const pr = shownRatio(1200, cssWidth, dpr);
      if (pr === 0.5 || pr === 3) continue;
      assert.ok(1200 * pr <= cssWidth * dpr + 0.5, `${cssWidth} CSS px at ${dpr}x: ${pr}`);
      assert.ok(1200 * (pr + 0.05) > cssWidth * dpr, `${cssWidth} CSS px at ${dpr}x: ${pr} is sharp enough`);
    }
  assert.equal(shownRatio(1200, 780, 2), 1.3, 'mesh-gradient at 1200×630 in a 1280 px window on a 2x screen: 1560×819 pixels');
  assert.equal(shownRatio(640, 640, 2), 2);
  assert.equal(shownRatio(1200, 100, 1), 0.5, 'never below 0.5: the browser scales further');
  assert.equal(shownRatio(100, 400, 2), 3, 'never above 3');
  assert.ok(shownRatio(1200, 600, 2) < shownRatio(1200, 780, 2), 'narrower, fewer pixels');
});

test('light previews: a raster still previews as webp at the pixel ratio shown, with its own size and params', () => {
  const voronoi = generator('voronoi');
  const recipe = { slug: 'voronoi', params: { cells: 30 }, seed: 1, size: { width: 640, height: 360, pixelRatio: 1 }, format: 'png' };
  const shown = previewRecipe(voronoi, recipe, { width: 700, height: 560 }, 2);
  assert.deepEqual(shown, { ...recipe, format: 'webp', size: { width: 640, height: 360, pixelRatio: 2 } });
  assert.equal(recipe.format, 'png', 'Download keeps the chosen format and pixel ratio');
  assert.equal(previewRecipe(voronoi, recipe, { width: 700, height: 560 }, 1).size.pixelRatio, 1);
  const big = { ...recipe, size: { width: 1200, height: 630, pixelRatio: 1 } };
  const wide = previewRecipe(generator('mesh-gradient'), big, { width: 780, height: 560 }, 2);
  assert.deepEqual([wide.format, wide.size.width, wide.size.height, wide.size.pixelRatio], ['webp', 1200, 630, 1.3]);
  // No webp offered: the chosen still, at the pixels shown.
  assert.deepEqual(previewRecipe({ formats: ['png', 'svg'] }, recipe, { width: 320, height: 180 }, 1).size, {
    width: 640,
    height: 360,
    pixelRatio: 0.5,
  });
  // svg and css preview as themselves.
  const svg = { ...recipe, format: 'svg' };
  assert.equal(previewRecipe(generator('waves'), svg, { width: 100, height: 100 }, 2), svg);
});

test('an animation previews as a small mp4 (480 px on its longer side, even sides, pixel ratio 1) with the same params', () => {
  const plasma = generator('plasma');
  const gif = {
    slug: 'plasma',
    params: { duration: 1, fps: 10 },
    seed: 5,
    size: { width: 640, height: 360, pixelRatio: 1 },
    format: 'gif',
  };
  const shown = previewRecipe(plasma, gif, { width: 1000, height: 600 }, 2);
  assert.deepEqual(shown, { ...gif, format: 'mp4', size: { width: ANIMATION_PREVIEW_WIDTH, height: 270, pixelRatio: 1 } });
  assert.equal(shown.params, gif.params, 'the same params: the same motion and derived seed');
  assert.deepEqual(previewRecipe(plasma, { ...gif, size: { width: 333, height: 1000, pixelRatio: 2 } }, { width: 1, height: 1 }, 1).size, {
    width: 160,
    height: 480,
    pixelRatio: 1,
  });
  assert.deepEqual(previewRecipe(plasma, { ...gif, size: { width: 64, height: 48, pixelRatio: 1 } }, { width: 1, height: 1 }, 1).size, {
    width: 64,
    height: 48,
    pixelRatio: 1,
  });
});

test('a preview of many pixels first comes quick and soft: the same recipe at pixel ratio 0.5', () => {
  const still = { slug: 'blob', params: {}, seed: 1, size: { width: 1200, height: 900, pixelRatio: 1 }, format: 'webp' };
  assert.deepEqual(quickRecipe(still), { ...still, size: { width: 1200, height: 900, pixelRatio: 0.5 } });
  assert.equal(quickRecipe({ ...still, size: { width: 640, height: 360, pixelRatio: 2 } }), null, 'under a million device pixels');
  assert.equal(quickRecipe({ ...still, size: { width: 4000, height: 3000, pixelRatio: 0.75 } }), null, 'already soft');
  assert.equal(quickRecipe({ ...still, format: 'mp4' }), null);
});
