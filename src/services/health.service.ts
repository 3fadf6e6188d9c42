import type { Logger } from 'pino';
import type { SystemRepository } from '../../db/repositories/system.repository.ts';
import { type FfmpegBinary, probeFfmpegEncode } from '../engine/ffmpeg.ts';
import { ENGINE_VERSION, rendererVersion } from '../engine/versions.ts';
import { serviceLimits, type ServiceLimits } from '../config/limits.ts';
import { type Clock, systemClock } from '../lib/clock.ts';
import { type FormatFacts, formatFacts, type OutputFormat } from '../lib/formats.ts';

export interface HealthReport {
  ok: boolean;
  engineVersion: string;
  rendererVersion: string;
  generators: number;
  revision: string;
  /** ANIMATION_BUDGET_MS: a direct gif/mp4 render that takes longer answers 504; clients send longer ones to a job. */
  animationBudgetMs: number;
  /** Every output format's media type, extension and kind: the web app handles files by them. */
  formats: Record<OutputFormat, FormatFacts>;
  /** The size, pixel and gif frame-rate limits a recipe is held to: the web app reads them here and repeats none. */
  limits: ServiceLimits;
}

export interface ReadinessReport {
  ok: boolean;
  database: boolean;
  ffmpeg: boolean;
  /** The blob store (BLOB_STORE) answers a read: a bucket that is missing or refuses the credentials is not. */
  blobStore: boolean;
  engineVersion: string;
  rendererVersion: string;
}

/** Liveness: the process answers, with the versions it renders with (also while it starts, src/startup.ts). */
export function healthReport(facts: { renderer: string; generators: number; revision: string; animationBudgetMs: number }): HealthReport {
  const { renderer, generators, revision, animationBudgetMs } = facts;
  return {
    ok: true,
    engineVersion: ENGINE_VERSION,
    rendererVersion: renderer,
    generators,
    revision,
    animationBudgetMs,
    formats: formatFacts(),
    limits: serviceLimits(),
  };
}

/** How long a FFmpeg probe result is served before the next request refreshes it (in the background). */
export const FFMPEG_PROBE_TTL_MS = 30_000;
/** The same for the blob store's probe (a read of a missing key: one request to a bucket). */
export const BLOB_STORE_PROBE_TTL_MS = 30_000;
/** While a probe fails it is refreshed this often instead, so a recovery shows within seconds. */
export const FAILING_PROBE_TTL_MS = 2_000;

export interface HealthServiceOptions {
  system: SystemRepository;
  /** Undefined when FFmpeg was not found: the encode probe then fails. */
  ffmpeg: FfmpegBinary | undefined;
  /** FFmpeg's version as probed at startup: part of the renderer version that /v1/health and /v1/ready report. */
  ffmpegVersion: string | undefined;
  /** Read at every /v1/health. */
  generatorCount: () => number;
  revision: string;
  clock?: Clock;
  logger?: Pick<Logger, 'warn' | 'info'>;
  ffmpegProbeTtlMs?: number;
  /** How long the encode probe may take (RENDER_TIMEOUT_MS: FFmpeg is not judged broken sooner than a render may take; under emulation or heavy load 10 s was not enough). */
  ffmpegProbeTimeoutMs?: number;
  /** Reads from the blob store; resolves with why it failed, or undefined. Without one the store counts as ready. */
  blobStoreProbe?: () => Promise<string | undefined>;
  /** True while object storage is known to be unreachable: an outage logged once elsewhere (src/lib/dependency-status.ts), not again by the probe. */
  blobStoreOutage?: () => boolean;
  /** ANIMATION_BUDGET_MS, reported by /v1/health. */
  animationBudgetMs: number;
}

export interface CachedProbeOptions {
  /** Resolves with why the dependency failed, or undefined when it is ready. */
  probe: () => Promise<string | undefined>;
  clock: Clock;
  /** How long a passing result is served; a failing one at most FAILING_PROBE_TTL_MS. */
  ttlMs: number;
  logger: Pick<Logger, 'warn' | 'info'> | undefined;
  /** Names the dependency in the log lines: `FFmpeg cannot encode`, `the blob store cannot be read`. */
  messages: { down: string; up: string };
  /** True when the failure just found is an outage logged elsewhere: the probe then says nothing of it (nor of its end). */
  loggedElsewhere?: () => boolean;
}

/**
 * A readiness probe, cached: FFmpeg's is a real encode (spawns FFmpeg twice, ~25 ms), the blob
 * store's a read from it (a request to a bucket) — too much for every /v1/ready of every load
 * balancer. The first check waits for a probe; after that the last result is served at once, and a
 * check finding it older than the TTL starts one refresh in the background (stale-while-revalidate).
 * A failing result is refreshed every FAILING_PROBE_TTL_MS, so a recovery shows within seconds.
 * At most one probe runs at a time.
 */
