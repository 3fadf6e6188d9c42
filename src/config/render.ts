// Synchronous rendering: the worker threads, how much may wait or be in flight, time limits, the
// in-memory cache, and the FFmpeg that encodes gif and mp4. (The engine's fixed limits: limits.ts.)
import { availableParallelism } from 'node:os';
import type { EnvReader } from './env-reader.ts';
import { MAX_FRAME_PIXELS } from './limits.ts';

export interface RenderConfig {
  readonly render: {
    /** Worker threads that render (default: one per core). */
    readonly workers: number;
    /** Renders that may wait for a worker before new ones get 503. */
    readonly queueLimit: number;
    /** Time limit of a synchronous still render (504 render_timeout). */
    readonly timeoutMs: number;
    /** Time budget of a synchronous animated render (504 animation_budget_exceeded; use jobs). */
    readonly animationBudgetMs: number;
    /** Bytes of recently used renders kept in memory in front of the cache store. */
    readonly memoryCacheBytes: number;
    /** Output pixels (width × height × pixelRatio², summed over renders) in the workers at once; a render over the remaining budget waits. */
    readonly maxPixelsInFlight: number;
  };
  readonly ffmpegPath: string | undefined;
}

export function parseRender({ str, int }: EnvReader): RenderConfig {
  const workers = int('RENDER_WORKERS', Math.max(1, availableParallelism()), 1, 64);
  return {
    render: {
      workers,
      queueLimit: int('RENDER_QUEUE_LIMIT', workers * 8, 0, 10_000),
      timeoutMs: int('RENDER_TIMEOUT_MS', 30_000, 100, 600_000),
      animationBudgetMs: int('ANIMATION_BUDGET_MS', 20_000, 100, 600_000),
      memoryCacheBytes: int('RENDER_MEMORY_CACHE_MB', 256, 0, 65_536) * 1024 * 1024,
      // Default: every worker can hold one render of the largest allowed frame at once.
      maxPixelsInFlight: int('RENDER_MAX_PIXELS_IN_FLIGHT', workers * MAX_FRAME_PIXELS, 1, 10_000_000_000),
    },
    ffmpegPath: str('FFMPEG_PATH'),
  };
}
