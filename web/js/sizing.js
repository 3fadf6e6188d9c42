// Sizes and pixel ratios: the size presets and the ratio lock, and the pixels a preview asks for. No
// DOM: the screen's devicePixelRatio and the preview's CSS box come in as arguments (unit-tested in
// Node: test/unit/web-sizing.test.ts). The service's limits come from limits.js.
import { defaultQuality, kindOf } from './formats.js';
import { clampRatio, limits } from './limits.js';

/** The playground's size presets: [width, height, what for]. */
export const SIZE_PRESETS = [
  [1200, 630, 'social card'],
  [1080, 1080, 'square'],
  [1920, 1080, 'HD'],
  [256, 256, 'icon'],
];

/** The preset a size is (its option's value, "1200x630"), or '' (Custom). */
export function presetValue(width, height) {
  const value = `${width}x${height}`;
  return SIZE_PRESETS.some(([w, h]) => `${w}x${h}` === value) ? value : '';
}

/** With the ratio locked, the other side for a side set to `value`: a width gives the height, a height the width. */
export function lockedSide(side, value, ratio) {
  return Math.max(1, Math.round(side === 'width' ? value / ratio : value * ratio));
}

/** A screen's pixel ratio in steps of 0.25, from 1 to the service's most: gallery and history thumbnails are rendered at it. */
export const screenRatio = (dpr) => Math.min(limits.maxPixelRatio, Math.max(1, Math.round((dpr || 1) * 4) / 4));

/** The CSS size a recipe is shown at in a box: its own size, scaled down to fit (never up). */
export function fitSize({ width, height }, box) {
  const scale = Math.min(1, box.width / width, box.height / height);
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) };
}

/**
 * The pixel ratio whose pixels are the ones a screen (`dpr`) shows for a recipe `width` wide drawn
 * `cssWidth` CSS pixels wide: rounded down to 0.05 (a few steps, so a resize or a variation hits the
 * cache), within the service's range (below its least the browser scales the picture down further).
 */
export function shownRatio(width, cssWidth, dpr) {
  return clampRatio(Math.floor(((cssWidth * (dpr || 1)) / width) * 20 + 1e-9) / 20);
}

/** Widest side of an animation's preview: a small mp4 renders in about a second at the defaults. */
export const ANIMATION_PREVIEW_WIDTH = 480;

/**
 * The live preview is light: webp (when offered) instead of png, with the recipe's
 * own size and params but only the pixels the screen shows for it (the pixel ratio of its displayed
 * size, shownRatio), so it is the export's picture with fewer pixels. An animation (gif or mp4)
 * previews as a small mp4, ANIMATION_PREVIEW_WIDTH wide at pixel ratio 1 with the same params (so
 * the same motion and the same derived seed); svg and css preview as themselves. Download and
 * Export use the recipe as chosen. `box` is the CSS box the picture fits in, `dpr` the screen's pixel ratio.
 */
export function previewRecipe(gen, recipe, box, dpr) {
  const kind = kindOf(recipe.format);
  if (kind === 'motion' && gen.formats.includes('mp4')) {
    const scale = Math.min(1, ANIMATION_PREVIEW_WIDTH / Math.max(recipe.size.width, recipe.size.height));
    // mp4 needs even sides, and the service's least side (an even 16).
    const even = (n) => Math.max(limits.minSide, 2 * Math.round((n * scale) / 2));
    return { ...recipe, format: 'mp4', size: { width: even(recipe.size.width), height: even(recipe.size.height), pixelRatio: 1 } };
  }
  if (kind !== 'still') return recipe;
  // A jpeg previews as itself: its quality is what one judges.
  const format = gen.formats.includes('webp') && defaultQuality(recipe.format) == null ? 'webp' : recipe.format;
  const { width, height } = recipe.size;
  return { ...recipe, format, size: { width, height, pixelRatio: shownRatio(width, fitSize(recipe.size, box).width, dpr) } };
}

/** Device pixels from which a preview first comes quick and soft (about 1000×1000). */
export const QUICK_FROM_PIXELS = 1_000_000;

/** The quick first render of a raster preview with many pixels: the same recipe at the service's least pixel ratio (0.5); else null. */
export function quickRecipe(shown) {
  const { width, height, pixelRatio } = shown.size;
  if (kindOf(shown.format) !== 'still' || width * height * pixelRatio ** 2 < QUICK_FROM_PIXELS || pixelRatio < 1) return null;
  return { ...shown, size: { width, height, pixelRatio: limits.minPixelRatio } };
}
