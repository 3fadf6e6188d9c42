/** Where the compiled service and CLI live (dist/). */
export const DIST_DIR: string;

/** The entry points, dist/<name>.js each, and their sources. */
export const ENTRIES: Record<'cli' | 'main' | 'worker' | 'render.worker', string>;

/** The esbuild options of the build, for the package at `root` (default: this one). */
export function buildOptions(root?: string): Record<string, unknown>;

/** Builds dist/ unless it is current (or `force`); see build-service.mjs. */
export function buildService(options?: {
  force?: boolean;
  root?: string;
}): Promise<{ built: boolean; outputs: { file: string; bytes: number }[]; ms: number }>;
