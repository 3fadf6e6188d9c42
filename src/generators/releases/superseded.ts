// The superseded versions, restored from the history as they were when they were last current
// (docs/superseded-versions.md has where each came from and what its bytes were).
import type { GeneratorRelease } from '../generator.types.ts';

export const SUPERSEDED_RELEASES: readonly GeneratorRelease[] = [];
