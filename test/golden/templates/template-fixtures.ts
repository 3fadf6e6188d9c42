// A template that uses every layer kind — the compositor's unit tests, its goldens and the sample
// render share it: an og:image of a blog post (1200×630) over a generator's background, with a
// logo, a title fitted to its box in a bundled family, an author photo in a circle and the
// author's name in an uploaded font. The assets are made here, in plain JavaScript, so the fixture
// needs no files: a logo with a transparent background whose invisible pixels are pure green (a
// compositor that scales straight colours shows a green halo), a "photo" with fine detail to
// shrink, and a font: Noto Sans ExtraBold Italic (OFL 1.1), unpacked from its WOFF2 (@fontsource)
// to the sfnt bytes an upload is stored as.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { shaperReady } from '../../../src/generators/lib/shaper.ts';
import type { TemplateAsset, TemplateSpec } from '../../../src/templates/template.types.ts';

const require = createRequire(import.meta.url);

/**
 * Straight RGBA of a w×h image whose pixel colour and coverage come from `paint` (4×4 samples a pixel).
 * The paints compare squared distances: Math.hypot gave the same pixels in three times the CPU, which
 * every platform of the determinism tier paid again under emulation (about 5 s a platform).
 */
function rasterize(
  w: number,
  h: number,
  paint: (x: number, y: number) => { r: number; g: number; b: number; a: number },
  transparent = { r: 0, g: 255, b: 0 },
): Uint8Array {
  const out = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      for (let sy = 0; sy < 4; sy++)
        for (let sx = 0; sx < 4; sx++) {
          const c = paint(x + (sx + 0.5) / 4, y + (sy + 0.5) / 4);
          r += c.r * c.a;
          g += c.g * c.a;
          b += c.b * c.a;
          a += c.a;
        }
      const i = (y * w + x) * 4;
      if (a === 0) {
        out[i] = transparent.r;
        out[i + 1] = transparent.g;
        out[i + 2] = transparent.b;
        out[i + 3] = 0;
      } else {
        out[i] = Math.round(r / a);
        out[i + 1] = Math.round(g / a);
        out[i + 2] = Math.round(b / a);
        out[i + 3] = Math.round((a / 16) * 255);
      }
    }
  return out;
}

/** A 256×256 logo: an orange ring around a white square turned 45°, on transparency. */
export function logoRgba(size = 256): Uint8Array {
  const c = size / 2;
  return rasterize(size, size, (x, y) => {
    const d = Math.sqrt((x - c) * (x - c) + (y - c) * (y - c)) / c;
    if (d > 0.72 && d < 0.96) return { r: 255, g: 122, b: 48, a: 1 };
    if (Math.abs(x - c) + Math.abs(y - c) < c * 0.5) return { r: 255, g: 255, b: 255, a: 1 };
    return { r: 0, g: 0, b: 0, a: 0 };
  });
}

/** A 480×600 "photo": a warm gradient with a face-like disc and fine stripes that alias when shrunk badly. */
export function photoRgba(w = 480, h = 600): Uint8Array {
  return rasterize(w, h, (x, y) => {
    const fx = x / w,
      fy = y / h;
    const stripe = Math.floor(x / 3 + y / 3) % 2 === 0 ? 1 : 0;
    const dx = x - w / 2,
      dyFace = y - h * 0.42,
      dyBody = y - h * 1.05;
    const inFace = dx * dx + dyFace * dyFace < w * 0.26 * (w * 0.26);
    const inBody = dx * dx + dyBody * dyBody < w * 0.45 * (w * 0.45);
    if (inFace) return { r: 236, g: 188, b: 150, a: 1 };
    if (inBody) return { r: 40 + stripe * 60, g: 70 + stripe * 60, b: 130 + stripe * 60, a: 1 };
    return { r: 90 + 120 * fy, g: 140 + 60 * fx, b: 200 - 80 * fy, a: 1 };
  });
}

let sfnt: Promise<Uint8Array> | undefined;
/** Noto Sans ExtraBold Italic (latin), as sfnt bytes. */
export function uploadedFontSfnt(): Promise<Uint8Array> {
  sfnt ??= (async () => {
    // The decoder's result is a view of its memory, which its next call overwrites (or a growth
    // detaches): it is copied before anything else on this thread runs. Through wawoff2's async
    // decompress() an await came between, where another decode could overwrite it (a unit run beside
    // another once failed with "not an sfnt font").
    await shaperReady(); // the decoder's runtime has started
    const decoder = require('wawoff2/build/decompress_binding.js') as { decompress(woff2: Uint8Array): Uint8Array | false };
    const unpacked = decoder.decompress(readFileSync(require.resolve('@fontsource/noto-sans/files/noto-sans-latin-800-italic.woff2')));
    if (!unpacked) throw new Error('the fixture font could not be unpacked');
    return Uint8Array.from(unpacked);
  })();
  return sfnt;
}

