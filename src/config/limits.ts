// Engine limits. Sizes outside them are rejected, never resized. Documented in openapi.yaml
// (Size schema, render_too_large) and docs/recipes-and-rendering.md.

export const SIZE_LIMITS = { minSide: 16, maxSide: 4096, minPixelRatio: 0.5, maxPixelRatio: 3 } as const;

/** Largest frame in output (device) pixels: ~40 MP, e.g. 4096×4096 at pixel ratio 1.5 (160 MB of RGBA). */
export const MAX_FRAME_PIXELS = 40_000_000;

/** Largest animation in output pixels × frames, e.g. 1920×1080 × 300 frames (10 s at 30 fps). */
export const MAX_ANIMATION_PIXELS = 625_000_000;

/**
 * A gif plays at most this many frames per second: above it the engine keeps every second frame
 * (every third above 2×, …), so a 24 fps recipe gives a 12 fps gif of the same duration. Engine 1.3.0.
 */
export const GIF_MAX_FPS = 15;

/** The limits a client needs before it asks (`limits` of GET /v1/health): the web app reads them there and repeats none. */
export const serviceLimits = () => ({
  ...SIZE_LIMITS,
  maxFramePixels: MAX_FRAME_PIXELS,
  maxAnimationPixels: MAX_ANIMATION_PIXELS,
  gifMaxFps: GIF_MAX_FPS,
});
export type ServiceLimits = ReturnType<typeof serviceLimits>;

export const DEFAULT_SIZE = { width: 1920, height: 1080, pixelRatio: 1 } as const;

/** Longest encoded recipe (`r` of GET /v1/render/{recipeHash}, openapi.yaml maxLength). */
export const MAX_ENCODED_RECIPE_LENGTH = 16_384;
