/** Where the compiled service and CLI live (dist/). */
export const DIST_DIR: string;

/** The entry points, dist/<name>.js each, and their sources. */
export const ENTRIES: Record<'cli' | 'main' | 'worker' | 'render.worker' | 'superseded', string>;

/** The test tiers' bundle: the service's entry points and the golden digests' script, in dist-test/. */
export const TEST_BUNDLE: { dir: string; entries: Record<string, string> };

/** The esbuild options of the build, for the package at `root` (default: this one). */
export function buildOptions(root?: string, bundle?: { dir?: string; entries?: Record<string, string> }): Record<string, unknown>;

/** Builds dist/ (or `dir` from `entries`) unless it is current (or `force`); see build-service.mjs. */
export function buildService(options?: {
  force?: boolean;
  root?: string;
  dir?: string;
  entries?: Record<string, string>;
}): Promise<{ built: boolean; outputs: { file: string; bytes: number }[]; ms: number }>;
