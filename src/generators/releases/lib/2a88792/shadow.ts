import { createCanvas, type SKRSContext2D } from '@napi-rs/canvas';

/**
 * Soft drop shadow of a path, without the path itself. Skia's blur cost grows with the blurred
 * area, so the shadow is rendered into a buffer about σ/3 times smaller than the device canvas
 * (the blur hides the lower resolution) and scaled up over the affected region only.
 */
export function softShadow(
  ctx: SKRSContext2D,
  pixelRatio: number,
  width: number,
  height: number,
  trace: (c: SKRSContext2D) => void,
  bounds: readonly [number, number, number, number],
  sigma: number,
  dy: number,
  color: string,
): void {
  const pad = sigma * 3 + 1;
  const x0 = Math.max(0, Math.floor(bounds[0] - pad));
  const y0 = Math.max(0, Math.floor(bounds[1] + Math.min(0, dy) - pad));
  const x1 = Math.min(width, Math.ceil(bounds[2] + pad));
  const y1 = Math.min(height, Math.ceil(bounds[3] + Math.max(0, dy) + pad));
  if (x1 <= x0 || y1 <= y0) return;
  const f = Math.max(1, (sigma * pixelRatio) / 3); // device pixels per buffer pixel
  const k = pixelRatio / f; // buffer pixels per logical unit
  const bw = Math.ceil((x1 - x0) * k) + 1;
  const bh = Math.ceil((y1 - y0) * k) + 1;
  const buffer = createCanvas(bw, bh);
  const b = buffer.getContext('2d');
  // Draw the shape off to the left of the buffer; the shadow offset brings only its shadow back.
  const shift = Math.ceil(bw + 6 * sigma * k + 16);
  b.setTransform(k, 0, 0, k, -x0 * k - shift, -y0 * k);
  b.shadowColor = color;
  b.shadowBlur = 2 * sigma * k;
  b.shadowOffsetX = shift;
  b.shadowOffsetY = dy * k;
  b.fillStyle = '#000';
  b.beginPath();
  trace(b);
  b.fill();
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'medium';
  ctx.drawImage(buffer, 0, 0, bw, bh, x0, y0, bw / k, bh / k);
}
