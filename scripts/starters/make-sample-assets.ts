// Draws the sample assets of the starter templates (starters/assets/), ours to ship: a logo (PNG
// with transparency), an author "photo" (JPEG) and a product shot (WebP with transparency), all
// drawn here with @napi-rs/canvas — no photograph, no third-party artwork. The docs pictures
// (docs/templates/starters/, `npm run docs`), the starters' tests and the docs' command-line
// example render with them.
//
//   node --import tsx scripts/starters/make-sample-assets.ts
//
// Run once; the files are committed. Running it again may give other bytes (Skia and libvips
// versions), which changes the assets' ids: then run `npm run docs` to render the pictures again.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas, GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';
import sharp from 'sharp';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SAMPLE_ASSETS_DIR = path.join(ROOT, 'starters', 'assets');

GlobalFonts.registerFromPath(require.resolve('@fontsource/space-grotesk/files/space-grotesk-latin-700-normal.woff2'), 'Sample Grotesk');
GlobalFonts.registerFromPath(require.resolve('@fontsource/space-grotesk/files/space-grotesk-latin-500-normal.woff2'), 'Sample Grotesk 500');

function roundRect(ctx: SKRSContext2D, x: number, y: number, w: number, h: number, r: number): void {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
}

/** A 256×256 app-icon logo: a rounded square in an indigo → pink → amber gradient with a white spark; transparent corners. */
function logo(): Buffer {
  const s = 256;
  const canvas = createCanvas(s, s);
  const ctx = canvas.getContext('2d');
  const g = ctx.createLinearGradient(0, 0, s, s);
  g.addColorStop(0, '#6366f1');
  g.addColorStop(0.55, '#ec4899');
  g.addColorStop(1, '#f59e0b');
  roundRect(ctx, 8, 8, s - 16, s - 16, 60);
  ctx.fillStyle = g;
  ctx.fill();
  // A soft light from the top left.
  const light = ctx.createRadialGradient(70, 50, 0, 70, 50, 200);
  light.addColorStop(0, 'rgba(255,255,255,0.28)');
  light.addColorStop(1, 'rgba(255,255,255,0)');
  ctx.fillStyle = light;
  ctx.fill();
  // A four-pointed spark and a small companion dot, in white.
  const spark = (cx: number, cy: number, r: number, waist: number) => {
    ctx.beginPath();
    ctx.moveTo(cx, cy - r);
    ctx.quadraticCurveTo(cx + waist, cy - waist, cx + r, cy);
    ctx.quadraticCurveTo(cx + waist, cy + waist, cx, cy + r);
    ctx.quadraticCurveTo(cx - waist, cy + waist, cx - r, cy);
    ctx.quadraticCurveTo(cx - waist, cy - waist, cx, cy - r);
    ctx.closePath();
    ctx.fill();
  };
  ctx.fillStyle = '#ffffff';
  spark(120, 136, 78, 14);
  ctx.globalAlpha = 0.85;
  spark(186, 72, 30, 6);
  ctx.globalAlpha = 1;
  return canvas.toBuffer('image/png');
}

