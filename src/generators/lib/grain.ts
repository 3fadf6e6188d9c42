// Film grain of the gradient generators (linear-gradient, mesh-gradient).
import type { SKRSContext2D } from '@napi-rs/canvas';
import { seededStream } from './random.ts';

const T = 256;

/** The seeded 256×256 tile of grey levels, triangular around mid-grey. */
function grainTile(seed: number, purpose: string): Uint8Array {
  const tile = new Uint8Array(T * T);
  let s = Math.floor(seededStream(seed, purpose)() * 4294967296) | 0 || 0x2545f491;
  for (let i = 0; i < tile.length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    tile[i] = ((s & 255) + ((s >>> 8) & 255)) >>> 1;
  }
  return tile;
}

/**
 * Film grain: a seeded 256×256 tile of grey noise n with alpha a = amount·255, repeated over the
 * canvas in device pixels from its top-left corner and laid over it source-over.
 *
 * Blended here in integers, per channel of the premultiplied pixel c below:
 *   c' = round(n·a/255) + ((c·(256 − a)) >> 8)
 * which is exactly what Skia's own pattern fill gave on x86-64 (engine ≤ 1.3.0 filled the canvas
 * with the tile as a pattern; grain.test.ts checks the two agree there). Skia's arm64 code rounds
 * that blend differently (±1), so the grain is no longer Skia's: the same bytes on every CPU.
 * The gradient generators' canvases are opaque (c is the pixel itself, alpha stays 255); for a
 * translucent pixel the premultiplied value is recovered exactly from getImageData's
 * unpremultiplied one (premultiplying is the inverse of unpremultiplying to the nearest level).
 */
export function applyGrain(ctx: SKRSContext2D, seed: number, purpose: string, amount: number): void {
  const { width, height } = ctx.canvas;
  const image = ctx.getImageData(0, 0, width, height);
  grainPixels(image.data, width, height, seed, purpose, amount);
  ctx.putImageData(image, 0, 0);
}

/**
 * The same grain on a whole frame's RGBA pixels (unpremultiplied, as ImageData holds them), in
 * place: a generator with pixels() lays it on without a canvas and its read-back.
 */
export function grainPixels(d: Uint8ClampedArray, width: number, height: number, seed: number, purpose: string, amount: number): void {
  const tile = grainTile(seed, purpose);
  const a = Math.max(1, Math.round(amount * 255));
  const keep = 256 - a;
  // The tile's premultiplied grey for each level (n·a/255 is never a half: 255 is odd).
  const lift = new Uint8Array(256).map((_, n) => Math.round((n * a) / 255));
  for (let y = 0; y < height; y++) {
    const row = (y & (T - 1)) * T;
    let i = y * width * 4;
    for (let x = 0; x < width; x++, i += 4) {
      const s = lift[tile[row + (x & (T - 1))]];
      const alpha = d[i + 3];
      if (alpha === 255) {
        d[i] = s + ((d[i] * keep) >> 8);
        d[i + 1] = s + ((d[i + 1] * keep) >> 8);
        d[i + 2] = s + ((d[i + 2] * keep) >> 8);
      } else blendTranslucent(d, i, alpha, s, a, keep);
    }
  }
}

/** The same blend for a translucent pixel, on its premultiplied values; written back unpremultiplied. */
function blendTranslucent(d: Uint8ClampedArray, i: number, alpha: number, s: number, a: number, keep: number): void {
  const out = a + ((alpha * keep) >> 8);
  for (let k = i; k < i + 3; k++) {
    const premultiplied = s + ((Math.round((d[k] * alpha) / 255) * keep) >> 8);
    d[k] = Math.round((premultiplied * 255) / out);
  }
  d[i + 3] = out;
}
