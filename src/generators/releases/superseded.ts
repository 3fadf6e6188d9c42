// The superseded versions, restored from the history as they were when they were last current
// (docs/superseded-versions.md has where each came from and what its bytes were). Each file is the
// version's generator as its last golden was committed (2a88792, 1dac23a or 3e3ef4b), with only its
// imports changed: it draws through ./lib/<commit>/, the lib modules as they were at that commit.
// releasedAt / supersededAt are the UTC days of the commits that introduced and replaced the version;
// engine is the engine version its last golden was encoded with.
import type { GeneratorDefinition, GeneratorRelease } from '../generator.types.ts';
import auroraV100 from './aurora/1.0.0.generator.ts';
import blobV100 from './blob/1.0.0.generator.ts';
import blobV110 from './blob/1.1.0.generator.ts';
import blobV120 from './blob/1.2.0.generator.ts';
import flowFieldV100 from './flow-field/1.0.0.generator.ts';
import flowingGradientV100 from './flowing-gradient/1.0.0.generator.ts';
import flowingGradientV110 from './flowing-gradient/1.1.0.generator.ts';
import flowingGradientV120 from './flowing-gradient/1.2.0.generator.ts';
import geometricV100 from './geometric/1.0.0.generator.ts';
import geometricV110 from './geometric/1.1.0.generator.ts';
import halftoneV100 from './halftone/1.0.0.generator.ts';
import identiconV100 from './identicon/1.0.0.generator.ts';
import isometricV100 from './isometric/1.0.0.generator.ts';
import linearGradientV100 from './linear-gradient/1.0.0.generator.ts';
import linearGradientV110 from './linear-gradient/1.1.0.generator.ts';
import linearGradientV120 from './linear-gradient/1.2.0.generator.ts';
import meshGradientV100 from './mesh-gradient/1.0.0.generator.ts';
import meshGradientV110 from './mesh-gradient/1.1.0.generator.ts';
import metaballsV100 from './metaballs/1.0.0.generator.ts';
import orbitsV100 from './orbits/1.0.0.generator.ts';
import particleFlowV100 from './particle-flow/1.0.0.generator.ts';
import plasmaV100 from './plasma/1.0.0.generator.ts';
import plasmaV110 from './plasma/1.1.0.generator.ts';
import plasmaV120 from './plasma/1.2.0.generator.ts';
import starfieldV100 from './starfield/1.0.0.generator.ts';
import starfieldV110 from './starfield/1.1.0.generator.ts';
import starfieldV120 from './starfield/1.2.0.generator.ts';
import topographyV100 from './topography/1.0.0.generator.ts';
import truchetV100 from './truchet/1.0.0.generator.ts';
import truchetV110 from './truchet/1.1.0.generator.ts';
import voronoiV100 from './voronoi/1.0.0.generator.ts';
import wavesV100 from './waves/1.0.0.generator.ts';
import wavesV110 from './waves/1.1.0.generator.ts';

/** A frozen definition, typed by its own params, as the registry holds every definition. */
function frozen<P extends Record<string, unknown>>(definition: GeneratorDefinition<P>): GeneratorDefinition {
  return definition as unknown as GeneratorDefinition;
}

const HOST_FONTS =
  'drew its text with Skia, which falls back to the fonts installed on the host (an installed colour emoji font changed its bytes), so it cannot render the same bytes on every machine';

