// What each engine version does to a file's bytes: the one table of it. A released generator version
// renders with the engine profile its goldens were recorded with (GeneratorRelease.engine: 1.1.0 or
// 1.2.0 for the superseded versions, 1.4.0 for the current ones), so its files keep their bytes after
// the engine moves on. How each choice is spelled for FFmpeg is encoders.ts's (ffmpegPasses); which
// choice a version makes is here. The history of the bumps: versions.ts.
//
// Measured (docs/superseded-versions.md): an old gif/mp4 is a pure function of the raw frames, the
// FFmpeg arguments and the bundled FFmpeg binary — the old engines' arguments on today's frames gave
// the committed goldens 10/10. Stills (png, webp, jpeg) and svg/css come out of the encoders the same
// in all three profiles; only the recipe they embed differs.
import { ENGINE_VERSION } from './versions.ts';

/**
 * How FFmpeg and x264 choose their SIMD code, and what an encode does so that its bytes do not
 * depend on the machine (encoders.ts spells each out: cpuPin, ffmpegPasses).
 * - `sse4.2` (1.1.0–1.2.0): both pinned to the x86-64 SSE4.2 class — FFmpeg `-cpuflags
 *   mmx+mmxext+sse+sse2+sse3+ssse3+sse4.1+sse4.2+cmov`, x264 `asm=SSE4.2,Cache64` — and nothing
 *   else: swscale's default rounding, x264's version SEI kept, the file as FFmpeg wrote it. These
 *   bytes exist on x86-64 only; elsewhere the same arguments run FFmpeg's and x264's C code
 *   (deterministic there, but not the recorded bytes).
 * - `portable` (1.4.0): the same bytes on x86-64 and arm64 — bit-exact swscale, x264 code that gives
 *   its C code's pictures (MMX2 on x86-64, C on arm64), x264's SEI dropped, the mp4's optional
 *   constraint claims cleared, a gif's repeated local colour table left out.
 */
export type CpuPinning = 'sse4.2' | 'portable';

/**
 * A gif's FFmpeg pipeline.
 * - `single-run` (1.0.0–1.2.0): one run, `palettegen=max_colors=256:stats_mode=full` over every
 *   frame and `paletteuse=dither=bayer:bayer_scale=3`.
 * - `canonical-palette` (1.4.0): 192 colours from every third frame at half size, no dithering,
 *   rectangle diffs; two runs with the palette put in one layout between them (canonicalPalette).
 */
export type GifPipeline = 'single-run' | 'canonical-palette';

export interface EngineProfile {
  /** The engine version (versions.ts) whose bytes this profile gives; what the embedded recipe names. */
  readonly version: string;
  /** Every file carries its recipe, hash and engine version (recipe-metadata.ts; an mp4's through FFmpeg). From 1.3.0. */
  readonly embedsRecipe: boolean;
  readonly cpu: CpuPinning;
  readonly gif: {
    readonly pipeline: GifPipeline;
    /**
     * The frame plan (gifFramePlan, from 1.3.0): at most GIF_MAX_FPS, every second frame (third, …)
     * above it. False: every frame of the recipe at its own rate.
     */
    readonly capFps: boolean;
  };
  /** libx264's settings (the rest of an mp4's arguments follows `cpu`). */
  readonly mp4: { readonly preset: 'medium' | 'veryfast'; readonly crf: number };
}

/** The engine profiles a released version may be pinned to (1.0.0 and 1.3.0 pin none). */
const PROFILES = {
  // 2a88792: the first pinned engine (FFmpeg and x264 at the SSE4.2 baseline).
  '1.1.0': {
    version: '1.1.0',
    embedsRecipe: false,
    cpu: 'sse4.2',
    gif: { pipeline: 'single-run', capFps: false },
    mp4: { preset: 'medium', crf: 20 },
  },
  // 1dac23a, 3e3ef4b: x264 veryfast at crf 19 (nothing else changed), measured against medium at
  // crf 20 on the four animated generators at 1920×1080 (72 frames): 1.9–2.7× faster to encode, SSIM
  // within ±0.002, files 4–22% larger (README, Benchmark).
  '1.2.0': {
    version: '1.2.0',
    embedsRecipe: false,
    cpu: 'sse4.2',
    gif: { pipeline: 'single-run', capFps: false },
    mp4: { preset: 'veryfast', crf: 19 },
  },
  // Today's: the recipe in every file (1.3.0), gifs at most GIF_MAX_FPS (1.3.0), the same bytes on
  // x86-64 and arm64 (1.4.0).
  '1.4.0': {
    version: '1.4.0',
    embedsRecipe: true,
    cpu: 'portable',
    gif: { pipeline: 'canonical-palette', capFps: true },
    mp4: { preset: 'veryfast', crf: 19 },
  },
} as const satisfies Record<string, EngineProfile>;

/** Every engine version a release may be pinned to, oldest first. */
export const ENGINE_PROFILE_VERSIONS: readonly string[] = Object.keys(PROFILES);

function profileOf(version: string): EngineProfile {
  if (!Object.hasOwn(PROFILES, version))
    throw new Error(`no engine profile ${JSON.stringify(version)} (known: ${ENGINE_PROFILE_VERSIONS.join(', ')})`);
  return PROFILES[version as keyof typeof PROFILES];
}

/** Today's profile: ENGINE_VERSION's (a bump of it needs its row above, or nothing loads). */
export const CURRENT_ENGINE_PROFILE: EngineProfile = profileOf(ENGINE_VERSION);

/**
 * The profile template versions are encoded with. Fixed, as a generator release's is: a later profile
 * applies to template versions created after it, recorded with each version then.
 */
export const TEMPLATE_ENGINE_PROFILE = '1.4.0';

/** The profile of engine `version`; '' is today's (ENGINE_VERSION). Throws for a version without one. */
export function engineProfile(version: string): EngineProfile {
  return version === '' ? CURRENT_ENGINE_PROFILE : profileOf(version);
}
