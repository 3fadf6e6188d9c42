/** Types of scripts/test-scratch.mjs (where a test run's temporary files go). */
export const SCRATCH_PREFIX: string;
export const SCRATCH_MIN_BYTES: number;
export const TMPFS_MAGIC: number;
export function makeScratchDir(options?: {
  shm?: string;
  env?: Record<string, string | undefined>;
  isRunning?: (pid: number) => boolean;
}): string | undefined;
