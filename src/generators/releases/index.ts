// Every released generator version: the current ones (./current.ts) and the superseded ones, kept as
// they were (./<slug>/<version>.generator.ts, drawing with ./lib, the libs as they were then). A recipe
// pins its version, and a version renders the same bytes for as long as it is served:
// docs/versioning.md. A version's code here is frozen: fix nothing in it, add a new version instead.
import type { GeneratorRelease } from '../generator.types.ts';
import { CURRENT_RELEASES } from './current.ts';
import { SUPERSEDED_RELEASES } from './superseded.ts';

export const ALL_RELEASES: readonly GeneratorRelease[] = [...CURRENT_RELEASES, ...SUPERSEDED_RELEASES];