/** Ordered by slug, then version. */
export const SUPERSEDED_RELEASES: readonly GeneratorRelease[] = [
  {
    slug: 'aurora',
    version: '1.0.0',
    definition: frozen(auroraV100),
    releasedAt: '2026-11-26',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'blob',
    version: '1.0.0',
    definition: frozen(blobV100),
    releasedAt: '2026-11-23',
    supersededAt: '2026-11-23',
    engine: '1.1.0',
  },
  {
    slug: 'blob',
    version: '1.1.0',
    definition: frozen(blobV110),
    releasedAt: '2026-11-23',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'blob',
    version: '1.2.0',
    definition: frozen(blobV120),
    releasedAt: '2026-11-26',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'flow-field',
    version: '1.0.0',
    definition: frozen(flowFieldV100),
    releasedAt: '2026-11-23',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'flowing-gradient',
    version: '1.0.0',
    definition: frozen(flowingGradientV100),
    releasedAt: '2026-11-23',
    supersededAt: '2026-11-23',
    engine: '1.1.0',
  },
  {
    slug: 'flowing-gradient',
    version: '1.1.0',
    definition: frozen(flowingGradientV110),
    releasedAt: '2026-11-23',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'flowing-gradient',
    version: '1.2.0',
    definition: frozen(flowingGradientV120),
    releasedAt: '2026-11-26',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'geometric',
    version: '1.0.0',
    definition: frozen(geometricV100),
    releasedAt: '2026-11-23',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'geometric',
    version: '1.1.0',
    definition: frozen(geometricV110),
    releasedAt: '2026-11-26',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'halftone',
    version: '1.0.0',
    definition: frozen(halftoneV100),
    releasedAt: '2026-11-26',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'identicon',
    version: '1.0.0',
    definition: frozen(identiconV100),
    releasedAt: '2026-11-23',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
    defaultSize: { width: 256, height: 256 },
  },
  {
    slug: 'isometric',
    version: '1.0.0',
    definition: frozen(isometricV100),
    releasedAt: '2026-11-26',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'linear-gradient',
    version: '1.0.0',
    definition: frozen(linearGradientV100),
    releasedAt: '2026-11-23',
    supersededAt: '2026-11-23',
    engine: '1.1.0',
  },
  {
    slug: 'linear-gradient',
    version: '1.1.0',
    definition: frozen(linearGradientV110),
    releasedAt: '2026-11-23',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'linear-gradient',
    version: '1.2.0',
    definition: frozen(linearGradientV120),
    releasedAt: '2026-11-26',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'mesh-gradient',
    version: '1.0.0',
    definition: frozen(meshGradientV100),
    releasedAt: '2026-11-23',
    supersededAt: '2026-11-23',
    engine: '1.1.0',
  },
  {
    slug: 'mesh-gradient',
    version: '1.1.0',
    definition: frozen(meshGradientV110),
    releasedAt: '2026-11-23',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'metaballs',
    version: '1.0.0',
    definition: frozen(metaballsV100),
    releasedAt: '2026-11-26',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'orbits',
    version: '1.0.0',
    definition: frozen(orbitsV100),
    releasedAt: '2026-11-26',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'particle-flow',
    version: '1.0.0',
    definition: frozen(particleFlowV100),
    releasedAt: '2026-11-23',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'plasma',
    version: '1.0.0',
    definition: frozen(plasmaV100),
    releasedAt: '2026-11-23',
    supersededAt: '2026-11-23',
    engine: '1.1.0',
  },
  {
    slug: 'plasma',
    version: '1.1.0',
    definition: frozen(plasmaV110),
    releasedAt: '2026-11-23',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'plasma',
    version: '1.2.0',
    definition: frozen(plasmaV120),
    releasedAt: '2026-11-26',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'social-card',
    version: '1.0.0',
    releasedAt: '2026-11-26',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
    defaultSize: { width: 1200, height: 630 },
    notKept: HOST_FONTS,
  },
  {
    slug: 'social-card',
    version: '2.0.0',
    releasedAt: '2026-11-26',
    supersededAt: '2026-11-29',
    engine: '1.4.0',
    notKept: HOST_FONTS,
  },
  {
    slug: 'starfield',
    version: '1.0.0',
    definition: frozen(starfieldV100),
    releasedAt: '2026-11-23',
    supersededAt: '2026-11-23',
    engine: '1.1.0',
  },
  {
    slug: 'starfield',
    version: '1.1.0',
    definition: frozen(starfieldV110),
    releasedAt: '2026-11-23',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'starfield',
    version: '1.2.0',
    definition: frozen(starfieldV120),
    releasedAt: '2026-11-26',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'topography',
    version: '1.0.0',
    definition: frozen(topographyV100),
    releasedAt: '2026-11-23',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'truchet',
    version: '1.0.0',
    definition: frozen(truchetV100),
    releasedAt: '2026-11-23',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'truchet',
    version: '1.1.0',
    definition: frozen(truchetV110),
    releasedAt: '2026-11-26',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'voronoi',
    version: '1.0.0',
    definition: frozen(voronoiV100),
    releasedAt: '2026-11-23',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
  {
    slug: 'waves',
    version: '1.0.0',
    definition: frozen(wavesV100),
    releasedAt: '2026-11-23',
    supersededAt: '2026-11-23',
    engine: '1.1.0',
  },
  {
    slug: 'waves',
    version: '1.1.0',
    definition: frozen(wavesV110),
    releasedAt: '2026-11-23',
    supersededAt: '2026-11-26',
    engine: '1.2.0',
  },
];
