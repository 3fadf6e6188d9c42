import type { GeneratorDefinition } from './generator.types.ts';

export class GeneratorRegistry {
  private readonly bySlug: ReadonlyMap<string, GeneratorDefinition>;

  constructor(definitions: readonly GeneratorDefinition[]) {
    const map = new Map<string, GeneratorDefinition>();
    for (const def of definitions) {
      if (map.has(def.slug)) throw new Error(`Two generators share the slug "${def.slug}"`);
      map.set(def.slug, def);
    }
    this.bySlug = new Map([...map].sort(([a], [b]) => a.localeCompare(b)));
  }

  get size(): number {
    return this.bySlug.size;
  }

  list(): GeneratorDefinition[] {
    return [...this.bySlug.values()];
  }

  get(slug: string): GeneratorDefinition | undefined {
    return this.bySlug.get(slug);
  }
}
