// Parses the environment once into a typed, frozen Config. Every invalid setting is collected
// and reported together, and the process refuses to start (see ConfigError).
import { BEARER_TOKEN } from '../lib/bearer.ts';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { MAX_FRAME_PIXELS } from './limits.ts';
import { isSafeKeyPrefix } from '../lib/key-prefix.ts';
import { LOG_LEVELS, type LogLevel } from '../lib/logger.ts';

export interface OAuthClient {
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface SignInConfig {
  /** Signs session and state cookies; at least 32 characters. Empty in local mode. */
  readonly secret: string;
  /** Public origin of this API; OAuth callbacks arrive at `<publicUrl>/v1/auth/callback/<provider>`. */
  readonly publicUrl: string;
  readonly github: (OAuthClient & { readonly oauthUrl: string; readonly apiUrl: string }) | null;
  readonly google: (OAuthClient & { readonly discoveryUrl: string }) | null;
  /**
   * A development OpenID provider on this machine (DEV_SIGN_IN_*), offered as "Development sign-in".
   * Only with a loopback APP_ORIGIN: `npm run trial` starts one; a real deployment refuses it.
   */
  readonly dev: (OAuthClient & { readonly discoveryUrl: string }) | null;
}

/** Where rendered bytes live (BLOB_STORE): the render cache and job results. */
export type BlobStoreConfig =
  | { readonly kind: 'fs'; readonly root: string }
  | { readonly kind: 'database' }
  | {
      readonly kind: 's3';
      readonly bucket: string;
      /** Prepended to every object name (e.g. `render-service/`), so one bucket can hold other things too. */
      readonly prefix: string;
      readonly region: string;
      /** An S3-compatible endpoint (MinIO, R2, …); undefined means AWS. */
      readonly endpoint: string | undefined;
      readonly forcePathStyle: boolean;
      /** Explicit credentials; undefined means the AWS SDK's default chain (environment, profile, instance role). */
      readonly accessKeyId: string | undefined;
      readonly secretAccessKey: string | undefined;
    };

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Local mode: the explicit local workspace, API_KEYS, no credits, the local gateway. */
  readonly localMode: boolean;
  /**
   * The local gateway vouches for same-origin browser requests (local mode, loopback HOST only: bound
   * to another interface it would hand the local workspace to the network, so it stays off).
   */
  readonly localGateway: boolean;
  readonly dataDir: string;
  readonly blobStore: BlobStoreConfig;
  /** Lifetime of a presigned result URL (`resultUrl` when the blob store can presign), in seconds. */
  readonly resultUrlTtlSeconds: number;
  /** How long a starting process waits for its database and object store before it gives up (exit 1). */
  readonly startupWaitMs: number;
  readonly database: { readonly client: 'sqlite'; readonly filename: string } | { readonly client: 'pg'; readonly url: string };
  /** Bearer keys of the local workspace (local mode only; never authenticate a hosted customer). */
  readonly apiKeys: readonly string[];
  readonly appOrigin: string;
  /** Browser sign-in (hosted mode): the library's secret, the public API origin and the providers. */
  readonly signIn: SignInConfig;
  /** Credit packs through Stripe (hosted mode); null when not configured. */
  readonly billing: {
    readonly stripeSecretKey: string;
    readonly stripeWebhookSecret: string;
    readonly stripeApiUrl: string | undefined;
    readonly successUrl: string;
    readonly cancelUrl: string;
  } | null;
  readonly allowedOrigins: readonly string[];
  readonly webhookAllowedHosts: readonly string[];
  /** Tests only (WEBHOOK_ALLOW_LOOPBACK): webhooks may reach loopback receivers; refused in hosted mode. */
  readonly webhookAllowLoopback: boolean;
  readonly ffmpegPath: string | undefined;
  readonly logLevel: LogLevel;
  /** The Prometheus scrape listener (METRICS_PORT, METRICS_HOST, METRICS_TOKEN); null when off (the default). */
  readonly metrics: { readonly port: number; readonly host: string; readonly token: string | undefined } | null;
  /** Credits granted to each new personal workspace at its first sign-in (hosted mode), as a ledger entry. */
  readonly signupCredits: number;
  /** Recipe URLs held in memory are answered in front of express (src/http/lean-hit.path.ts); LEAN_HIT_PATH=0 turns it off. */
  readonly leanHitPath: boolean;
  readonly revision: string | undefined;
  /** Largest accepted request body, in bytes. */
  readonly bodyLimitBytes: number;
  /** Deadlines of an incoming request: its headers, then its body (408 request_timeout past either). */
  readonly requestTimeouts: { readonly headersMs: number; readonly bodyMs: number };
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
  /** Requests per minute on authenticated operations, per workspace and per API key (0: no limit). */
  readonly rateLimit: {
    readonly workspacePerMinute: number;
    readonly keyPerMinute: number;
    /** Requests per minute per client address that fail authentication (401), before they get 429. */
    readonly unauthenticatedPerMinute: number;
    /** Requests per minute per client address to the sign-in routes under /v1/auth, before they get 429. */
    readonly signInPerMinute: number;
    /** Signed-URL requests per minute per client address (they count against no workspace or key bucket). */
    readonly signedAddressPerMinute: number;
    /** Signed-URL renders that miss the cache (and cost credits) per minute per signing key. */
    readonly signingKeyMissesPerMinute: number;
  };
  /**
   * Which proxies in front of the service to believe about the client address (X-Forwarded-For):
   * false (none: the peer is the client), a hop count, or addresses/CIDRs (express's `trust proxy`).
   */
  readonly trustProxy: false | number | readonly string[];
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

export const DEFAULT_PORT = 8080;
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/** Where a checkout returns the buyer when CHECKOUT_SUCCESS_URL / CHECKOUT_CANCEL_URL are not set: the account page. */
export function defaultCheckoutUrls(appOrigin: string): { successUrl: string; cancelUrl: string } {
  return { successUrl: `${appOrigin}/#/account?checkout=success`, cancelUrl: `${appOrigin}/#/account?checkout=cancelled` };
}

export function loadConfig(env: Env, cwd: string = process.cwd()): Config {
  const problems: string[] = [];
  const str = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v === '' ? undefined : v;
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = str(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return n;
  };
  const bool = (name: string): boolean | undefined => {
    const raw = str(name)?.toLowerCase();
    if (raw === undefined) return undefined;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    problems.push(`${name} must be 1/0, true/false, yes/no or on/off (got "${raw}")`);
    return undefined;
  };
  const list = (name: string): string[] =>
    (str(name) ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);

  const port = int('PORT', DEFAULT_PORT, 0, 65535);
  const host = str('HOST') ?? '127.0.0.1';
  if (host !== 'localhost' && isIP(host) === 0 && !/^[a-z0-9.-]+$/i.test(host))
    problems.push(`HOST must be an IP address or host name (got "${host}")`);

  const databaseUrl = str('DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  // Without a database URL the only sensible mode is local, on SQLite.
  const localMode = bool('SERVICE_LOCAL_MODE') ?? databaseUrl === undefined;
  if (!localMode && databaseUrl === undefined)
    problems.push('DATABASE_URL is required when SERVICE_LOCAL_MODE=0 (hosted mode runs on Postgres)');

  const dataDir = path.resolve(cwd, str('DATA_DIR') ?? 'data');

  const apiKeys = list('API_KEYS');
  // Silently ignoring them would leave an operator believing they work (or that they are revoked).
  if (!localMode && apiKeys.length > 0)
    problems.push(
      'API_KEYS is for local mode only; hosted mode (SERVICE_LOCAL_MODE=0) refuses it: create workspace keys with POST /v1/keys',
    );
  for (const key of apiKeys) {
    if (key.length < 16) problems.push('API_KEYS entries must be at least 16 characters long');
    if (/\s/.test(key)) problems.push('API_KEYS entries must not contain white space');
  }

  const originOf = (name: string, value: string): string | undefined => {
    if (value === '*') {
      problems.push(`${name} must list explicit origins; "*" is not allowed`);
      return undefined;
    }
    try {
      const u = new URL(value);
      if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.origin !== value.replace(/\/$/, '')) throw new Error('not an origin');
      return u.origin;
    } catch {
      problems.push(`${name} entries must be origins like https://app.example.com (got "${value}")`);
      return undefined;
    }
  };
  const appOriginRaw = str('APP_ORIGIN');
  const appOrigin =
    appOriginRaw !== undefined ? (originOf('APP_ORIGIN', appOriginRaw) ?? '') : `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (!localMode && appOriginRaw === undefined)
    problems.push('APP_ORIGIN is required in hosted mode (OAuth callbacks are restricted to it)');
  // Browsers keep Secure cookies for http://localhost, so a trial on one machine may use plain http.
  const appOriginIsLoopback = appOrigin !== '' && isLoopbackHost(new URL(appOrigin).hostname);
  if (!localMode && appOrigin.startsWith('http:') && !appOriginIsLoopback)
    problems.push(
      'APP_ORIGIN must be https in hosted mode (session cookies are Secure); plain http only for a loopback origin such as http://localhost:8080',
    );
  const allowedOrigins = [
    ...new Set([appOrigin, ...list('ALLOWED_ORIGINS').map((o) => originOf('ALLOWED_ORIGINS', o))].filter((o): o is string => !!o)),
  ];

  const signIn = parseSignIn(str, problems, localMode, appOrigin, appOriginIsLoopback, host);

  const blobStore = parseBlobStore(str, bool, problems, localMode, databaseUrl !== undefined, dataDir);
  const resultUrlTtlSeconds = int('RESULT_URL_TTL_SECONDS', 900, 10, 7 * 24 * 3600);
  const startupWaitMs = int('STARTUP_WAIT_SECONDS', 300, 0, 3_600) * 1000;

  const stripeSecretKey = str('STRIPE_SECRET_KEY');
  const stripeWebhookSecret = str('STRIPE_WEBHOOK_SECRET');
  if ((stripeSecretKey === undefined) !== (stripeWebhookSecret === undefined))
    problems.push('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together');
  if (stripeSecretKey !== undefined && !/^(sk|rk)_(test|live)_/.test(stripeSecretKey))
    problems.push('STRIPE_SECRET_KEY must be a Stripe secret key (sk_test_…, sk_live_… or a restricted rk_…)');
  if (stripeWebhookSecret !== undefined && !stripeWebhookSecret.startsWith('whsec_'))
    problems.push('STRIPE_WEBHOOK_SECRET must be a webhook signing secret (whsec_…)');
  const stripeApiUrlRaw = str('STRIPE_API_URL');
  const billing =
    stripeSecretKey !== undefined && stripeWebhookSecret !== undefined && !localMode
      ? {
          stripeSecretKey,
          stripeWebhookSecret,
          stripeApiUrl: stripeApiUrlRaw !== undefined ? secureUrl('STRIPE_API_URL', stripeApiUrlRaw, problems) : undefined,
          successUrl: str('CHECKOUT_SUCCESS_URL') ?? defaultCheckoutUrls(appOrigin).successUrl,
          cancelUrl: str('CHECKOUT_CANCEL_URL') ?? defaultCheckoutUrls(appOrigin).cancelUrl,
        }
      : null;

  const webhookAllowedHosts = list('WEBHOOK_ALLOWED_HOSTS').map((h) => h.toLowerCase());
  for (const h of webhookAllowedHosts) {
    if (!/^(\*\.)?[a-z0-9.-]+$/.test(h)) problems.push(`WEBHOOK_ALLOWED_HOSTS entries must be host names (got "${h}")`);
  }
  const webhookAllowLoopback = bool('WEBHOOK_ALLOW_LOOPBACK') ?? false;
  if (webhookAllowLoopback && !localMode)
    problems.push('WEBHOOK_ALLOW_LOOPBACK is for tests in local mode only; it is refused in hosted mode (SERVICE_LOCAL_MODE=0)');

  const logLevelRaw = (str('LOG_LEVEL') ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevelRaw as LogLevel))
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevelRaw}")`);

