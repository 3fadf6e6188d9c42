// The composition root: turns a Config into live dependencies (database, ffmpeg, services).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { type Database, createDatabase, migrateToLatest } from '../db/database.ts';
import { SystemRepository } from '../db/repositories/system.repository.ts';
import { WorkspacesRepository } from '../db/repositories/workspaces.repository.ts';
import { WorkspacesService } from './services/workspaces.service.ts';
import type { AppDeps } from './http/app-deps.types.ts';
import { type Config, ConfigError, defaultCheckoutUrls } from './config/config.ts';
import { AuthService, LOCAL_WORKSPACE_ID } from './services/auth.service.ts';
import { HealthService } from './services/health.service.ts';
import { BatchService } from './services/batch.service.ts';
import { QuoteService } from './services/quote.service.ts';
import { createRenderEngine } from './services/render-engine.factory.ts';
import { FsBlobStore } from './blob/fs.blob-store.ts';
import { MemoryCachedBlobStore } from './blob/memory-cached.blob-store.ts';
import { TrackedBlobStore } from './blob/tracked.blob-store.ts';
import { DependencyStatus, logFailure } from './lib/dependency-status.ts';
import { JobResults } from './jobs/job-results.ts';
import type { BlobStore } from './blob/blob-store.ts';
import { DatabaseBlobStore } from '../db/repositories/blobs.repository.ts';
import { ApiKeysRepository } from '../db/repositories/api-keys.repository.ts';
import { KeysService } from './services/keys.service.ts';
import { UrlSigningKeysRepository } from '../db/repositories/url-signing-keys.repository.ts';
import { SigningBasesRepository } from '../db/repositories/signing-bases.repository.ts';
import { UrlSigningKeysService } from './services/url-signing-keys.service.ts';
import { SigningBasesService } from './services/signing-bases.service.ts';
import { PgKeyRevocationFeed } from './adapters/pg-listen.key-revocations.ts';
import { PresetsService } from './services/presets.service.ts';
import { TemplatesService } from './services/templates.service.ts';
import { TemplatesRepository } from '../db/repositories/templates.repository.ts';
import { RecipesService } from './services/recipes.service.ts';
import { PresetsRepository } from '../db/repositories/presets.repository.ts';
import { AssetsService } from './services/assets.service.ts';
import { AssetsRepository } from '../db/repositories/assets.repository.ts';
import { BUY_CREDITS_HINT, CreditsService, NO_BILLING_HINT } from './services/credits.service.ts';
import { UsageService } from './services/usage.service.ts';
import { MeteredRenderService } from './services/metered-render.service.ts';
import { CreditsRepository } from '../db/repositories/credits.repository.ts';
import { BillingRepository } from '../db/repositories/billing.repository.ts';
import { BillingService } from './services/billing.service.ts';
import { IdempotencyService } from './http/idempotency.ts';
import { IdempotencyRepository } from '../db/repositories/idempotency.repository.ts';
import type { PaymentProvider } from './services/payment-provider.ts';
import { UsageRepository } from '../db/repositories/usage.repository.ts';
import { BudgetsRepository } from '../db/repositories/budgets.repository.ts';
import { BudgetsService } from './services/budgets.service.ts';
import { createMemoryRateLimiter, createPostgresRateLimiter } from './adapters/rate-limit.stores.ts';
import { type Clock, systemClock } from './lib/clock.ts';
import { WebhooksRepository } from '../db/repositories/webhooks.repository.ts';
import { WebhookSecretsService } from './services/webhook-secrets.service.ts';
import { PinnedHttpsClient } from './adapters/pinned-https.client.ts';
import { WebhookDeliveryService } from './services/webhook-delivery.service.ts';
import { assertWebhookUrlAllowed } from './services/webhook-url.ts';
import { type JobRecord, JobsRepository } from '../db/repositories/jobs.repository.ts';
import { Metrics } from './lib/metrics.ts';
import type { RenderPool } from './engine/render-pool.ts';
import { JobsService, jobView } from './jobs/jobs.service.ts';
import { JobLifecycle } from './jobs/job-lifecycle.ts';
import { JobRunner } from './jobs/job-runner.ts';
import type { JobQueue } from './jobs/job-queue.ts';
import { exportQueueOptions, PgBossJobQueue } from './jobs/pg-boss.queue.ts';
import { TableJobQueue } from './jobs/table.queue.ts';
import { JobEventStreams } from './jobs/job-event-streams.ts';

