// The public view of a generator (the Generator schema of the contract).
import type { components } from '../../codegen/openapi.ts';
import { DEFAULT_SIZE } from '../config/limits.ts';
import type { GeneratorDefinition } from './generator.types.ts';
import type { ReleaseState } from './registry.ts';

export type GeneratorView = components['schemas']['Generator'];
export type GeneratorDetailView = components['schemas']['GeneratorDetail'];
export type GeneratorVersionView = components['schemas']['GeneratorVersion'];

export function toGeneratorView(def: GeneratorDefinition): GeneratorView {
  const animation = def.animated && def.animation ? def.animation(def.defaults) : null;
  return {
    slug: def.slug,
    name: def.name,
    description: def.description,
    version: def.version,
    animated: def.animated,
    formats: [...def.formats],
    // What a recipe without a size renders at (the specification's 1920×1080, for every generator)…
    defaultSize: { width: DEFAULT_SIZE.width, height: DEFAULT_SIZE.height },
    // …and the shape the generator is made for, which the playground opens at.
    suggestedSize: { width: def.suggestedSize?.width ?? DEFAULT_SIZE.width, height: def.suggestedSize?.height ?? DEFAULT_SIZE.height },
    defaults: def.defaults,
    paramSchema: def.paramSchema,
    animation,
  };
}

/** GET /v1/generators/{slug}: the generator and every version it released. */
export function toGeneratorDetailView(def: GeneratorDefinition, releases: readonly ReleaseState[]): GeneratorDetailView {
  return { ...toGeneratorView(def), versions: releases.map(toVersionView) };
}

function toVersionView({ release, status, sunsetAt, successor }: ReleaseState): GeneratorVersionView {
  return {
    version: release.version,
    status,
    releasedAt: release.releasedAt,
    ...(release.supersededAt !== undefined ? { supersededAt: release.supersededAt } : {}),
    ...(sunsetAt !== undefined ? { sunsetAt } : {}),
    ...(successor !== undefined ? { successor } : {}),
    engineVersion: release.engine,
    formats: [...(release.definition?.formats ?? [])],
    ...(release.notKept !== undefined ? { reason: release.notKept } : {}),
  };
}
