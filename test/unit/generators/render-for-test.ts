// Test helper: renders one frame of a generator to RGBA pixels with the same conventions as the engine.
import { createCanvas } from '@napi-rs/canvas';
import type { FrameInput, GeneratorDefinition } from '../../../src/generators/generator.types.ts';
import { mulberry32 } from '../../../src/generators/lib/random.ts';

export interface FrameOptions<P> {
  params?: Partial<P>;
  seed?: number;
  width?: number;
  height?: number;
  pixelRatio?: number;
  frame?: number;
}

function frameInput<P extends Record<string, unknown>>(gen: GeneratorDefinition<P>, opts: FrameOptions<P>) {
  const width = opts.width ?? 96;
  const height = opts.height ?? 64;
  const pixelRatio = opts.pixelRatio ?? 1;
  const seed = opts.seed ?? 1;
  const params = { ...gen.defaults, ...(opts.params ?? {}) } as P;
  const anim = gen.animation?.(params) ?? { fps: 1, frames: 1 };
  const frame = opts.frame ?? 0;
  const input: FrameInput<P> = {
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
  };
  return { input, device: { width: Math.round(width * pixelRatio), height: Math.round(height * pixelRatio) } };
}

/** The frame drawn on a canvas and read back, as the engine does for a generator without pixels(). */
export function renderFrameForTest<P extends Record<string, unknown>>(
  gen: GeneratorDefinition<P>,
  opts: FrameOptions<P> = {},
): { pixels: Uint8ClampedArray; width: number; height: number } {
  const { input, device } = frameInput(gen, opts);
  const canvas = createCanvas(device.width, device.height);
  const ctx = canvas.getContext('2d');
  ctx.scale(input.pixelRatio, input.pixelRatio);
  gen.draw(ctx, input);
  const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  return { pixels: new Uint8ClampedArray(data), width: canvas.width, height: canvas.height };
}

/** The frame from the generator's pixels(), as the engine takes it when the generator has one. */
export function pixelsFrameForTest<P extends Record<string, unknown>>(gen: GeneratorDefinition<P>, opts: FrameOptions<P> = {}) {
  const { input, device } = frameInput(gen, opts);
  return gen.pixels!(input, device);
}
