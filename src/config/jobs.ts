// Export jobs (who runs them, how many at once, leases, retries, event streams) and the webhooks
// their ends are delivered to.
import type { EnvReader } from './env-reader.ts';

export interface JobsConfig {
  readonly jobs: {
    /** Whether this process runs export jobs (API processes do unless RUN_JOBS=0). */
    readonly runInProcess: boolean;
    /** Jobs this process runs at once. */
    readonly concurrency: number;
    /** A job whose runner stops heart-beating (SIGKILL, lost machine) is claimable again after this long. */
    readonly leaseMs: number;
    /** Wait before the first retry of a transiently failed export; each further retry waits 4× longer. */
    readonly retryDelayMs: number;
    /** How long a rendered export keeps trying to store its result while object storage is down, before it fails. */
    readonly storageWaitMs: number;
    /** `GET /v1/jobs/{id}/events` streams a workspace may hold open in one process (more: 429 too_many_streams). */
    readonly eventStreamsPerWorkspace: number;
  };
  readonly webhookAllowedHosts: readonly string[];
  /** Tests only (WEBHOOK_ALLOW_LOOPBACK): webhooks may reach loopback receivers; refused in hosted mode. */
  readonly webhookAllowLoopback: boolean;
}

export function parseJobs({ int, bool, list, problems }: EnvReader, localMode: boolean): JobsConfig {
  const webhookAllowedHosts = list('WEBHOOK_ALLOWED_HOSTS').map((h) => h.toLowerCase());
  for (const h of webhookAllowedHosts) {
    if (!/^(\*\.)?[a-z0-9.-]+$/.test(h)) problems.push(`WEBHOOK_ALLOWED_HOSTS entries must be host names (got "${h}")`);
  }
  const webhookAllowLoopback = bool('WEBHOOK_ALLOW_LOOPBACK') ?? false;
  if (webhookAllowLoopback && !localMode)
    problems.push('WEBHOOK_ALLOW_LOOPBACK is for tests in local mode only; it is refused in hosted mode (SERVICE_LOCAL_MODE=0)');
  return {
    jobs: {
      runInProcess: bool('RUN_JOBS') ?? true,
      concurrency: int('JOB_CONCURRENCY', 1, 1, 64),
      leaseMs: int('JOB_LEASE_MS', 15_000, 1_000, 600_000),
      retryDelayMs: int('JOB_RETRY_DELAY_MS', 2_000, 0, 600_000),
      storageWaitMs: int('STORAGE_OUTAGE_WAIT_SECONDS', 300, 0, 3_600) * 1000,
      eventStreamsPerWorkspace: int('EVENT_STREAMS_PER_WORKSPACE', 20, 1, 10_000),
    },
    webhookAllowedHosts,
    webhookAllowLoopback,
  };
}
