import type { Logger } from 'pino';
import type { SystemRepository } from '../../db/repositories/system.repository.ts';
import { type FfmpegBinary, probeFfmpegEncode } from '../engine/ffmpeg.ts';
import { ENGINE_VERSION, rendererVersion } from '../engine/versions.ts';
import { type Clock, systemClock } from '../lib/clock.ts';

export interface HealthReport {
  ok: boolean;
  engineVersion: string;
  rendererVersion: string;
  generators: number;
  revision: string;
}

export interface ReadinessReport {
  ok: boolean;
  database: boolean;
  ffmpeg: boolean;
  engineVersion: string;
  rendererVersion: string;
}

/** How long a FFmpeg probe result is served before the next request refreshes it (in the background). */
export const FFMPEG_PROBE_TTL_MS = 30_000;

export interface HealthOptions {
  clock?: Clock;
  logger?: Pick<Logger, 'warn' | 'info'>;
  ffmpegProbeTtlMs?: number;
}

/**
 * FFmpeg readiness from a real encode, cached: a probe spawns FFmpeg twice (~25 ms), too much for
 * every /v1/ready of every load balancer. The first check waits for a probe; after that the last
 * result is served at once, and a check finding it older than the TTL starts one refresh in the
 * background (stale-while-revalidate). At most one probe runs at a time.
 */
export class FfmpegReadiness {
  private last: { ok: boolean; at: number } | undefined;
  private running: Promise<boolean> | undefined;

  constructor(
    private readonly probe: () => Promise<string | undefined>,
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly logger?: Pick<Logger, 'warn' | 'info'>,
  ) {}

  async check(): Promise<boolean> {
    if (!this.last) return this.refresh();
    if (this.clock.now() - this.last.at >= this.ttlMs) void this.refresh();
    return this.last.ok;
  }

  /** The probe in flight (started now if none is); resolves with its result. */
  refresh(): Promise<boolean> {
    this.running ??= this.probe()
      .catch((err: unknown) => `the probe itself failed: ${err instanceof Error ? err.message : String(err)}`)
      .then((failure) => {
        const ok = failure === undefined;
        // Said once per change, not once per probe.
        if (!ok && this.last?.ok !== false) this.logger?.warn({ failure }, 'FFmpeg cannot encode: /v1/ready reports ffmpeg=false');
        if (ok && this.last?.ok === false) this.logger?.info('FFmpeg encodes again: /v1/ready reports ffmpeg=true');
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
  readonly ffmpegReadiness: FfmpegReadiness;

  constructor(
    private readonly system: SystemRepository,
    ffmpeg: FfmpegBinary | undefined,
    ffmpegVersion: string | undefined,
    private readonly generatorCount: () => number,
    private readonly revision: string,
    options: HealthOptions = {},
  ) {
    this.rendererVersion = rendererVersion(ffmpegVersion);
    this.ffmpegReadiness = new FfmpegReadiness(
      () => probeFfmpegEncode(ffmpeg),
      options.clock ?? systemClock,
      options.ffmpegProbeTtlMs ?? FFMPEG_PROBE_TTL_MS,
      options.logger,
    );
  }

  health(): HealthReport {
    return {
      ok: true,
      engineVersion: ENGINE_VERSION,
      rendererVersion: this.rendererVersion,
      generators: this.generatorCount(),
      revision: this.revision,
    };
  }

  /** A real database round trip and FFmpeg's (cached) encode probe, in parallel. */
  async readiness(): Promise<ReadinessReport> {
    const [database, ffmpeg] = await Promise.all([this.system.ping(), this.ffmpegReadiness.check()]);
    return { ok: database && ffmpeg, database, ffmpeg, engineVersion: ENGINE_VERSION, rendererVersion: this.rendererVersion };
  }
}
