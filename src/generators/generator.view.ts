// The public view of a generator (the Generator schema of the contract).
import type { components } from '../../codegen/openapi.ts';
import { DEFAULT_SIZE } from '../config/limits.ts';
import type { GeneratorDefinition } from './generator.types.ts';

export type GeneratorView = components['schemas']['Generator'];

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
