// How a worker's failure kind survives the trip back to the pool.
/**
 * Errors cross the thread boundary by structured clone, which keeps only name, message and stack
 * (custom properties are dropped on Node 20), so the kind travels as a message prefix the pool parses.
 */
export type RenderFailureKind = 'cancelled' | 'timeout' | 'encoder' | 'ffmpeg_missing' | 'generator';
const FAILURE_PREFIX = /^render-failure:([a-z_]+): /;

export function failureKind(err: unknown): RenderFailureKind | undefined {
  const match = err instanceof Error ? FAILURE_PREFIX.exec(err.message) : null;
  return (match?.[1] as RenderFailureKind | undefined) ?? undefined;
}

export function renderFailure(kind: RenderFailureKind, message: string): Error {
  return new Error(`render-failure:${kind}: ${message}`);
}
