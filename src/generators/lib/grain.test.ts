// applyGrain blends in JavaScript what engine ≤ 1.3.0 had Skia blend (a translucent pattern fill):
// on x86-64, where the goldens were made that way, both must give the same pixels.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCanvas, ImageData, type SKRSContext2D } from '@napi-rs/canvas';
import { applyGrain } from './grain.ts';
import { seededStream } from './random.ts';

/** The former applyGrain: the same tile as a repeating pattern, blended by Skia. */
function skiaGrain(ctx: SKRSContext2D, seed: number, purpose: string, amount: number): void {
  const T = 256;
  const tile = createCanvas(T, T);
  const tctx = tile.getContext('2d');
  const img = tctx.createImageData(T, T);
  const d = img.data;
  let s = Math.floor(seededStream(seed, purpose)() * 4294967296) | 0 || 0x2545f491;
  const alpha = Math.max(1, Math.round(amount * 255));
  for (let i = 0; i < d.length; i += 4) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    const n = ((s & 255) + ((s >>> 8) & 255)) >>> 1;
    d[i] = d[i + 1] = d[i + 2] = n;
    d[i + 3] = alpha;
  }
  tctx.putImageData(img, 0, 0);
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = ctx.createPattern(tile, 'repeat')!;
  ctx.fillRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  ctx.restore();
}

/** A canvas of seeded noise: every level of every channel, opaque or with random alpha. */
function noiseCanvas(width: number, height: number, opaque: boolean) {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const data = new Uint8ClampedArray(width * height * 4);
  const random = seededStream(7, `grain-test/${opaque}`);
  for (let i = 0; i < data.length; i++) data[i] = (i & 3) === 3 && opaque ? 255 : Math.floor(random() * 256);
  ctx.putImageData(new ImageData(data, width, height), 0, 0);
  return ctx;
}

const pixels = (ctx: SKRSContext2D) => Buffer.from(ctx.getImageData(0, 0, ctx.canvas.width, ctx.canvas.height).data);

for (const opaque of [true, false]) {
  test(
    `applyGrain gives Skia's pattern-fill pixels on x86-64 (${opaque ? 'opaque' : 'translucent'} canvas)`,
    { skip: process.arch === 'x64' ? false : "Skia's blend rounds differently on other CPUs; the goldens were made on x86-64" },
    () => {
      for (const amount of [0.001, 0.03, 0.1, 0.3]) {
        // Not a multiple of the tile: the pattern's wrap at 256 counts.
        const ours = noiseCanvas(300, 270, opaque);
        const skia = noiseCanvas(300, 270, opaque);
        applyGrain(ours, 42, 'grain-test', amount);
        skiaGrain(skia, 42, 'grain-test', amount);
        const a = pixels(ours);
        const b = pixels(skia);
        const first = a.findIndex((v, i) => v !== b[i]);
        assert.equal(first, -1, `amount ${amount}: byte ${first} is ${a[first]}, Skia gives ${b[first]}`);
      }
    },
  );
}