export interface Runtime {
  /** What /metrics shows (src/http/metrics.server.ts serves it when METRICS_PORT is set). */
  metrics: Metrics;
  deps: AppDeps;
  db: Database;
  /** Drain, first step (shutdown.ts): end event streams with a `reconnect` event; settles once they are written out. */
  endStreams(): Promise<void>;
  /** Drain: stop claiming jobs and hand running ones back to the queue (their FFmpeg children killed). */
  stopJobs(): Promise<void>;
  /** Releases everything else (pool, queue, database); after stopJobs, or calls it. */
  close(): Promise<void>;
  /** This process's job runner (started only with RUN_JOBS), queue, lifecycle (whose events tests wait on) and results (whose retention sweep tests run). */
  jobs: { runner: JobRunner; lifecycle: JobLifecycle; queue: JobQueue; results: JobResults };
}

export interface ComposeOptions {
  /**
   * Makes (or reads) the generated local key of the local workspace, in addition to config.apiKeys.
   * Called only once the database is known to be a local one: a process refused on a hosted
   * database writes nothing.
   */
  localKey?: () => string;
  /** Overrides for tests. */
  revision?: string;
  clock?: Clock;
  /** Replaces the configured payment provider (tests of the billing service without Stripe settings). */
  paymentProvider?: PaymentProvider;
  /** Tests' self-signed webhook receiver (needs WEBHOOK_ALLOW_LOOPBACK, local mode only). */
  webhookLoopbackCa?: string;
  /** FFmpeg's version, probed already by the caller (so start-up spawns it once). */
  ffmpegVersion?: Promise<string | undefined>;
  /**
   * `worker` (src/worker.ts): a process that only runs export jobs keeps no render cache in memory
   * (RENDER_MEMORY_CACHE_MB is for API processes): it reads the cache once per export, before
   * rendering, and almost never a file it wrote, so a memory layer only held every export result it
   * made, up to the whole size. Default `api`.
   */
  role?: 'api' | 'worker';
  /**
   * Start the render threads on the first render instead of now: for tests, whose suites often never
   * render. The service's processes start them now, so no request waits for them.
   */
  lazyRenderThreads?: boolean;
  /** The module the render threads load (RenderPoolOptions.workerModule): tests give the compiled one. */
  renderWorkerModule?: URL;
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
      return packed
        .split('\n')
        .find((l) => l.endsWith(` ${ref}`))
        ?.split(' ')[0];
    }
  } catch {
    return undefined;
  }
}

/**
 * Local mode bills nothing and trusts its one workspace, so it must never serve a hosted database:
 * customers' keys would render for free. Checked before migrating, so such a database is untouched.
 */
async function refuseHostedDatabase(db: Database, workspaces: WorkspacesRepository): Promise<void> {
  const { userWorkspaces, liveKeys } = await workspaces.hostedFootprint();
  if (userWorkspaces === 0 && liveKeys === 0) return;
  await db.destroy();
  throw new ConfigError([
    `SERVICE_LOCAL_MODE=1 refuses this database: it holds hosted data (${userWorkspaces} signed-in users' workspaces, ${liveKeys} svc_live_ keys). Run hosted mode (SERVICE_LOCAL_MODE=0) on it, or point DATABASE_URL at a database of your own.`,
  ]);
}

