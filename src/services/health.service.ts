import type { SystemRepository } from '../../db/repositories/system.repository.ts';
import { type FfmpegBinary, probeFfmpegVersion } from '../engine/ffmpeg.ts';
import { ENGINE_VERSION, rendererVersion } from '../engine/versions.ts';

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

export class HealthService {
  readonly rendererVersion: string;

  constructor(
    private readonly system: SystemRepository,
    private readonly ffmpeg: FfmpegBinary | undefined,
    ffmpegVersion: string | undefined,
    private readonly generatorCount: () => number,
    private readonly revision: string,
  ) {
    this.rendererVersion = rendererVersion(ffmpegVersion);
  }

  health(): HealthReport {
    return { ok: true, engineVersion: ENGINE_VERSION, rendererVersion: this.rendererVersion, generators: this.generatorCount(), revision: this.revision };
  }

  /** A real database round trip and a real FFmpeg run, in parallel. */
  async readiness(): Promise<ReadinessReport> {
    const [database, ffmpegVersion] = await Promise.all([this.system.ping(), probeFfmpegVersion(this.ffmpeg, 3000)]);
    const ffmpeg = ffmpegVersion !== undefined;
    return { ok: database && ffmpeg, database, ffmpeg, engineVersion: ENGINE_VERSION, rendererVersion: this.rendererVersion };
  }
}
