// Seeded randomness. mulberry32 is tiny, fast and has a full 2^32 period, which is all a
// picture needs; it is deterministic across platforms because it only uses 32-bit integer math.

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over a string, then mixed: a stable 32-bit hash for deriving sub-seeds. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A PRNG for a named purpose ("particles", "palette"), independent of other streams. */
export function subRandom(seed: number, purpose: string): () => number {
  return mulberry32((seed ^ hash32(purpose)) >>> 0);
}

export function range(random: () => number, min: number, max: number): number {
  return min + (max - min) * random();
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length) % items.length];
}

/**
 * Like subRandom, but the seed is hashed together with the purpose, so nearby seeds (1, 2, 3…)
 * start well-mixed streams. subRandom only XORs the seed into the state, and mulberry32's first
 * outputs from states that differ in a few low bits are strongly correlated (seeds 2, 3, 5 and 6
 * all start below 0.08 for some purposes), which makes small seeds look alike.
 */
export function seededStream(seed: number, purpose: string): () => number {
  return mulberry32(hash32(`${purpose}#${seed >>> 0}`));
}
