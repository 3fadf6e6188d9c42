import type { GeneratorDefinition } from './generator.types.ts';

export class GeneratorRegistry {
  private readonly bySlug: ReadonlyMap<string, GeneratorDefinition>;

  constructor(definitions: readonly GeneratorDefinition[]) {
    const map = new Map<string, GeneratorDefinition>();
    for (const def of definitions) {
      if (map.has(def.slug)) throw new Error(`Two generators share the slug "${def.slug}"`);
      map.set(def.slug, def);
    }
    // Slugs are [a-z0-9-] (recipe.ts), whose code-unit order is the collation order localeCompare
    // gave, without starting ICU's collator (tens of ms of a CLI render's start).
    this.bySlug = new Map([...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
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
