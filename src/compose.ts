// The composition root: turns a Config into live dependencies (database, ffmpeg, services).
// It is the only place besides main.ts that performs start-up side effects.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { type Database, createDatabase, migrateToLatest } from '../db/database.ts';
import { SystemRepository } from '../db/repositories/system.repository.ts';
import { WorkspacesRepository } from '../db/repositories/workspaces.repository.ts';
import type { AppDeps } from './app.ts';
import type { Config } from './config/config.ts';
import { probeFfmpegVersion, resolveFfmpeg } from './engine/ffmpeg.ts';
import { ALL_GENERATORS } from './generators/index.ts';
import { GeneratorRegistry } from './generators/registry.ts';
import { AuthService, LOCAL_WORKSPACE_ID } from './services/auth.service.ts';
import { HealthService } from './services/health.service.ts';
import { BatchService } from './services/batch.service.ts';
import { RenderService } from './services/render.service.ts';
import { RenderPool } from './engine/render-pool.ts';
import { FsBlobStore } from './blob/fs.blob-store.ts';
import { MemoryCachedBlobStore } from './blob/memory-cached.blob-store.ts';
import type { BlobStore } from './blob/blob-store.ts';
import { DatabaseBlobStore } from '../db/repositories/blobs.repository.ts';
import { ApiKeysRepository } from '../db/repositories/api-keys.repository.ts';
import { KeysService } from './services/keys.service.ts';
import { createSignIn } from './services/sign-in.ts';
import { type Clock, systemClock } from './services/clock.ts';

export interface Runtime {
  deps: AppDeps;
  db: Database;
  close(): Promise<void>;
}

export interface ComposeOptions {
  /** Keys of the local workspace in addition to config.apiKeys (the generated local key). */
  extraLocalKeys?: readonly string[];
  /** Overrides for tests. */
  revision?: string;
  clock?: Clock;
}

/** The git commit of the working tree, read without spawning git; undefined outside a checkout. */
export function gitRevision(root: string): string | undefined {
  try {
    const gitDir = path.join(root, '.git');
    const head = readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    if (!head.startsWith('ref: ')) return head;
    const ref = head.slice(5);
    try {
      return readFileSync(path.join(gitDir, ref), 'utf8').trim();
    } catch {
      const packed = readFileSync(path.join(gitDir, 'packed-refs'), 'utf8');
      return packed.split('\n').find((l) => l.endsWith(` ${ref}`))?.split(' ')[0];
    }
  } catch {
    return undefined;
  }
}

export async function compose(config: Config, logger: Logger, options: ComposeOptions = {}): Promise<Runtime> {
  const db = createDatabase(config.database);
  await migrateToLatest(db);

  const workspaces = new WorkspacesRepository(db);
  if (config.localMode) {
    await workspaces.ensure({ id: LOCAL_WORKSPACE_ID, name: 'Local workspace', kind: 'local', createdAt: Date.now() });
  }

  const ffmpeg = resolveFfmpeg(config.ffmpegPath);
  const ffmpegVersion = await probeFfmpegVersion(ffmpeg);
  if (!ffmpegVersion) logger.warn({ ffmpeg }, 'FFmpeg is not available: gif and mp4 renders will fail and /v1/ready reports ffmpeg=false');

  const generators = new GeneratorRegistry(ALL_GENERATORS);
  const pool = new RenderPool({ workers: config.render.workers, queueLimit: config.render.queueLimit });
  // Hosted processes share one cache through Postgres; local mode keeps files under DATA_DIR.
  const renderCache: BlobStore = new MemoryCachedBlobStore(
    config.database.client === 'pg' ? new DatabaseBlobStore(db) : new FsBlobStore(path.join(config.dataDir, 'cache')),
    config.render.memoryCacheBytes,
  );
  const render = new RenderService(generators, pool, renderCache, ffmpegVersion ? ffmpeg?.path : undefined, config.render, logger);
  const clock = options.clock ?? systemClock;
  // Browser sign-in exists in hosted mode only; local mode has the gateway instead.
  const signIn = config.localMode ? null : createSignIn({ config, workspaces, clock, logger });
  const keys = new KeysService(new ApiKeysRepository(db), clock, config.localMode, (err) => logger.warn({ err }, 'could not record key use'));
  const revision = options.revision ?? config.revision ?? gitRevision(process.cwd()) ?? 'unknown';

  const deps: AppDeps = {
    config,
    logger,
    services: {
      auth: new AuthService(config, [...config.apiKeys, ...(options.extraLocalKeys ?? [])], keys, signIn?.sessions ?? null, signIn?.providers ?? []),
      keys,
      health: new HealthService(new SystemRepository(db), ffmpeg, ffmpegVersion, () => generators.size, revision),
      generators,
      workspaces,
      render,
      batch: new BatchService(render, pool.workers),
    },
    signInHandler: signIn?.handler,
  };
  return {
    deps,
    db,
    async close() {
      await pool.close();
      await signIn?.close();
      await db.destroy();
    },
  };
}
