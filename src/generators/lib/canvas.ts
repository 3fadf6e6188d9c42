// @napi-rs/canvas, required as the CommonJS package it is. Imported as an ES module, Node first scans
// its large generated binding for the names it exports, which made loading it about three times as
// slow (most of a CLI render's start-up is loading): the product imports the canvas's values from
// here, its types from the package.
import { createRequire } from 'node:module';
import type { createCanvas as CreateCanvas, ImageData as CanvasImageData, Path2D as CanvasPath2D } from '@napi-rs/canvas';

const canvas = createRequire(import.meta.url)('@napi-rs/canvas') as {
  createCanvas: typeof CreateCanvas;
  Path2D: typeof CanvasPath2D;
  ImageData: typeof CanvasImageData;
};

export const createCanvas = canvas.createCanvas;
export const Path2D = canvas.Path2D;
export type Path2D = CanvasPath2D;
export const ImageData = canvas.ImageData;
export type ImageData = CanvasImageData;