  const bodyLimitBytes = int('BODY_LIMIT_BYTES', DEFAULT_BODY_LIMIT_BYTES, 1024, 64 * 1024 * 1024);
  const requestTimeouts = {
    headersMs: int('REQUEST_HEADERS_TIMEOUT_MS', 10_000, 10, 600_000),
    bodyMs: int('REQUEST_BODY_TIMEOUT_MS', 30_000, 10, 600_000),
  };
  const workers = int('RENDER_WORKERS', Math.max(1, availableParallelism()), 1, 64);
  const render = {
    workers,
    queueLimit: int('RENDER_QUEUE_LIMIT', workers * 8, 0, 10_000),
    timeoutMs: int('RENDER_TIMEOUT_MS', 30_000, 100, 600_000),
    animationBudgetMs: int('ANIMATION_BUDGET_MS', 20_000, 100, 600_000),
    memoryCacheBytes: int('RENDER_MEMORY_CACHE_MB', 256, 0, 65_536) * 1024 * 1024,
    // Default: every worker can hold one render of the largest allowed frame at once.
    maxPixelsInFlight: int('RENDER_MAX_PIXELS_IN_FLIGHT', workers * MAX_FRAME_PIXELS, 1, 10_000_000_000),
  };
  const leanHitPath = bool('LEAN_HIT_PATH') ?? true;
  const signupCredits = int('SIGNUP_CREDITS', 0, 0, 1_000_000);
  const metricsPort = int('METRICS_PORT', 0, 0, 65_535);
  const metricsHost = str('METRICS_HOST') ?? '127.0.0.1';
  const metricsToken = str('METRICS_TOKEN');
  if (metricsToken !== undefined && metricsToken.length < 16) problems.push('METRICS_TOKEN must be at least 16 characters');
  if (metricsToken !== undefined && !BEARER_TOKEN.test(metricsToken))
    problems.push('METRICS_TOKEN may hold only letters, digits and - . _ ~ + / (then = padding): it is sent as a bearer token');
  if (metricsPort > 0 && metricsToken === undefined && !isLoopbackHost(metricsHost))
    problems.push(`METRICS_TOKEN is required when METRICS_HOST is not a loopback address (got "${metricsHost}")`);
  const rateLimit = {
    workspacePerMinute: int('RATE_LIMIT_WORKSPACE_PER_MINUTE', 600, 0, 1_000_000),
    keyPerMinute: int('RATE_LIMIT_KEY_PER_MINUTE', 300, 0, 1_000_000),
    unauthenticatedPerMinute: int('RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE', 60, 0, 1_000_000),
    signInPerMinute: int('RATE_LIMIT_SIGN_IN_PER_MINUTE', 30, 0, 1_000_000),
    signedAddressPerMinute: int('RATE_LIMIT_SIGNED_ADDRESS_PER_MINUTE', 600, 0, 1_000_000),
    signingKeyMissesPerMinute: int('RATE_LIMIT_SIGNING_KEY_MISSES_PER_MINUTE', 120, 0, 1_000_000),
  };

