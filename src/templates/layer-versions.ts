// Which version of a generator a template's generator layer draws with. A template version is
// immutable, and so is its picture: each generator layer pins its generator's version, filled in with
// the current one when the version is created (pinLayerVersions), so a generator's next release
// does not change the template's bytes (docs/versioning.md).
import type { GeneratorDefinition } from '../generators/generator.types.ts';
import type { GeneratorRegistry } from '../generators/registry.ts';
import type { GeneratorLayer, TemplateSpec } from './template.types.ts';

/**
 * The versions current when layers began to be pinned (2026-11-29): what a layer stored before then,
 * without a version, was drawn with. Frozen: never update this table.
 */
const UNPINNED_LAYER_VERSIONS: Readonly<Record<string, string>> = {
  aurora: '1.2.0',
  blob: '1.3.0',
  'flow-field': '1.2.0',
  'flowing-gradient': '1.3.0',
  geometric: '1.2.0',
  halftone: '1.2.0',
  identicon: '1.1.0',
  isometric: '1.1.0',
  'linear-gradient': '1.3.0',
  'mesh-gradient': '1.2.0',
  metaballs: '1.1.0',
  orbits: '1.2.0',
  'particle-flow': '1.1.0',
  plasma: '1.3.0',
  'social-card': '3.0.0',
  starfield: '1.4.0',
  topography: '1.2.0',
  truchet: '2.0.0',
  voronoi: '1.1.0',
  waves: '1.3.0',
};

/** The version a layer draws with: its own, or (stored before pinning) the one current then. */
export function layerVersion(layer: Pick<GeneratorLayer, 'slug' | 'version'>): string | undefined {
  return layer.version ?? UNPINNED_LAYER_VERSIONS[layer.slug];
}

/** The generator definition a layer draws with; undefined for an unknown slug or a version without code. */
export function layerGenerator(
  generators: GeneratorRegistry,
  layer: Pick<GeneratorLayer, 'slug' | 'version'>,
): GeneratorDefinition | undefined {
  const version = layerVersion(layer);
  return version === undefined ? generators.get(layer.slug) : generators.release(layer.slug, version)?.release.definition;
}

/** The spec with every generator layer pinned: a layer without a version gets the current one (a new template version). */
export function pinLayerVersions(spec: TemplateSpec, generators: GeneratorRegistry): TemplateSpec {
  return {
    ...spec,
    layers: spec.layers.map((layer) =>
      layer.kind === 'generator' && layer.version === undefined && generators.get(layer.slug)
        ? { ...layer, version: generators.get(layer.slug)!.version }
        : layer,
    ),
  };
}

/** Whether a spec's layers draw with any version that is not current (the render thread then loads the frozen ones). */
export function drawsSupersededVersions(spec: TemplateSpec, generators: GeneratorRegistry): boolean {
  return spec.layers.some(
    (l) => l.kind === 'generator' && generators.get(l.slug) !== undefined && layerVersion(l) !== generators.get(l.slug)!.version,
  );
}