export class CachedProbe {
  private last: { ok: boolean; at: number } | undefined;
  private running: Promise<boolean> | undefined;
  /** The failure was logged here (so its end is too). */
  private saidDown = false;

  private readonly probe: () => Promise<string | undefined>;
  private readonly clock: Clock;
  private readonly ttlMs: number;
  private readonly logger: Pick<Logger, 'warn' | 'info'> | undefined;
  private readonly messages: { down: string; up: string };
  private readonly loggedElsewhere: () => boolean;

  constructor(options: CachedProbeOptions) {
    ({ probe: this.probe, clock: this.clock, ttlMs: this.ttlMs, logger: this.logger, messages: this.messages } = options);
    this.loggedElsewhere = options.loggedElsewhere ?? (() => false);
  }

  async check(): Promise<boolean> {
    if (!this.last) return this.refresh();
    const ttl = this.last.ok ? this.ttlMs : Math.min(this.ttlMs, FAILING_PROBE_TTL_MS);
    if (this.clock.now() - this.last.at >= ttl) void this.refresh();
    return this.last.ok;
  }

  /** The probe in flight (started now if none is); resolves with its result. */
  refresh(): Promise<boolean> {
    this.running ??= this.probe()
      .catch((err: unknown) => `the probe itself failed: ${err instanceof Error ? err.message : String(err)}`)
      .then((failure) => {
        const ok = failure === undefined;
        // Said once per change, not once per probe.
        if (!ok && this.last?.ok !== false && !this.loggedElsewhere()) {
          this.logger?.warn({ failure }, this.messages.down);
          this.saidDown = true;
        }
        if (ok && this.saidDown) {
          this.logger?.info(this.messages.up);
          this.saidDown = false;
        }
        this.last = { ok, at: this.clock.now() };
        return ok;
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** Resolves when no probe is running (tests wait on this instead of sleeping). */
  async idle(): Promise<void> {
    await this.running;
  }
}

export class HealthService {
  readonly rendererVersion: string;
  readonly ffmpegReadiness: CachedProbe;
  readonly blobStoreReadiness: CachedProbe;
  private readonly system: SystemRepository;
  private readonly generatorCount: () => number;
  private readonly revision: string;

  constructor(options: HealthServiceOptions) {
    ({ system: this.system, generatorCount: this.generatorCount, revision: this.revision } = options);
    this.rendererVersion = rendererVersion(options.ffmpegVersion);
    this.animationBudgetMs = options.animationBudgetMs;
    const clock = options.clock ?? systemClock;
    const { ffmpeg } = options;
    this.ffmpegReadiness = new CachedProbe({
      probe: () => probeFfmpegEncode(ffmpeg, options.ffmpegProbeTimeoutMs),
      clock,
      ttlMs: options.ffmpegProbeTtlMs ?? FFMPEG_PROBE_TTL_MS,
      logger: options.logger,
      messages: {
        down: 'FFmpeg cannot encode: /v1/ready reports ffmpeg=false',
        up: 'FFmpeg encodes again: /v1/ready reports ffmpeg=true',
      },
    });
    this.blobStoreReadiness = new CachedProbe({
      probe: options.blobStoreProbe ?? (async () => undefined),
      clock,
      ttlMs: BLOB_STORE_PROBE_TTL_MS,
      logger: options.logger,
      messages: {
        down: 'the blob store cannot be read: /v1/ready reports blobStore=false',
        up: 'the blob store can be read again: /v1/ready reports blobStore=true',
      },
      // An outage of object storage is logged once by the process's DependencyStatus; a refusal (a
      // missing bucket, refused credentials) only here.
      loggedElsewhere: options.blobStoreOutage,
    });
  }

  private readonly animationBudgetMs: number;

  health(): HealthReport {
    return healthReport({
      renderer: this.rendererVersion,
      generators: this.generatorCount(),
      revision: this.revision,
      animationBudgetMs: this.animationBudgetMs,
    });
  }

  /** A real database round trip, FFmpeg's encode probe and the blob store's read probe (both cached), in parallel. */
  async readiness(): Promise<ReadinessReport> {
    const [database, ffmpeg, blobStore] = await Promise.all([
      this.system.ping(),
      this.ffmpegReadiness.check(),
      this.blobStoreReadiness.check(),
    ]);
    return {
      ok: database && ffmpeg && blobStore,
      database,
      ffmpeg,
      blobStore,
      engineVersion: ENGINE_VERSION,
      rendererVersion: this.rendererVersion,
    };
  }
}