  let trustProxy: Config['trustProxy'] = false;
  const trustRaw = str('TRUST_PROXY');
  if (trustRaw !== undefined && !/^(0|false|no|off)$/i.test(trustRaw)) {
    if (/^\d+$/.test(trustRaw)) trustProxy = Number(trustRaw);
    else {
      const entries = trustRaw
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean);
      const bad = entries.filter((e) => !['loopback', 'linklocal', 'uniquelocal'].includes(e) && isIP(e.split('/')[0]!) === 0);
      if (bad.length > 0 || entries.length === 0)
        problems.push(
          `TRUST_PROXY must be 0, a hop count, or a comma-separated list of IP addresses, CIDRs, loopback, linklocal or uniquelocal (got "${trustRaw}")`,
        );
      else trustProxy = entries;
    }
  }

  const jobs = {
    runInProcess: bool('RUN_JOBS') ?? true,
    concurrency: int('JOB_CONCURRENCY', 1, 1, 64),
    leaseMs: int('JOB_LEASE_MS', 15_000, 1_000, 600_000),
    retryDelayMs: int('JOB_RETRY_DELAY_MS', 2_000, 0, 600_000),
    storageWaitMs: int('STORAGE_OUTAGE_WAIT_SECONDS', 300, 0, 3_600) * 1000,
    eventStreamsPerWorkspace: int('EVENT_STREAMS_PER_WORKSPACE', 20, 1, 10_000),
  };

  if (problems.length > 0) throw new ConfigError(problems);

  return deepFreeze({
    port,
    host,
    localMode,
    localGateway: localMode && isLoopbackHost(host),
    dataDir,
    blobStore,
    resultUrlTtlSeconds,
    startupWaitMs,
    database:
      databaseUrl !== undefined ? { client: 'pg', url: databaseUrl } : { client: 'sqlite', filename: path.join(dataDir, 'service.sqlite') },
    apiKeys,
    appOrigin,
    signIn,
    billing,
    allowedOrigins,
    webhookAllowedHosts,
    webhookAllowLoopback,
    ffmpegPath: str('FFMPEG_PATH'),
    logLevel: logLevelRaw as LogLevel,
    revision: str('REVISION'),
    bodyLimitBytes,
    requestTimeouts,
    render,
    rateLimit,
    trustProxy,
    jobs,
    leanHitPath,
    signupCredits,
    metrics: metricsPort > 0 ? { port: metricsPort, host: metricsHost, token: metricsToken } : null,
  } satisfies Config);
}

