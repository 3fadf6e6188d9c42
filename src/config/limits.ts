// Engine limits. Sizes outside them are rejected, never resized. Documented in openapi.yaml
// (Size schema, render_too_large) and docs/recipes-and-rendering.md.

export const SIZE_LIMITS = { minSide: 16, maxSide: 4096, minPixelRatio: 0.5, maxPixelRatio: 3 } as const;

/** Largest frame in output (device) pixels: ~40 MP, e.g. 4096×4096 at pixel ratio 1.5 (160 MB of RGBA). */
export const MAX_FRAME_PIXELS = 40_000_000;

/** Largest animation in output pixels × frames, e.g. 1920×1080 × 300 frames (10 s at 30 fps). */
export const MAX_ANIMATION_PIXELS = 625_000_000;

export const DEFAULT_SIZE = { width: 1920, height: 1080, pixelRatio: 1 } as const;

/** Longest encoded recipe (`r` of GET /v1/render/{recipeHash}, openapi.yaml maxLength). */
export const MAX_ENCODED_RECIPE_LENGTH = 16_384;
