import type { GeneratorDefinition, GeneratorRelease } from './generator.types.ts';

/** A superseded version keeps rendering for at least this long after it was superseded (docs/versioning.md). */
export const DEPRECATION_MONTHS = 12;

export type ReleaseStatus = 'current' | 'deprecated' | 'retired';

/** A release as the service serves it today. */
export interface ReleaseState {
  release: GeneratorRelease;
  status: ReleaseStatus;
  /** The first day it no longer renders (YYYY-MM-DD): supersededAt + DEPRECATION_MONTHS. Superseded versions only. */
  sunsetAt?: string;
  /** The version that replaced it (the current one). */
  successor?: string;
}

export function sunsetDate(supersededAt: string): string {
  const d = new Date(`${supersededAt}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + DEPRECATION_MONTHS);
  return d.toISOString().slice(0, 10);
}

export class GeneratorRegistry {
  private readonly bySlug: ReadonlyMap<string, GeneratorDefinition>;
  private readonly releasesBySlug = new Map<string, GeneratorRelease[]>();
  private readonly now: () => Date;

  /**
   * `releases`: the released versions (current and superseded) with their dates; a current definition
   * it leaves out (tests, tools that render today's versions only) is its own undated release.
   */
  constructor(definitions: readonly GeneratorDefinition[], releases?: readonly GeneratorRelease[], options: { now?: () => Date } = {}) {
    this.now = options.now ?? (() => new Date());
    const map = new Map<string, GeneratorDefinition>();
    for (const def of definitions) {
      if (map.has(def.slug)) throw new Error(`Two generators share the slug "${def.slug}"`);
      map.set(def.slug, def);
    }
    // Slugs are [a-z0-9-] (recipe.ts), whose code-unit order is the collation order localeCompare
    // gave, without starting ICU's collator (tens of ms of a CLI render's start).
    this.bySlug = new Map([...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    for (const release of releases ?? []) {
      const list = this.releasesBySlug.get(release.slug) ?? [];
      if (list.some((r) => r.version === release.version)) throw new Error(`${release.slug}@${release.version} is released twice`);
      list.push(release);
      this.releasesBySlug.set(release.slug, list);
    }
    // A current version without a record of its own is an undated release on today's engine (a registry
    // of today's versions only); one with a record must be that version, current.
    for (const def of this.bySlug.values()) {
      const list = this.releasesBySlug.get(def.slug) ?? [];
      const current = list.find((r) => r.version === def.version);
      if (!current) this.releasesBySlug.set(def.slug, [...list, undefinedRelease(def)]);
      else if (current.definition !== def || current.supersededAt !== undefined)
        throw new Error(`${def.slug}@${def.version}'s release record is not its current version`);
    }
    for (const list of this.releasesBySlug.values()) list.sort((a, b) => compareVersions(a.version, b.version));
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

  /** The current version of every generator. */
  list(): GeneratorDefinition[] {
    return [...this.bySlug.values()];
  }

  /** A generator's current version. */
  get(slug: string): GeneratorDefinition | undefined {
    return this.bySlug.get(slug);
  }

  /** Every released version of a generator, oldest first, with what the service does with each today. */
  releases(slug: string): ReleaseState[] {
    const current = this.bySlug.get(slug);
    return (this.releasesBySlug.get(slug) ?? []).map((release) => this.state(release, current));
  }

  /** One released version (undefined: never released), with its status today. */
  release(slug: string, version: string): ReleaseState | undefined {
    const current = this.bySlug.get(slug);
    const release = current && this.releasesBySlug.get(slug)?.find((r) => r.version === version);
    return release && this.state(release, current);
  }

  private state(release: GeneratorRelease, current: GeneratorDefinition | undefined): ReleaseState {
    if (release.supersededAt === undefined) return { release, status: 'current' };
    const sunsetAt = sunsetDate(release.supersededAt);
    const over = !release.definition || this.now().toISOString().slice(0, 10) >= sunsetAt;
    return { release, status: over ? 'retired' : 'deprecated', sunsetAt, successor: current?.version };
  }
}

/** A current definition without a release record (a registry built without `releases`): today's engine. */
function undefinedRelease(def: GeneratorDefinition): GeneratorRelease {
  return { slug: def.slug, version: def.version, definition: def, releasedAt: '', engine: '' };
}

/** Semver order of plain x.y.z versions. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}