/** A URL setting: https, or http to a loopback host (a local stand-in provider in tests). */
function secureUrl(name: string, value: string, problems: string[]): string {
  try {
    const u = new URL(value);
    if (u.protocol === 'https:' || (u.protocol === 'http:' && isLoopbackHost(u.hostname))) return value.replace(/\/$/, '');
  } catch {
    // reported below
  }
  problems.push(`${name} must be an https URL (http only for a loopback host); got "${value}"`);
  return '';
}

function parseSignIn(
  str: (name: string) => string | undefined,
  problems: string[],
  localMode: boolean,
  appOrigin: string,
  appOriginIsLoopback: boolean,
  host: string,
): SignInConfig {
  const client = (provider: 'GITHUB' | 'GOOGLE' | 'DEV_SIGN_IN'): OAuthClient | null => {
    const clientId = str(`${provider}_CLIENT_ID`);
    const clientSecret = str(`${provider}_CLIENT_SECRET`);
    if (clientId === undefined && clientSecret === undefined) return null;
    if (clientId === undefined || clientSecret === undefined) {
      problems.push(`${provider}_CLIENT_ID and ${provider}_CLIENT_SECRET must be set together`);
      return null;
    }
    return { clientId, clientSecret };
  };
  const github = client('GITHUB');
  const google = client('GOOGLE');
  const devClient = client('DEV_SIGN_IN');
  const devDiscoveryUrl = str('DEV_SIGN_IN_DISCOVERY_URL');
  let dev: SignInConfig['dev'] = null;
  if (devClient !== null || devDiscoveryUrl !== undefined) {
    // A provider that signs anyone in as anyone: never reachable from a real deployment.
    if (localMode) problems.push('DEV_SIGN_IN_* is for hosted mode (SERVICE_LOCAL_MODE=0); local mode has no sign-in');
    else if (!appOriginIsLoopback)
      problems.push(
        `DEV_SIGN_IN_* (development sign-in) only works when APP_ORIGIN is a loopback origin such as http://localhost:8080 (got "${appOrigin}")`,
      );
    // Nor may the service that offers it listen on, or advertise, an address others reach.
    if (!localMode && !isLoopbackHost(host))
      problems.push(`DEV_SIGN_IN_* (development sign-in) needs HOST to be a loopback address such as 127.0.0.1 (got "${host}")`);
    const publicUrl = str('PUBLIC_URL');
    if (!localMode && publicUrl !== undefined && !isLoopbackUrl(publicUrl))
      problems.push(`DEV_SIGN_IN_* (development sign-in) needs PUBLIC_URL, when set, to be a loopback URL (got "${publicUrl}")`);
    if (devClient === null || devDiscoveryUrl === undefined)
      problems.push('DEV_SIGN_IN_CLIENT_ID, DEV_SIGN_IN_CLIENT_SECRET and DEV_SIGN_IN_DISCOVERY_URL must be set together');
    else {
      if (!isLoopbackUrl(devDiscoveryUrl)) problems.push(`DEV_SIGN_IN_DISCOVERY_URL must be on a loopback host (got "${devDiscoveryUrl}")`);
      else dev = { ...devClient, discoveryUrl: secureUrl('DEV_SIGN_IN_DISCOVERY_URL', devDiscoveryUrl, problems) };
    }
  }
  const secret = str('AUTH_SECRET') ?? '';
  if (!localMode && secret.length < 32)
    problems.push('AUTH_SECRET must be set to at least 32 random characters in hosted mode (it signs session cookies)');
  const publicUrlRaw = str('PUBLIC_URL');
  const publicUrl = publicUrlRaw !== undefined ? secureUrl('PUBLIC_URL', publicUrlRaw, problems) : appOrigin;
  return {
    secret,
    publicUrl,
    // GitHub Enterprise Server installs (and tests) point these elsewhere.
    github: github && {
      ...github,
      oauthUrl: secureUrl('GITHUB_OAUTH_URL', str('GITHUB_OAUTH_URL') ?? 'https://github.com', problems),
      apiUrl: secureUrl('GITHUB_API_URL', str('GITHUB_API_URL') ?? 'https://api.github.com', problems),
    },
    google: google && {
      ...google,
      discoveryUrl: secureUrl(
        'GOOGLE_DISCOVERY_URL',
        str('GOOGLE_DISCOVERY_URL') ?? 'https://accounts.google.com/.well-known/openid-configuration',
        problems,
      ),
    },
    dev,
  };
}

