// Every generator the service offers. Add a new one here after creating its folder;
// the registry sorts them by slug, so the order here does not matter.
import type { GeneratorDefinition } from './generator.types.ts';
import meshGradient from './mesh-gradient/mesh-gradient.generator.ts';
import linearGradient from './linear-gradient/linear-gradient.generator.ts';
import flowField from './flow-field/flow-field.generator.ts';
import voronoi from './voronoi/voronoi.generator.ts';
import truchet from './truchet/truchet.generator.ts';
import waves from './waves/waves.generator.ts';
import blob from './blob/blob.generator.ts';
import topography from './topography/topography.generator.ts';
import geometric from './geometric/geometric.generator.ts';
import identicon from './identicon/identicon.generator.ts';
import plasma from './plasma/plasma.generator.ts';
import starfield from './starfield/starfield.generator.ts';
import flowingGradient from './flowing-gradient/flowing-gradient.generator.ts';
import particleFlow from './particle-flow/particle-flow.generator.ts';
import socialCard from './social-card/social-card.generator.ts';
import halftone from './halftone/halftone.generator.ts';
import isometric from './isometric/isometric.generator.ts';
import aurora from './aurora/aurora.generator.ts';
import orbits from './orbits/orbits.generator.ts';
import metaballs from './metaballs/metaballs.generator.ts';

export const ALL_GENERATORS: readonly GeneratorDefinition[] = [
  meshGradient,
  linearGradient,
  flowField,
  voronoi,
  truchet,
  waves,
  blob,
  topography,
  geometric,
  identicon,
  plasma,
  starfield,
  flowingGradient,
  particleFlow,
  socialCard,
  halftone,
  isometric,
  aurora,
  orbits,
  metaballs,
] as unknown as GeneratorDefinition[];
