// The golden set: one small recipe for every generator × format. Their output hashes are committed
// in goldens.json; any drift fails the suite. `npm run goldens:update` rewrites the file — do that
// only together with a generator version bump (or an ENGINE_VERSION / renderer change).
import type { GeneratorDefinition } from '../../src/generators/generator.types.ts';
import type { OutputFormat } from '../../src/lib/formats.ts';
import { ALL_GENERATORS } from '../../src/generators/index.ts';
import { SUPERSEDED_RELEASES } from '../../src/generators/releases/superseded.ts';
import type { GoldenCase } from './golden-case.ts';
import { textGoldenCases } from './golden-recipes.text.ts';

export type { GoldenCase } from './golden-case.ts';

/** Short, small animations keep the suite fast while still exercising the motion encoders. */
function shortAnimation(def: GeneratorDefinition): Record<string, unknown> {
  const props = def.paramSchema.properties;
  const params: Record<string, unknown> = {};
  if ('duration' in props) params.duration = (props.duration.minimum as number | undefined) ?? 1;
  if ('fps' in props) params.fps = (props.fps.minimum as number | undefined) ?? 10;
  return params;
}

function versionCases(def: GeneratorDefinition, version?: string): GoldenCase[] {
  return def.formats.map((format: OutputFormat) => ({
    id: `${def.slug}@${def.version}.${format}`,
    slug: def.slug,
    input: { seed: 42, size: { width: 96, height: 64, pixelRatio: 1 }, format, params: def.animated ? shortAnimation(def) : {} },
    ...(version !== undefined ? { version } : {}),
  }));
}

/** The current versions' cases: what every platform renders (the determinism tier too). */
export function goldenCases(): GoldenCase[] {
  return ALL_GENERATORS.flatMap((def) => versionCases(def)).concat(textGoldenCases());
}

/**
 * Every superseded version's cases, as its last goldens were recorded: their bytes are the ones its
 * recipes were served with, and stay so (docs/versioning.md). On x86-64 only: the frozen code
 * computes with V8's Math and old encoder pins (docs/superseded-versions.md).
 */
export function supersededGoldenCases(): GoldenCase[] {
  return SUPERSEDED_RELEASES.flatMap((release) => (release.definition ? versionCases(release.definition, release.version) : []));
}

/**
 * Sizes where Skia's CPU-dependent paths used to show (its float pipeline rounds differently with
 * AVX2/FMA; blob's and waves' only at the larger one). Their digests are committed in
 * canvas-sizes.json beside goldens.json, so each platform renders them once and compares.
 */
export const CANVAS_SIZES: readonly { width: number; height: number }[] = [
  { width: 640, height: 360 },
  { width: 1200, height: 630 },
];

/**
 * Every generator's png (all of them draw with canvas) and starfield's gif (its frames move its
 * drawing around) at each of `sizes`, as `<golden id>@WxH`. Generators keep gradients and smoothed
 * scaling out of Skia (src/generators/lib/gradient.ts, resample.ts); these fail for any that stops.
 */
export function canvasCases(sizes: readonly { width: number; height: number }[] = CANVAS_SIZES): GoldenCase[] {
  return goldenCases()
    .filter((c) => c.input.format === 'png' || (c.slug === 'starfield' && c.input.format === 'gif'))
    .flatMap((c) =>
      sizes.map((size) => ({
        ...c,
        id: `${c.id}@${size.width}x${size.height}`,
        input: { ...c.input, size: { ...size, pixelRatio: 1 } },
      })),
    );
}
