// A build's stamp: the files it was made from (each with its size, modification time and content
// hash) and the files it wrote, kept in the build's own build.json. A build is current while every
// file it was made from is unchanged — the same size and time, or, after a checkout or a touch, the
// same content — and every file it wrote is still there. scripts/build-web.mjs and
// scripts/build-service.mjs skip a build that is current; bin/render-service.mjs runs the compiled
// CLI only when its build is. No dependencies: the bin reads this on every start.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// node:crypto is loaded only to hash, which a check does only for a file whose time changed: the bin
// checks the build on every start, and importing crypto costs more than the check.
const require = createRequire(import.meta.url);

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where scripts/build-service.mjs writes the compiled service and CLI. */
export const SERVICE_DIST_DIR = path.join(ROOT, 'dist');

const sha256 = (file) => require('node:crypto').createHash('sha256').update(readFileSync(file)).digest('hex');

/**
 * The stamp's record of `files` (paths relative to `root`, '/'-separated): size, time and hash each.
 * @param {string} root
 * @param {Iterable<string>} files
 * @returns {Record<string, { size: number, mtimeMs: number, sha256: string }>}
 */
export function fingerprints(root, files) {
  const record = {};
  for (const rel of [...new Set(files)].sort()) {
    const file = path.join(root, rel);
    const { size, mtimeMs } = statSync(file);
    record[rel] = { size, mtimeMs, sha256: sha256(file) };
  }
  return record;
}

/**
 * The stamp in `dir`/build.json when the build there is current (see above), else undefined.
 * @param {string} root
 * @param {string} dir
 * @returns {{ inputs: Record<string, { size: number, mtimeMs: number, sha256: string }>, outputs: { file: string }[] } & Record<string, unknown> | undefined}
 */
export function currentStamp(root, dir) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(path.join(dir, 'build.json'), 'utf8'));
  } catch {
    return undefined;
  }
  if (!stamp || typeof stamp.inputs !== 'object' || !Array.isArray(stamp.outputs) || Object.keys(stamp.inputs).length === 0)
    return undefined;
  for (const [rel, was] of Object.entries(stamp.inputs)) {
    const file = path.join(root, rel);
    const now = statSync(file, { throwIfNoEntry: false });
    if (!now || now.size !== was.size) return undefined;
    if (now.mtimeMs !== was.mtimeMs && sha256(file) !== was.sha256) return undefined;
  }
  for (const { file } of stamp.outputs) if (!existsSync(path.join(dir, file))) return undefined;
  return stamp;
}

/**
 * The file URL of the compiled entry point `name` (cli, main, worker) when the service build is
 * current, else undefined (no build, or a source changed since it was made).
 * @param {string} name
 * @returns {string | undefined}
 */
export function currentServiceEntry(name) {
  const stamp = currentStamp(ROOT, SERVICE_DIST_DIR);
  const file = stamp?.entries?.[name];
  return typeof file === 'string' ? pathToFileURL(path.join(SERVICE_DIST_DIR, file)).href : undefined;
}
