// Image scaling in plain JavaScript, in place of drawImage with imageSmoothingQuality 'medium' or
// 'high'. Skia picks its float pipeline's SIMD code from the CPU (FMA on AVX2 machines rounds
// differently), so its smoothed drawImage gives other pixels on other CPUs. JavaScript arithmetic
// is IEEE double, never fused, so these results are the same on every machine.
//
// Separable: a horizontal pass into a Float32 buffer (no rounding in between), then a vertical
// pass into the 8-bit output. Tap positions and weights are computed once per column and row.

export type ResampleFilter = 'bilinear' | 'bicubic';

/**
 * Where the destination samples the source: destination pixel centre (x + 0.5) falls on source
 * coordinate (x + 0.5) · scaleX + offsetX (pixel edges at integers), and likewise for y.
 * Default: the whole source stretched over the whole destination, as drawImage(src, 0, 0, dw, dh).
 */
export interface ResampleMapping {
  scaleX: number;
  scaleY: number;
  offsetX: number;
  offsetY: number;
}

/** Mitchell–Netravali cubic (B = C = 1/3): smooth, barely any ringing, as Skia's 'high'. */
function mitchell(x: number): number {
  const B = 1 / 3,
    C = 1 / 3;
  const t = Math.abs(x);
  if (t < 1) return ((12 - 9 * B - 6 * C) * t * t * t + (-18 + 12 * B + 6 * C) * t * t + (6 - 2 * B)) / 6;
  if (t < 2) return ((-B - 6 * C) * t * t * t + (6 * B + 30 * C) * t * t + (-12 * B - 48 * C) * t + (8 * B + 24 * C)) / 6;
  return 0;
}

/** Per destination index: `taps` clamped source indices and their weights (summing to 1). */
function taps(
  dn: number,
  sn: number,
  scale: number,
  offset: number,
  filter: ResampleFilter,
): { index: Int32Array; weight: Float64Array; n: number } {
  const n = filter === 'bicubic' ? 4 : 2;
  const index = new Int32Array(dn * n);
  const weight = new Float64Array(dn * n);
  for (let d = 0; d < dn; d++) {
    const u = (d + 0.5) * scale + offset - 0.5; // source position in pixel-centre coordinates
    const base = Math.floor(u) - (n / 2 - 1);
    let sum = 0;
    for (let k = 0; k < n; k++) {
      const s = base + k;
      const w = filter === 'bicubic' ? mitchell(u - s) : Math.max(0, 1 - Math.abs(u - s));
      index[d * n + k] = s < 0 ? 0 : s >= sn ? sn - 1 : s; // clamp at the edges, as Skia's clamp tiling
      weight[d * n + k] = w;
      sum += w;
    }
    for (let k = 0; k < n; k++) weight[d * n + k] /= sum;
  }
  return { index, weight, n };
}

/**
 * Scales `src` (sw × sh pixels of `channels` bytes, row-major) into `out` (dw × dh pixels of the
 * same layout). With 4 channels the data is premultiplied or opaque; bicubic may overshoot, which
 * the Uint8ClampedArray clamps. Every destination pixel is written.
 */
export function resample(
  src: Uint8ClampedArray | Uint8Array,
  sw: number,
  sh: number,
  out: Uint8ClampedArray,
  dw: number,
  dh: number,
  options: { filter: ResampleFilter; channels?: 1 | 4; opaque?: boolean; mapping?: Partial<ResampleMapping> },
): void {
  const ch = options.channels ?? 4;
  // Opaque RGBA: only the colour channels are filtered (a quarter less work), alpha is 255.
  const nc = ch === 4 && options.opaque ? 3 : ch;
  const m = { scaleX: sw / dw, scaleY: sh / dh, offsetX: 0, offsetY: 0, ...options.mapping };
  if (m.scaleX === 1 && m.scaleY === 1 && m.offsetX === 0 && m.offsetY === 0 && sw === dw && sh === dh) {
    out.set(src.subarray(0, dw * dh * ch)); // same grid: a copy (a cubic would blur; Skia copies too)
    return;
  }
  const xs = taps(dw, sw, m.scaleX, m.offsetX, options.filter);
  const ys = taps(dh, sh, m.scaleY, m.offsetY, options.filter);
  const n = xs.n;

  // Horizontal pass over the source rows the vertical pass reads.
  let r0 = sh,
    r1 = -1;
  for (let i = 0; i < ys.index.length; i++) {
    r0 = Math.min(r0, ys.index[i]);
    r1 = Math.max(r1, ys.index[i]);
  }
  const rowLen = dw * nc;
  const tmp = new Float32Array(Math.max(0, r1 - r0 + 1) * rowLen);
  const xi = xs.index,
    xw = xs.weight;
  for (let y = r0; y <= r1; y++) {
    const srow = y * sw * ch;
    let o = (y - r0) * rowLen;
    for (let x = 0; x < dw; x++) {
      const t = x * n;
      if (n === 2) {
        const a = srow + xi[t] * ch,
          b = srow + xi[t + 1] * ch;
        const wa = xw[t],
          wb = xw[t + 1];
        for (let c = 0; c < nc; c++) tmp[o++] = wa * src[a + c] + wb * src[b + c];
      } else {
        const a = srow + xi[t] * ch,
          b = srow + xi[t + 1] * ch,
          cc = srow + xi[t + 2] * ch,
          d = srow + xi[t + 3] * ch;
        const wa = xw[t],
          wb = xw[t + 1],
          wc = xw[t + 2],
          wd = xw[t + 3];
        for (let c = 0; c < nc; c++) tmp[o++] = wa * src[a + c] + wb * src[b + c] + wc * src[cc + c] + wd * src[d + c];
      }
    }
  }

  // Vertical pass: a weighted sum of n buffered rows, written straight to the output.
  const yi = ys.index,
    yw = ys.weight;
  const four = n === 4;
  for (let y = 0; y < dh; y++) {
    const t = y * n;
    const a = (yi[t] - r0) * rowLen,
      b = (yi[t + 1] - r0) * rowLen;
    const c = four ? (yi[t + 2] - r0) * rowLen : a,
      d = four ? (yi[t + 3] - r0) * rowLen : a;
    const wa = yw[t],
      wb = yw[t + 1],
      wc = four ? yw[t + 2] : 0,
      wd = four ? yw[t + 3] : 0;
    if (nc === ch) {
      const o = y * rowLen;
      if (four) for (let i = 0; i < rowLen; i++) out[o + i] = wa * tmp[a + i] + wb * tmp[b + i] + wc * tmp[c + i] + wd * tmp[d + i];
      else for (let i = 0; i < rowLen; i++) out[o + i] = wa * tmp[a + i] + wb * tmp[b + i];
    } else {
      let o = y * dw * 4;
      for (let i = 0; i < rowLen; i += 3, o += 4) {
        out[o] = wa * tmp[a + i] + wb * tmp[b + i] + wc * tmp[c + i] + wd * tmp[d + i];
        out[o + 1] = wa * tmp[a + i + 1] + wb * tmp[b + i + 1] + wc * tmp[c + i + 1] + wd * tmp[d + i + 1];
        out[o + 2] = wa * tmp[a + i + 2] + wb * tmp[b + i + 2] + wc * tmp[c + i + 2] + wd * tmp[d + i + 2];
        out[o + 3] = 255;
      }
    }
  }
}
