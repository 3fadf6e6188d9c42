/** Why the arm64 tier cannot run on this machine (qemu-aarch64 or the arm64 libraries missing), or undefined. */
export function arm64Missing(): string | undefined;

/** The cache directory: ARM64_CACHE_DIR, else ${XDG_CACHE_HOME:-~/.cache}/render-service-arm64. */
export function cacheDir(): string;

export interface Arm64Setup {
  qemu: string;
  sysroot: string;
  nodeVersion: string;
  /** The arm64 node binary itself (run it with qemu). */
  node: string;
  /** The project's production dependencies for linux-arm64. */
  nodeModules: string;
  /** Host scripts that start the arm64 programs under qemu-aarch64. */
  bin: { node: string; ffmpeg: string; esbuild: string };
  /** For an arm64 Node process: FFMPEG_PATH and ESBUILD_BINARY_PATH as arm64 programs under qemu, QEMU_LD_PREFIX. */
  env: Record<string, string>;
}

/** Prepares (or finds, in the cache) the arm64 Node, dependencies and wrappers; throws when arm64Missing() says why not. */
export function prepareArm64(options?: { log?: (line: string) => void }): Arm64Setup;
