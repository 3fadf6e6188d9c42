// Device pixels computed in JavaScript and their way onto a canvas. putImageData and
// getImageData of opaque pixels copy bytes exactly, on every CPU; unpremultiplying translucent
// pixels is not exact, so blocks read back from a canvas must be opaque there.
import { ImageData, type SKRSContext2D } from '@napi-rs/canvas';
import type { Rgb } from './color.ts';
import type { FrameInput } from '../../../generator.types.ts';

/** Device pixels of a canvas region, RGBA as in ImageData; top-left at (x, y) on the canvas. */
export interface PixelBlock {
  data: Uint8ClampedArray;
  width: number;
  height: number;
  x: number;
  y: number;
}

/** A transparent block (every byte 0) to be filled in full. */
export function emptyBlock(width: number, height: number, x = 0, y = 0): PixelBlock {
  return { data: new Uint8ClampedArray(width * height * 4), width, height, x, y };
}

/** A block of the canvas's device pixels (which must be opaque there: unpremultiplying is not exact). */
export function readBlock(ctx: SKRSContext2D, x: number, y: number, width: number, height: number): PixelBlock {
  return { data: ctx.getImageData(x, y, width, height).data as Uint8ClampedArray, width, height, x, y };
}

/** An opaque block of one colour, not yet on any canvas. */
export function solidBlock(width: number, height: number, color: Rgb, x = 0, y = 0): PixelBlock {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < data.length; i += 4) {
    data[i] = color.r;
    data[i + 1] = color.g;
    data[i + 2] = color.b;
    data[i + 3] = 255;
  }
  return { data, width, height, x, y };
}

/** Puts the block back on the canvas (device pixels; the context's transform does not apply). */
export function writeBlock(ctx: SKRSContext2D, block: PixelBlock): void {
  ctx.putImageData(new ImageData(block.data, block.width, block.height), block.x, block.y);
}

/** draw() of a generator that has pixels(): the whole frame put on the canvas, so both paths give the same bytes. */
export function drawPixels<P>(pixels: (input: FrameInput<P>, device: { width: number; height: number }) => Uint8ClampedArray) {
  return (ctx: SKRSContext2D, input: FrameInput<P>): void => {
    const { width, height } = ctx.canvas;
    ctx.putImageData(new ImageData(pixels(input, { width, height }), width, height), 0, 0);
  };
}