export const LOGO_ID = 'ast_logo';
export const PHOTO_ID = 'ast_photo';
export const FONT_ID = 'ast_font';

export async function fixtureAssets(): Promise<Map<string, TemplateAsset>> {
  return new Map<string, TemplateAsset>([
    [LOGO_ID, { kind: 'image', sha256: 'fixture-logo', width: 256, height: 256, rgba: logoRgba() }],
    [PHOTO_ID, { kind: 'image', sha256: 'fixture-photo', width: 480, height: 600, rgba: photoRgba() }],
    [FONT_ID, { kind: 'font', sha256: 'fixture-font', data: await uploadedFontSfnt() }],
  ]);
}

/** The blog og:image: every layer kind, variables in text, an asset and a generator param. */
export const BLOG_SPEC: TemplateSpec = {
  size: { width: 1200, height: 630 },
  background: '#101020',
  variables: {
    type: 'object',
    additionalProperties: false,
    properties: {
      title: { type: 'string', maxLength: 140, default: 'Deterministic renders: the same bytes on every machine' },
      author: { type: 'string', maxLength: 60, default: 'Ada Lovelace' },
      tag: { type: 'string', maxLength: 20, default: 'Engineering' },
      photo: { type: 'string', default: PHOTO_ID },
      palette: { type: 'array', items: { type: 'string' }, default: ['#1b1446', '#3d1e6d', '#ff8a5c', '#5de0c4'] },
    },
  },
  layers: [
    { id: 'background', kind: 'generator', slug: 'mesh-gradient', params: { palette: '{{palette}}' }, seed: 7 },
    {
      id: 'shade',
      kind: 'fill',
      gradient: {
        type: 'linear',
        angle: 90,
        stops: [
          { offset: 0, color: '#0b0b1ccc' },
          { offset: 0.7, color: '#0b0b1c66' },
          { offset: 1, color: '#0b0b1c00' },
        ],
      },
    },
    { id: 'logo', kind: 'image', asset: LOGO_ID, box: { x: 72, y: 64, width: 72, height: 72 }, fit: 'contain' },
    {
      id: 'tag-pill',
      kind: 'shape',
      shape: 'rectangle',
      box: { x: 168, y: 80, width: 190, height: 40 },
      radius: 20,
      fill: '#ffffff22',
      stroke: { color: '#ffffffaa', width: 2 },
    },
    {
      id: 'tag',
      kind: 'text',
      text: '{{tag}}',
      box: { x: 168, y: 80, width: 190, height: 40 },
      align: 'center',
      valign: 'middle',
      color: '#ffffff',
      font: { family: 'Space Grotesk', weight: 500 },
      fit: { max: 22, min: 12, maxLines: 1 },
    },
    {
      id: 'title',
      kind: 'text',
      text: '{{title}}',
      box: { x: 72, y: 170, width: 760, height: 270 },
      color: '#fff8ee',
      font: { family: 'Space Grotesk', weight: 700 },
      lineHeight: 1.1,
      fit: { max: 84, min: 40, maxLines: 3, overflow: 'ellipsis' },
    },
    { id: 'photo-ring', kind: 'shape', shape: 'ellipse', box: { x: 68, y: 476, width: 96, height: 96 }, fill: '#ff8a5c' },
    { id: 'photo', kind: 'image', asset: '{{photo}}', box: { x: 72, y: 480, width: 88, height: 88 }, radius: 44, fit: 'cover' },
    {
      id: 'author',
      kind: 'text',
      text: 'by {{author}}',
      box: { x: 184, y: 496, width: 600, height: 56 },
      valign: 'middle',
      color: '#ffd36e',
      font: { asset: FONT_ID },
      fit: { max: 36, min: 20, maxLines: 1 },
    },
    { id: 'corner', kind: 'shape', shape: 'ellipse', box: { x: 1010, y: 440, width: 260, height: 260 }, fill: '#5de0c4', opacity: 0.35 },
  ],
};