function parseBlobStore(
  str: (name: string) => string | undefined,
  bool: (name: string) => boolean | undefined,
  problems: string[],
  localMode: boolean,
  onPostgres: boolean,
  dataDir: string,
): BlobStoreConfig {
  const kind = str('BLOB_STORE')?.toLowerCase() ?? (onPostgres ? 'database' : 'fs');
  const s3Settings = [
    'S3_BUCKET',
    'S3_PREFIX',
    'S3_REGION',
    'S3_ENDPOINT',
    'S3_FORCE_PATH_STYLE',
    'S3_ACCESS_KEY_ID',
    'S3_SECRET_ACCESS_KEY',
  ];
  if (kind !== 's3') {
    const stray = s3Settings.filter((name) => str(name) !== undefined);
    // Set but unused, they would leave an operator believing files go to the bucket.
    if (stray.length > 0) problems.push(`${stray.join(', ')} only apply with BLOB_STORE=s3 (BLOB_STORE is "${kind}")`);
  }
  if (kind === 'fs') {
    // Files on one machine's disk: every hosted process must see the same files, which only one machine can.
    if (!localMode) problems.push('BLOB_STORE=fs is for local mode; hosted mode uses BLOB_STORE=database or BLOB_STORE=s3');
    return { kind: 'fs', root: dataDir };
  }
  if (kind === 'database') {
    if (!onPostgres) problems.push('BLOB_STORE=database needs a Postgres DATABASE_URL; on SQLite use BLOB_STORE=fs');
    return { kind: 'database' };
  }
  if (kind !== 's3') {
    problems.push(`BLOB_STORE must be fs, database or s3 (got "${kind}")`);
    return { kind: 'fs', root: dataDir };
  }
  const bucket = str('S3_BUCKET');
  if (bucket === undefined) problems.push('S3_BUCKET is required when BLOB_STORE=s3');
  else if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) problems.push(`S3_BUCKET must be a bucket name (got "${bucket}")`);
  const prefix = str('S3_PREFIX') ?? '';
  if (!isSafeKeyPrefix(prefix)) problems.push(`S3_PREFIX must be a path ending in "/" such as render-service/ (got "${prefix}")`);
  const endpointRaw = str('S3_ENDPOINT');
  const endpoint = endpointRaw !== undefined ? secureUrl('S3_ENDPOINT', endpointRaw, problems) : undefined;
  const accessKeyId = str('S3_ACCESS_KEY_ID');
  const secretAccessKey = str('S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined))
    problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, for the AWS default credential chain)');
  return {
    kind: 's3',
    bucket: bucket ?? '',
    prefix,
    region: str('S3_REGION') ?? 'us-east-1',
    endpoint,
    // Most S3-compatible servers (MinIO, s3rver) want path-style URLs; AWS prefers virtual hosts.
    forcePathStyle: bool('S3_FORCE_PATH_STYLE') ?? endpoint !== undefined,
    accessKeyId,
    secretAccessKey,
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** True when the host name or address only reaches this machine. */
function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}