export async function compose(config: Config, logger: Logger, options: ComposeOptions = {}): Promise<Runtime> {
  const clock = options.clock ?? systemClock;
  // Whether the database and object storage answer: every part of the process reports to it, and an
  // outage is logged there once when it starts and once when it ends (src/lib/dependency-status.ts).
  const dependencies = new DependencyStatus({ logger, clock });
  const db = createDatabase(config.database, { logger, dependencies });
  dependencies.setProbe('database', () => new SystemRepository(db).roundTrip());
  const quietly = (level: 'warn' | 'error', msg: string) => (err: unknown) => logFailure(dependencies, logger, level, { err }, msg);
  const metrics = new Metrics();
  const workspaces = new WorkspacesRepository(db);
  if (config.localMode) await refuseHostedDatabase(db, workspaces);
  const localKeys = config.localMode && options.localKey ? [options.localKey()] : [];
  await migrateToLatest(db);

  if (config.localMode) {
    await workspaces.ensure({ id: LOCAL_WORKSPACE_ID, name: 'Local workspace', kind: 'local', createdAt: Date.now() });
  }

  // BLOB_STORE: the render cache and job results, on disk, in Postgres or in an S3 bucket.
  const blobs = await createBlobStores(config.blobStore, db, dependencies);
  dependencies.setProbe('storage', () => blobs.results.get(BLOB_STORE_PROBE_KEY));
  const memoryCache = options.role === 'worker' ? null : new MemoryCachedBlobStore(blobs.cache, config.render.memoryCacheBytes);
  const renderCache: BlobStore = memoryCache ?? blobs.cache;
  const {
    generators,
    pool,
    service: render,
    ffmpeg,
    ffmpegVersion,
  } = await createRenderEngine(config, {
    cache: renderCache,
    logger,
    dependencies,
    ffmpegVersion: options.ffmpegVersion,
    lazyThreads: options.lazyRenderThreads,
    workerModule: options.renderWorkerModule,
  });
  if (!ffmpegVersion) logger.warn({ ffmpeg }, 'FFmpeg is not available: gif and mp4 renders will fail and /v1/ready reports ffmpeg=false');
  // Browser sign-in exists in hosted mode only; local mode has the gateway instead.
  // Loaded only in hosted mode: better-auth and its plugins take about a second to import, which a
  // local-mode start (and every local-mode test process) would pay for nothing.
  // Local mode performs no credit checks; hosted renders pay from the workspace balance.
  const ledger = new CreditsRepository(db);
  const credits = new CreditsService({
    repo: ledger,
    clock,
    enabled: !config.localMode,
    logger,
    dependencies,
    topUpHint: options.paymentProvider || config.billing ? BUY_CREDITS_HINT : NO_BILLING_HINT,
  });
  const signIn = config.localMode
    ? null
    : (await import('./adapters/better-auth.sign-in.ts')).createSignIn({ config, workspaces, credits, clock, logger, dependencies });
  // On Postgres every process hears revocations (LISTEN) and so may keep verified keys in memory.
  const keyRevocations =
    config.database.client === 'pg'
      ? new PgKeyRevocationFeed(config.database.url, quietly('warn', 'not hearing key revocations: verifying every key in the database'))
      : null;
  const keys = new KeysService({
    repo: new ApiKeysRepository(db),
    clock,
    localMode: config.localMode,
    onTouchError: quietly('warn', 'could not record key use'),
    revocations: keyRevocations,
  });
  await keys.listenForRevocations();
  const paymentProvider: PaymentProvider | null =
    options.paymentProvider ??
    (config.billing
      ? new (await import('./adapters/stripe.payment-provider.ts')).StripePaymentProvider(
          {
            secretKey: config.billing.stripeSecretKey,
            webhookSecret: config.billing.stripeWebhookSecret,
            apiUrl: config.billing.stripeApiUrl,
          },
          () => clock.now(),
        )
      : null);
  const billing = new BillingService({
    repo: new BillingRepository(db),
    credits,
    provider: paymentProvider,
    urls: config.billing
      ? { successUrl: config.billing.successUrl, cancelUrl: config.billing.cancelUrl }
      : defaultCheckoutUrls(config.appOrigin),
    clock,
    logger,
  });
  credits.startSweeper();
  const usage = new UsageService({ repo: new UsageRepository(db), clock, logger, metrics });
  // One process on SQLite counts in memory; on Postgres every API process shares the counts.
  const rateLimiter =
    config.database.client === 'sqlite'
      ? createMemoryRateLimiter(config.rateLimit, logger)
      : createPostgresRateLimiter(config.rateLimit, db, logger);
  const signingBasesRepo = new SigningBasesRepository(db);
  const urlSigningKeys = new UrlSigningKeysService({
    repo: new UrlSigningKeysRepository(db),
    bases: signingBasesRepo,
    clock,
    rateLimiter,
    onTouchError: quietly('warn', 'could not record url signing key use'),
  });
  urlSigningKeys.on('refused', (reason) => metrics.signedUrlRefusal(reason));
  const jobsRepo = new JobsRepository(db);
  const meteredRender = new MeteredRenderService({
    render,
    credits,
    usage,
    signingKeys: urlSigningKeys,
    apiKeys: keys,
    jobKeySpending: jobsRepo,
  });
  const assets = new AssetsService({ repo: new AssetsRepository(db), store: blobs.assets, clock, limits: config.assets });
  const templates = new TemplatesService({ repo: new TemplatesRepository(db), assets, generators, clock });
  const recipes = new RecipesService(render, templates);
  const signingBases = new SigningBasesService({ repo: signingBasesRepo, keys: urlSigningKeys, recipes, clock });
  const idempotency = new IdempotencyService(new IdempotencyRepository(db), clock);
  idempotency.startSweeper(quietly('warn', 'idempotency key sweep failed'));
  const revision = options.revision ?? config.revision ?? gitRevision(process.cwd()) ?? 'unknown';

  const webhooksRepo = new WebhooksRepository(db);
  const webhookSecrets = new WebhookSecretsService(webhooksRepo, clock);
  const webhookClient = new PinnedHttpsClient({ allowLoopback: config.webhookAllowLoopback, loopbackCa: options.webhookLoopbackCa });
  const webhookDelivery = new WebhookDeliveryService({
    repo: webhooksRepo,
    secrets: webhookSecrets,
    config,
    logger,
    dependencies,
    clock,
    client: webhookClient,
  });
  // Any process finishes the webhooks another one left between attempts (shutdown, crash).
  webhookDelivery.startSweeper();
  // Every process that charges (API or worker) checks the workspace's monthly budget after the charge.
  const budgets = new BudgetsService({ repo: new BudgetsRepository(db), credits, webhooks: webhookDelivery, config, clock, logger });
  budgets.start();
  // Postgres: pg-boss carries the messages, so workers on any machine share the queue. SQLite: the table is the queue.
  const onQueueError = quietly('error', 'job queue error');
  const queue: JobQueue =
    config.database.client === 'pg'
      ? new PgBossJobQueue(exportQueueOptions({ connectionString: config.database.url, supervise: config.jobs.runInProcess }), onQueueError)
      : new TableJobQueue(onQueueError);
  await queue.open();
  // Finished jobs notify their webhookUrl (in the background, with retries): the lifecycle's rule.
  const lifecycle = new JobLifecycle({ repo: jobsRepo, webhooks: webhookDelivery, view: (job) => jobView(job, clock.now()), logger });
  const results = new JobResults({ store: blobs.results, repo: jobsRepo, clock, logger, urlTtlSeconds: config.resultUrlTtlSeconds });
  const batch = new BatchService(recipes, meteredRender, pool.workers);
  const jobs = new JobsService({
    repo: jobsRepo,
    queue,
    render,
    recipes,
    results,
    credits,
    keys,
    clock,
    lifecycle,
    checkWebhookUrl: (url) => void assertWebhookUrlAllowed(url, config),
    resultStoreDown: () => dependencies.isDown('storage'),
  });
  const runner = new JobRunner({
    repo: jobsRepo,
    queue,
    render,
    recipes,
    results,
    meteredRender,
    usage,
    clock,
    logger,
    concurrency: config.jobs.concurrency,
    lifecycle,
    leaseMs: config.jobs.leaseMs,
    retryDelayMs: config.jobs.retryDelayMs,
    storageWaitMs: config.jobs.storageWaitMs,
    dependencies,
  });
  const jobEvents = new JobEventStreams({
    repo: jobsRepo,
    view: (job) => jobs.view(job),
    limitPerWorkspace: config.jobs.eventStreamsPerWorkspace,
  });
  observe(metrics, { pool, jobsRepo, lifecycle, webhookDelivery, credits, memoryCache });
  // Processes that make results also delete them when their retention ends.
  if (config.jobs.runInProcess) {
    await runner.start();
    results.start();
  }

  const deps: AppDeps = {
    config,
    logger,
    metrics,
    dependencies,
    services: {
      auth: new AuthService({
        config,
        localKeys: [...config.apiKeys, ...localKeys],
        keys,
        sessions: signIn?.sessions ?? null,
        signInProviders: signIn?.providers ?? [],
        signedUrls: urlSigningKeys,
      }),
      keys,
      urlSigningKeys,
      signingBases,
      presets: new PresetsService({ repo: new PresetsRepository(db), render, recipes, clock }),
      templates,
      recipes,
      assets,
      credits,
      billing,
      idempotency,
      usage,
      meteredRender,
      health: new HealthService({
        system: new SystemRepository(db),
        ffmpeg,
        ffmpegVersion,
        generatorCount: () => generators.size,
        revision,
        clock,
        logger,
        // The store's own outage (a database-backed store's is the database's) is logged by `dependencies`.
        blobStoreOutage: () => dependencies.isDown(config.blobStore.kind === 'database' ? 'database' : 'storage'),
        animationBudgetMs: config.render.animationBudgetMs,
        ffmpegProbeTimeoutMs: config.render.timeoutMs,
        // A read of a key that is never written: reachable, bucket present, credentials accepted.
        blobStoreProbe: () =>
          blobs.results.get(BLOB_STORE_PROBE_KEY).then(
            () => undefined,
            (err: unknown) => (err instanceof Error ? err.message : String(err)),
          ),
      }),
      generators,
      workspaces: new WorkspacesService(workspaces),
      render,
      batch,
      quotes: new QuoteService({ recipes, metered: meteredRender, batch, jobs, render }),
      rateLimiter,
      webhooks: { secrets: webhookSecrets, delivery: webhookDelivery },
      budgets,
      jobs,
      jobEvents,
    },
    signInHandler: signIn?.handler,
  };
  let stoppingJobs: Promise<void> | undefined;
  const stopJobs = () => (stoppingJobs ??= runner.stop());
  return {
    deps,
    db,
    metrics,
    endStreams: () => jobEvents.close(),
    stopJobs,
    jobs: { runner, lifecycle, queue, results },
    async close() {
      await jobEvents.close();
      credits.stopSweeper();
      // Charges waiting for the database get a moment to land; the rest are released by a sweep after expiry.
      await credits.settled(5_000);
      // Budget checks of the last charges send their alerts before the webhooks close.
      await budgets.idle();
      idempotency.stopSweeper();
      await rateLimiter.close();
      // Running jobs stop and go back to the queue (their FFmpeg children are killed).
      await stopJobs();
      await results.stop();
      await queue.close();
      // Pending retries are cancelled; attempts in flight finish (bounded by their deadline) and are recorded.
      await webhookDelivery.close();
      await pool.close();
      await usage.flush();
      if (usage.unwritten > 0)
        logger.error({ rows: usage.unwritten }, 'usage rows could not be written before exit: the database is unavailable');
      await signIn?.close();
      await keys.close();
      blobs.close();
      dependencies.close();
      await db.destroy();
    },
  };
}

