/** The package root. */
export const ROOT: string;
/** Where scripts/build-service.mjs writes the compiled service and CLI (dist/). */
export const SERVICE_DIST_DIR: string;

export interface Fingerprint {
  size: number;
  mtimeMs: number;
  sha256: string;
}

/** The stamp's record of `files` (relative to `root`). */
export function fingerprints(root: string, files: Iterable<string>): Record<string, Fingerprint>;

/** The stamp in `dir`/build.json when the build there is current, else undefined. */
export function currentStamp(
  root: string,
  dir: string,
): ({ inputs: Record<string, Fingerprint>; outputs: { file: string }[] } & Record<string, unknown>) | undefined;

/** The file URL of the compiled entry point `name` when the service build is current, else undefined. */
export function currentServiceEntry(name: string): string | undefined;
