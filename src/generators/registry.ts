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

  private prepared: Promise<void> | undefined;

  /**
   * Settles once every generator — or only the one `slug` names, when given — has loaded what it needs
   * to check recipes and draw (once per thread): the shaper for text, which takes a while to load.
   */
  ready(slug?: string): Promise<void> {
    if (slug !== undefined) return Promise.resolve(this.bySlug.get(slug)?.prepare?.()).then(() => undefined);
    this.prepared ??= Promise.all([...this.bySlug.values()].map((def) => def.prepare?.())).then(() => undefined);
    return this.prepared;
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