export const BLOB_STORE_PROBE_KEY = 'readiness_probe';

/**
 * The blob stores BLOB_STORE names: the render cache, job results and assets, in separate namespaces of one
 * store. An S3 bucket's answers are reported to `dependencies` (the other stores are the database's
 * and a local directory: the database reports itself).
 */
export async function createBlobStores(
  settings: Config['blobStore'],
  db: Database,
  dependencies?: DependencyStatus,
): Promise<{ cache: BlobStore; results: BlobStore; assets: BlobStore; close(): void }> {
  switch (settings.kind) {
    case 'fs':
      return {
        cache: new FsBlobStore(path.join(settings.root, 'cache')),
        results: new FsBlobStore(path.join(settings.root, 'results')),
        assets: new FsBlobStore(path.join(settings.root, 'assets')),
        close: () => {},
      };
    case 'database':
      // Cache rows keep the bare keys they always had; results get a prefix of their own.
      return {
        cache: new DatabaseBlobStore(db),
        results: new DatabaseBlobStore(db, 'results/'),
        assets: new DatabaseBlobStore(db, 'assets/'),
        close: () => {},
      };
    case 's3': {
      // The AWS SDK is imported only for a bucket: loading it took about 0.2 s of CPU at every start.
      const { S3BlobStore, createS3Client } = await import('./blob/s3.blob-store.ts');
      const client = createS3Client(settings);
      const store = (prefix: string): BlobStore => {
        const s3 = new S3BlobStore(client, settings.bucket, prefix);
        return dependencies ? new TrackedBlobStore(s3, dependencies) : s3;
      };
      return {
        cache: store(`${settings.prefix}cache/`),
        results: store(`${settings.prefix}results/`),
        assets: store(`${settings.prefix}assets/`),
        close: () => client.destroy(),
      };
    }
  }
}