/** A 480×480 illustrated portrait: a person in a teal sweater before a warm, blurred backdrop (flat shapes, soft shading). */
async function author(): Promise<Buffer> {
  const s = 480;
  const canvas = createCanvas(s, s);
  const ctx = canvas.getContext('2d');
  // Backdrop: a warm gradient with out-of-focus lights.
  const bg = ctx.createLinearGradient(0, 0, s, s);
  bg.addColorStop(0, '#f9d8b6');
  bg.addColorStop(0.5, '#f3a97c');
  bg.addColorStop(1, '#c8607a');
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, s, s);
  const bokeh: Array<[number, number, number, string]> = [
    [70, 90, 60, 'rgba(255,244,214,0.55)'],
    [400, 70, 80, 'rgba(255,226,190,0.45)'],
    [420, 300, 50, 'rgba(255,210,200,0.35)'],
    [40, 330, 70, 'rgba(255,236,200,0.35)'],
    [300, 40, 36, 'rgba(255,255,240,0.5)'],
  ];
  for (const [x, y, r, c] of bokeh) {
    const b = ctx.createRadialGradient(x, y, 0, x, y, r);
    b.addColorStop(0, c);
    b.addColorStop(
      0.7,
      c.replace(/[\d.]+\)$/, (a) => `${Number(a.slice(0, -1)) * 0.6})`),
    );
    b.addColorStop(1, 'rgba(255,255,255,0)');
    ctx.fillStyle = b;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.fill();
  }
  const cx = s / 2;
  // Shoulders: a teal sweater, lit from the left.
  const body = ctx.createLinearGradient(80, 0, 400, 0);
  body.addColorStop(0, '#1f8a8a');
  body.addColorStop(1, '#135e6b');
  ctx.fillStyle = body;
  ctx.beginPath();
  ctx.moveTo(cx - 200, s + 10);
  ctx.bezierCurveTo(cx - 196, 400, cx - 170, 352, cx - 60, 338);
  ctx.lineTo(cx + 60, 338);
  ctx.bezierCurveTo(cx + 170, 352, cx + 196, 400, cx + 200, s + 10);
  ctx.closePath();
  ctx.fill();
  // Neck, with the shadow the chin casts.
  const skin = '#e7b08d';
  const skinShade = '#c98d6c';
  ctx.fillStyle = skin;
  roundRect(ctx, cx - 38, 270, 76, 90, 30);
  ctx.fill();
  const neckShade = ctx.createLinearGradient(0, 280, 0, 330);
  neckShade.addColorStop(0, skinShade);
  neckShade.addColorStop(1, 'rgba(201,141,108,0)');
  ctx.fillStyle = neckShade;
  ctx.fill();
  // The sweater's collar.
  ctx.fillStyle = '#176f78';
  ctx.beginPath();
  ctx.moveTo(cx - 70, 335);
  ctx.quadraticCurveTo(cx, 392, cx + 70, 335);
  ctx.quadraticCurveTo(cx, 372, cx - 70, 335);
  ctx.fill();
  // Hair behind the head.
  ctx.fillStyle = '#3a2418';
  ctx.beginPath();
  ctx.ellipse(cx, 190, 112, 124, 0, 0, Math.PI * 2);
  ctx.fill();
  // Face, shaded towards the right.
  const face = ctx.createLinearGradient(cx - 90, 0, cx + 90, 0);
  face.addColorStop(0, '#efbd9b');
  face.addColorStop(1, '#d99c79');
  ctx.fillStyle = face;
  ctx.beginPath();
  ctx.ellipse(cx, 210, 84, 102, 0, 0, Math.PI * 2);
  ctx.fill();
  // Ears.
  ctx.fillStyle = skinShade;
  for (const side of [-1, 1]) {
    ctx.beginPath();
    ctx.ellipse(cx + side * 84, 215, 14, 22, 0, 0, Math.PI * 2);
    ctx.fill();
  }
  // Hair in front: a side-swept fringe.
  ctx.fillStyle = '#3a2418';
  ctx.beginPath();
  ctx.moveTo(cx - 96, 200);
  ctx.bezierCurveTo(cx - 110, 90, cx + 40, 50, cx + 100, 120);
  ctx.bezierCurveTo(cx + 112, 150, cx + 100, 190, cx + 92, 200);
  ctx.bezierCurveTo(cx + 70, 150, cx + 10, 130, cx - 40, 140);
  ctx.bezierCurveTo(cx - 70, 150, cx - 84, 170, cx - 96, 200);
  ctx.fill();
  const sheen = ctx.createLinearGradient(cx - 60, 80, cx + 40, 150);
  sheen.addColorStop(0, 'rgba(255,220,180,0)');
  sheen.addColorStop(0.5, 'rgba(255,220,180,0.18)');
  sheen.addColorStop(1, 'rgba(255,220,180,0)');
  ctx.fillStyle = sheen;
  ctx.fill();
  // A calm, simple face: eyes, brows, a smile.
  ctx.fillStyle = '#2b1d16';
  for (const side of [-1, 1]) {
    ctx.beginPath();
    ctx.ellipse(cx + side * 32, 212, 7, 8, 0, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.strokeStyle = '#3a2418';
  ctx.lineCap = 'round';
  ctx.lineWidth = 6;
  for (const side of [-1, 1]) {
    ctx.beginPath();
    ctx.moveTo(cx + side * 18, 188);
    ctx.quadraticCurveTo(cx + side * 32, 180, cx + side * 48, 188);
    ctx.stroke();
  }
  ctx.strokeStyle = '#a4553f';
  ctx.lineWidth = 5;
  ctx.beginPath();
  ctx.moveTo(cx - 24, 258);
  ctx.quadraticCurveTo(cx, 276, cx + 24, 258);
  ctx.stroke();
  ctx.fillStyle = 'rgba(232,120,110,0.25)';
  for (const side of [-1, 1]) {
    ctx.beginPath();
    ctx.ellipse(cx + side * 50, 244, 16, 10, 0, 0, Math.PI * 2);
    ctx.fill();
  }
  const png = canvas.toBuffer('image/png');
  return sharp(png).jpeg({ quality: 84, mozjpeg: true, chromaSubsampling: '4:2:0' }).toBuffer();
}

/** A 640×640 product shot: a smartwatch with activity rings on its screen and a soft shadow, on transparency. */
async function product(): Promise<Buffer> {
  const s = 640;
  const canvas = createCanvas(s, s);
  const ctx = canvas.getContext('2d');
  const cx = s / 2;
  // Contact shadow: a radial gradient squashed into an ellipse.
  ctx.save();
  ctx.translate(cx, 604);
  ctx.scale(1, 0.16);
  const shadow = ctx.createRadialGradient(0, 0, 0, 0, 0, 190);
  shadow.addColorStop(0, 'rgba(15,23,42,0.4)');
  shadow.addColorStop(1, 'rgba(15,23,42,0)');
  ctx.fillStyle = shadow;
  ctx.beginPath();
  ctx.arc(0, 0, 190, 0, Math.PI * 2);
  ctx.fill();
  ctx.restore();
  // Straps, coral silicone with a soft highlight down the middle.
  const strap = (y: number, h: number, flip: boolean) => {
    const g = ctx.createLinearGradient(cx - 90, 0, cx + 90, 0);
    g.addColorStop(0, '#e1584b');
    g.addColorStop(0.45, '#ff7a6b');
    g.addColorStop(1, '#c9473c');
    ctx.fillStyle = g;
    roundRect(ctx, cx - 90, y, 180, h, 40);
    ctx.fill();
    const fade = ctx.createLinearGradient(0, y, 0, y + h);
    fade.addColorStop(flip ? 1 : 0, 'rgba(120,30,30,0.35)');
    fade.addColorStop(flip ? 0 : 1, 'rgba(120,30,30,0)');
    ctx.fillStyle = fade;
    ctx.fill();
  };
  strap(28, 200, false);
  strap(402, 190, true);
  // Holes in the lower strap.
  ctx.fillStyle = 'rgba(110,25,25,0.55)';
  for (const y of [518, 552]) {
    ctx.beginPath();
    ctx.ellipse(cx, y, 9, 6, 0, 0, Math.PI * 2);
    ctx.fill();
  }
  // The case: brushed aluminium.
  const metal = ctx.createLinearGradient(cx - 150, 140, cx + 150, 500);
  metal.addColorStop(0, '#f8fafc');
  metal.addColorStop(0.35, '#cbd5e1');
  metal.addColorStop(0.6, '#94a3b8');
  metal.addColorStop(1, '#e2e8f0');
  roundRect(ctx, cx - 140, 150, 280, 340, 78);
  ctx.fillStyle = metal;
  ctx.fill();
  // Crown and side button.
  const crown = ctx.createLinearGradient(cx + 138, 0, cx + 162, 0);
  crown.addColorStop(0, '#94a3b8');
  crown.addColorStop(0.5, '#f1f5f9');
  crown.addColorStop(1, '#64748b');
  ctx.fillStyle = crown;
  roundRect(ctx, cx + 134, 236, 26, 64, 8);
  ctx.fill();
  ctx.fillStyle = '#ff7a6b';
  roundRect(ctx, cx + 150, 248, 10, 40, 4);
  ctx.fill();
  ctx.fillStyle = crown;
  roundRect(ctx, cx + 134, 330, 14, 70, 6);
  ctx.fill();
  // Screen.
  roundRect(ctx, cx - 122, 168, 244, 304, 62);
  ctx.fillStyle = '#05070d';
  ctx.fill();
  // Activity rings.
  const rings: Array<[number, string, string, number]> = [
    [74, '#ff2d55', 'rgba(255,45,85,0.22)', 0.78],
    [52, '#a3f93b', 'rgba(163,249,59,0.2)', 0.62],
    [30, '#33d1ff', 'rgba(51,209,255,0.22)', 0.9],
  ];
  const ry = 304;
  ctx.lineCap = 'round';
  ctx.lineWidth = 17;
  for (const [r, color, track, share] of rings) {
    ctx.strokeStyle = track;
    ctx.beginPath();
    ctx.arc(cx, ry, r, 0, Math.PI * 2);
    ctx.stroke();
    ctx.strokeStyle = color;
    ctx.beginPath();
    ctx.arc(cx, ry, r, -Math.PI / 2, -Math.PI / 2 + share * Math.PI * 2);
    ctx.stroke();
  }
  ctx.fillStyle = '#ffffff';
  ctx.textAlign = 'center';
  ctx.font = '700 44px "Sample Grotesk"';
  ctx.fillText('10:09', cx, 432);
  ctx.fillStyle = '#94a3b8';
  ctx.font = '20px "Sample Grotesk 500"';
  ctx.fillText('TUE 14', cx, 206);
  // Glass glare.
  ctx.save();
  roundRect(ctx, cx - 122, 168, 244, 304, 62);
  ctx.clip();
  const glare = ctx.createLinearGradient(cx - 122, 168, cx + 40, 330);
  glare.addColorStop(0, 'rgba(255,255,255,0.16)');
  glare.addColorStop(0.5, 'rgba(255,255,255,0.04)');
  glare.addColorStop(0.51, 'rgba(255,255,255,0)');
  ctx.fillStyle = glare;
  ctx.fillRect(cx - 122, 168, 244, 304);
  ctx.restore();
  return sharp(canvas.toBuffer('image/png')).webp({ quality: 88, alphaQuality: 90, smartSubsample: true, effort: 6 }).toBuffer();
}

async function main(): Promise<void> {
  mkdirSync(SAMPLE_ASSETS_DIR, { recursive: true });
  const files: Array<[string, Buffer]> = [
    ['logo.png', await sharp(logo()).png({ compressionLevel: 9, palette: true, quality: 90, effort: 10 }).toBuffer()],
    ['author.jpg', await author()],
    ['product.webp', await product()],
  ];
  for (const [name, bytes] of files) {
    writeFileSync(path.join(SAMPLE_ASSETS_DIR, name), bytes);
    console.log(`${path.relative(ROOT, path.join(SAMPLE_ASSETS_DIR, name))}: ${bytes.length} bytes`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
