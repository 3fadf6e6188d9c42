// The one place a render engine (generators, worker pool, FFmpeg, render service) is put together:
// the API/worker composition root, the CLI, the render bench and the golden suite all build it here.
import type { Logger } from 'pino';
import type { BlobStore } from '../blob/blob-store.ts';
import type { Config } from '../config/config.ts';
import { type FfmpegBinary, probeFfmpegVersion, resolveFfmpeg } from '../engine/ffmpeg.ts';
import { RenderPool } from '../engine/render-pool.ts';
import { ALL_GENERATORS } from '../generators/index.ts';
import { ALL_RELEASES } from '../generators/releases/index.ts';
import { GeneratorRegistry } from '../generators/registry.ts';
import type { DependencyStatus } from '../lib/dependency-status.ts';
import { NO_LOG, RenderService } from './render.service.ts';

/** A cache that keeps nothing: one-off renders (CLI, bench, goldens) must not read or fill one. */
export const NO_CACHE: BlobStore = { get: async () => undefined, put: async () => {}, delete: async () => {} };

export type RenderEngineConfig = Pick<Config, 'ffmpegPath'> & {
  readonly render: Pick<Config['render'], 'workers' | 'queueLimit' | 'timeoutMs' | 'animationBudgetMs'> & {
    readonly maxPixelsInFlight?: number;
    /** Render on the calling thread instead of worker threads (RenderPoolOptions.inThread: the CLI's one render). */
    readonly inThread?: boolean;
  };
};

export interface RenderEngine {
  readonly generators: GeneratorRegistry;
  readonly pool: RenderPool;
  readonly service: RenderService;
  readonly ffmpeg: FfmpegBinary | undefined;
  /** FFmpeg's version, or undefined when it is missing (gif and mp4 renders then fail). */
  readonly ffmpegVersion: string | undefined;
  close(): Promise<void>;
}

export async function createRenderEngine(
  config: RenderEngineConfig,
  options: {
    cache?: BlobStore;
    logger?: Logger;
    /** Told when the cache's store cannot be reached (src/lib/dependency-status.ts). */
    dependencies?: DependencyStatus;
    /** FFmpeg's version when the caller has probed it already (src/main.ts does, before it waits for the database). */
    ffmpegVersion?: Promise<string | undefined>;
    /** Start the render threads on the first render instead of now (a test app whose suite may never render). */
    lazyThreads?: boolean;
    /** The module the render threads load (RenderPoolOptions.workerModule). */
    workerModule?: URL;
  } = {},
): Promise<RenderEngine> {
  const pool = new RenderPool({
    workers: config.render.workers,
    queueLimit: config.render.queueLimit,
    maxPixelsInFlight: config.render.maxPixelsInFlight,
    inThread: config.render.inThread,
    workerModule: options.workerModule,
  });
  // Started first, so they are ready by the first render: they load while FFmpeg is probed and the
  // shaper loads here (each thread loads the generators).
  if (!options.lazyThreads) pool.start();
  const ffmpeg = resolveFfmpeg(config.ffmpegPath);
  const generators = new GeneratorRegistry(ALL_GENERATORS, ALL_RELEASES);
  let ffmpegVersion: string | undefined;
  try {
    // Every generator prepared (the shaper loaded) up front, for renders of any of them; an engine
    // that renders on its own thread (the CLI's one render) prepares each render's own as it comes.
    [ffmpegVersion] = await Promise.all([
      options.ffmpegVersion ?? probeFfmpegVersion(ffmpeg),
      config.render.inThread ? undefined : generators.ready(),
    ]);
  } catch (err) {
    await pool.close();
    throw err;
  }
  const service = new RenderService({
    generators,
    pool,
    cache: options.cache ?? NO_CACHE,
    ffmpegPath: ffmpegVersion ? ffmpeg?.path : undefined,
    limits: config.render,
    logger: options.logger ?? NO_LOG,
    dependencies: options.dependencies,
  });
  return { generators, pool, service, ffmpeg, ffmpegVersion, close: () => pool.close() };
}