/** The metrics read from the services' own events and counters (requests are recorded by createApp). */
function observe(
  metrics: Metrics,
  s: {
    pool: RenderPool;
    jobsRepo: JobsRepository;
    lifecycle: JobLifecycle;
    webhookDelivery: WebhookDeliveryService;
    credits: CreditsService;
    memoryCache: MemoryCachedBlobStore | null;
  },
): void {
  metrics.gauge('render_queue_depth', 'Renders waiting for a worker or for pixels now.', () => s.pool.queueSize);
  metrics.counter('render_rejections_total', 'Renders refused with 503 overloaded (the render queue was full).', () => s.pool.rejected);
  metrics.gauge(
    'render_memory_cache_bytes',
    'Bytes of rendered files this process keeps in memory in front of the blob store (RENDER_MEMORY_CACHE_MB; a worker process keeps none).',
    () => s.memoryCache?.bytes ?? 0,
  );
  metrics.gauge(
    'jobs',
    'Export jobs queued or running now, in the whole database.',
    () => s.jobsRepo.countByStatus(['queued', 'running']),
    ['status'],
  );
  const ended = (job: JobRecord) => metrics.jobEnded(job.status, (job.updatedAt - job.createdAt) / 1000, job.attempts);
  s.lifecycle.on('finished', ended);
  s.lifecycle.on('lost', ended);
  s.webhookDelivery.on('attempted', () => metrics.webhook('attempted'));
  s.webhookDelivery.on('delivered', () => metrics.webhook('delivered'));
  s.webhookDelivery.on('gave-up', () => metrics.webhook('gave_up'));
  s.credits.on('ledger', (event, amount) => metrics.ledger(event, amount));
}
