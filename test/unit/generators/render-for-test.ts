// Test helper: renders one frame of a generator to RGBA pixels with the same conventions as the engine.
import { createCanvas } from '@napi-rs/canvas';
import type { GeneratorDefinition } from '../../../src/generators/generator.types.ts';
import { mulberry32 } from '../../../src/generators/lib/random.ts';

export function renderFrameForTest<P extends Record<string, unknown>>(
  gen: GeneratorDefinition<P>,
  opts: { params?: Partial<P>; seed?: number; width?: number; height?: number; pixelRatio?: number; frame?: number } = {},
): { pixels: Uint8ClampedArray; width: number; height: number } {
  const width = opts.width ?? 96;
  const height = opts.height ?? 64;
  const pixelRatio = opts.pixelRatio ?? 1;
  const seed = opts.seed ?? 1;
  const params = { ...gen.defaults, ...(opts.params ?? {}) } as P;
  const anim = gen.animation?.(params) ?? { fps: 1, frames: 1 };
  const frame = opts.frame ?? 0;
  const canvas = createCanvas(Math.round(width * pixelRatio), Math.round(height * pixelRatio));
  const ctx = canvas.getContext('2d');
  ctx.scale(pixelRatio, pixelRatio);
  gen.draw(ctx, {
    params,
    seed,
    width,
    height,
    pixelRatio,
    random: mulberry32(seed),
    frame,
    frameCount: anim.frames,
    time: frame / anim.fps,
    loop: frame / anim.frames,
  });
  const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  return { pixels: new Uint8ClampedArray(data), width: canvas.width, height: canvas.height };
}
