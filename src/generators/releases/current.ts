// The current generator versions' releases: their dates and the engine profile they are encoded with.
// Every released version, superseded ones included, is ./index.ts.
import type { GeneratorRelease } from '../generator.types.ts';
import { ALL_GENERATORS } from '../index.ts';

/** The day each current version was first served, by slug (the commit that introduced it). */
const CURRENT_RELEASED_AT: Readonly<Record<string, string>> = {
  aurora: '2026-11-26',
  blob: '2026-11-26',
  'flow-field': '2026-11-26',
  'flowing-gradient': '2026-11-26',
  geometric: '2026-11-26',
  halftone: '2026-11-26',
  identicon: '2026-11-26',
  isometric: '2026-11-26',
  'linear-gradient': '2026-11-26',
  'mesh-gradient': '2026-11-26',
  metaballs: '2026-11-26',
  orbits: '2026-11-26',
  'particle-flow': '2026-11-26',
  plasma: '2026-11-26',
  'social-card': '2026-11-29',
  starfield: '2026-11-26',
  topography: '2026-11-26',
  truchet: '2026-11-26',
  voronoi: '2026-11-26',
  waves: '2026-11-26',
};

/**
 * The engine profile of every version current when recipes began to pin it (engine 1.4.0): a later
 * engine release encodes new versions only, and these keep 1.4.0's bytes.
 */
const CURRENT_ENGINE = '1.4.0';

/** The current versions' releases (cheap to load: no superseded code). */
export const CURRENT_RELEASES: readonly GeneratorRelease[] = ALL_GENERATORS.map((definition): GeneratorRelease => ({
  slug: definition.slug,
  version: definition.version,
  definition,
  releasedAt: CURRENT_RELEASED_AT[definition.slug] ?? '',
  engine: CURRENT_ENGINE,
}));
