// Every generator the service offers. Add a new one here after creating its folder.
import type { GeneratorDefinition } from './generator.types.ts';

export const ALL_GENERATORS: readonly GeneratorDefinition[] = [];
