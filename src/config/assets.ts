// Assets (#42): what a workspace may upload, and how much of it. Enforced before any decode
// (docs/assets.md): the size while the body is read, the pixels from the image's header.
import type { EnvReader } from './env-reader.ts';

export interface AssetsConfig {
  readonly assets: {
    /** Assets a workspace may hold, deleted ones not counted (409 asset_limit_reached past it). */
    readonly maxPerWorkspace: number;
    /** Largest image upload, in bytes (413 asset_too_large). */
    readonly imageMaxBytes: number;
    /** Largest font upload, in bytes (413 asset_too_large). */
    readonly fontMaxBytes: number;
    /** Largest image, width × height from its header (413 image_too_large). */
    readonly maxPixels: number;
  };
}

export function parseAssets({ int }: EnvReader): AssetsConfig {
  return {
    assets: {
      maxPerWorkspace: int('ASSETS_PER_WORKSPACE', 1_000, 1, 1_000_000),
      imageMaxBytes: int('ASSET_IMAGE_MAX_BYTES', 10 * 1024 * 1024, 1024, 256 * 1024 * 1024),
      fontMaxBytes: int('ASSET_FONT_MAX_BYTES', 20 * 1024 * 1024, 1024, 256 * 1024 * 1024),
      maxPixels: int('ASSET_MAX_PIXELS', 40_000_000, 1, 268_402_689),
    },
  };
}
