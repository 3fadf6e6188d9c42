// Versions that shape output bytes. engineVersion covers recipe handling and encoder settings;
// rendererVersion names the native builds (Skia via @napi-rs/canvas, libvips via sharp, FFmpeg):
// any change in them may change bytes, so both are reported and the engine version is sent with
// every render.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Bump when the engine's own output changes (canonical form, encoder settings, frame pipeline), and
 * give the new version its row in engine-profiles.ts: released generator versions keep encoding with
 * the profile they were recorded under (1.1.0, 1.2.0, 1.4.0 so far).
 */
// 1.1.0: FFmpeg and x264 pinned to the CPU baseline (mp4 bytes changed; the same on every x86-64 CPU now).
// 1.2.0: x264 preset veryfast at crf 19 instead of medium at crf 20 (mp4 bytes changed; 1.9–2.7× faster to encode).
// 1.3.0: every file carries its recipe, hash and engine version in its own metadata (recipe-metadata.ts); gifs at most
//        GIF_MAX_FPS with a faster, smaller palette pipeline (encoders.ts). Bytes of every format changed.
// 1.4.0: x86-64 and arm64 write the same bytes: film grain blended in JavaScript (lib/grain.ts); mp4 from
//        bit-exact swscale and x264 code that gives its C code's pictures (MMX2 on x86-64, C on arm64), without
//        x264's version SEI or optional constraint flags; gifs in two FFmpeg runs with the palette in one layout,
//        without a local colour table that repeats the global one (encoders.ts). On x86-64 only the mp4
//        pictures changed; every file's bytes did, as each carries the engine version.
export const ENGINE_VERSION = '1.4.0';

/**
 * The instruction-set baseline every CPU-dispatched encoder step is pinned to on `arch`
 * (cpuPin in encoders.ts): SSE4.2 on x86-64, NEON on arm64, plain C elsewhere.
 */
export function cpuBaseline(arch: NodeJS.Architecture = process.arch): string {
  if (arch === 'x64') return 'x86-64-sse4.2';
  if (arch === 'arm64') return 'arm64-neon';
  return `${arch}-c`;
}

export function rendererVersion(ffmpegVersion: string | undefined): string {
  const canvas = (require('@napi-rs/canvas/package.json') as { version: string }).version;
  let vips = 'unavailable';
  try {
    const sharp = require('sharp') as { versions: { vips: string; sharp: string } };
    vips = `${sharp.versions.sharp}/libvips-${sharp.versions.vips}`;
  } catch {
    // sharp is optional for discovery; the render path reports its own error
  }
  return `canvas-${canvas}+sharp-${vips}+ffmpeg-${ffmpegVersion ?? 'unavailable'}+cpu-baseline-${cpuBaseline()}`;
}
