// The contract every generator implements. The engine owns canvases, encoders,
// validation and hashing; a generator only turns (params, seed, size, time) into a picture.
import type { SKRSContext2D } from '@napi-rs/canvas';

import type { OutputFormat } from '../lib/formats.ts';

/** A JSON Schema (draft 2020-12) object describing a generator's params. */
export type ParamSchema = {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  additionalProperties?: boolean;
  [keyword: string]: unknown;
};

export interface RenderInput<P> {
  /** Generator defaults merged with the caller's params, already validated against paramSchema. */
  params: P;
  /** Effective seed, 1..4294967295 (seed 0 is resolved by the engine before generators see it). */
  seed: number;
  /** Logical size. The 2D context is pre-scaled by pixelRatio, so draw in these units. */
  width: number;
  height: number;
  pixelRatio: number;
  /**
   * A fresh deterministic PRNG seeded from `seed`, uniform in [0, 1). It restarts for every
   * call (and every frame), so a generator that draws the same sequence gets the same values.
   * Never use Math.random, Date or anything else that varies between runs.
   */
  random: () => number;
}

export interface FrameInput<P> extends RenderInput<P> {
  /** 0-based frame index; 0 for still images. */
  frame: number;
  /** Total frames; 1 for still images. */
  frameCount: number;
  /** Seconds since the start: frame / fps (0 for still images). */
  time: number;
  /** Position in the loop, frame / frameCount in [0, 1). Animations should loop seamlessly on it. */
  loop: number;
}

export interface AnimationSpec {
  fps: number;
  frames: number;
}

export interface GeneratorDefinition<P extends Record<string, unknown> = Record<string, unknown>> {
  /** URL-safe id: lowercase letters, digits and dashes. */
  slug: string;
  name: string;
  description: string;
  /** Semver. Bump it whenever the output for any recipe changes: the version is part of the recipe hash. */
  version: string;
  animated: boolean;
  /** Still generators: png, webp (+ svg / css where offered). Animated: gif, mp4 (+ png/webp of frame 0). */
  formats: readonly OutputFormat[];
  /**
   * The size the playground suggests, when 1920×1080 is the wrong shape (an avatar, a social card).
   * Only a suggestion: a recipe without a size is DEFAULT_SIZE for every generator (the specification).
   */
  suggestedSize?: { readonly width: number; readonly height: number };
  defaults: P;
  paramSchema: ParamSchema;
  /**
   * Text params holding characters the generator cannot draw (no bundled font has them), checked
   * after paramSchema; the recipe is refused with 400 unsupported_characters naming each grapheme.
   */
  unsupportedText?: (params: P) => Array<{ param: string; graphemes: string[] }>;
  /**
   * Problems with params that their schema cannot see, checked after paramSchema and
   * unsupportedText (a template: an asset that is missing, a text that refuses to overflow and does
   * not fit). `param` names the param (a template's variable) or a field of the generator itself.
   * Needs prepare() done.
   */
  checkParams?: (params: P) => Array<{ param: string; message: string; keyword: string }>;
  /**
   * Loads what the generator needs before it can check a recipe or draw (social-card: HarfBuzz in
   * WebAssembly). A generator registry's ready() awaits it once per thread; the render engine
   * and the render worker await that before their first recipe.
   */
  prepare?: () => Promise<void>;
  /** Animated generators: frame rate and frame count for the given params (both bounded by the schema). */
  animation?: (params: P) => AnimationSpec;
  /**
   * Draw one frame onto a transparent canvas of (width × pixelRatio) × (height × pixelRatio) device
   * pixels. The context is already scaled by pixelRatio. For per-pixel work use
   * ctx.canvas.width / ctx.canvas.height (device pixels) with createImageData/putImageData,
   * which ignore the transform.
   */
  draw(ctx: SKRSContext2D, input: FrameInput<P>): void;
  /**
   * The whole frame as opaque RGBA device pixels (`device.width × device.height × 4` bytes), for a
   * generator that computes every pixel in JavaScript: the engine takes them as they are and skips
   * the canvas and its read-back (~20 ms a 1080p frame). draw() must leave exactly these pixels on
   * the canvas — `drawPixels` (lib/pixels.ts) makes it so, and the generator contract checks it.
   */
  pixels?(input: FrameInput<P>, device: { width: number; height: number }): Uint8ClampedArray;
  /** Vector form of the same picture: a complete standalone SVG document. Required when formats include 'svg'. */
  svg?(input: RenderInput<P>): string;
  /** CSS form: a stylesheet with a class and custom properties. Required when formats include 'css'. */
  css?(input: RenderInput<P>): string;
}

/** Identity helper that keeps a generator's param type while checking it against the contract. */
export function defineGenerator<P extends Record<string, unknown>>(def: GeneratorDefinition<P>): GeneratorDefinition<P> {
  return def;
}

/**
 * One released version of a generator: what a recipe pinning `slug@version` renders with, and for how
 * long. A released version's output never changes (docs/versioning.md): its code, the libs it draws
 * with and the engine profile that encodes it are kept as they were.
 */
export interface GeneratorRelease {
  slug: string;
  version: string;
  /** The version's code; absent for a version that could not be kept (`notKept` says why). */
  definition?: GeneratorDefinition;
  /** The day it was first served (YYYY-MM-DD). */
  releasedAt: string;
  /** The day a newer version replaced it (YYYY-MM-DD); absent while it is current. */
  supersededAt?: string;
  /** The engine profile its files are encoded with (src/engine/engine-profiles.ts): part of its bytes. */
  engine: string;
  /** The size a recipe without one rendered at in this version (before every generator's default became 1920×1080). */
  defaultSize?: { readonly width: number; readonly height: number };
  /** Why a released version is not served again (it drew with the host's fonts). */
  notKept?: string;
}
