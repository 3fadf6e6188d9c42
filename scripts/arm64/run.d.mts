/** Runs `entry` (relative to the repository) with `args` as linux-arm64 under qemu-aarch64 (see run.mjs). */
export function runArm64(
  entry: string,
  args?: string[],
  options?: {
    timeoutMs?: number;
    onStderr?: (chunk: string) => void;
    onStdout?: (chunk: string) => void;
    log?: (line: string) => void;
    env?: Record<string, string>;
    signal?: AbortSignal;
  },
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; ms: number }>;
