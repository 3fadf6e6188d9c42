// The output pixel-size rule, in one place: recipe validation (frame and animation limits, even
// sides), the canvas the worker draws on and pricing all count the same pixels.

/** A size's output (device) pixels: each side × pixelRatio, rounded to the nearest pixel. */
export function deviceSize(size: { width: number; height: number; pixelRatio: number }): { width: number; height: number } {
  return { width: Math.round(size.width * size.pixelRatio), height: Math.round(size.height * size.pixelRatio) };
}
