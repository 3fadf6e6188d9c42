// Parses the environment once into a typed, frozen Config. Each concern parses its own settings in
// its own module (server.ts, database.ts, auth.ts, …) into the one shared problems list, so every
// invalid setting is reported together and the process refuses to start (see ConfigError).
import { type AssetsConfig, parseAssets } from './assets.ts';
import { type AuthConfig, parseAuth } from './auth.ts';
import { type BillingConfig, parseBilling } from './billing.ts';
import { type DatabaseConfig, parseDatabase } from './database.ts';
import { type Env, envReader } from './env-reader.ts';
import { type JobsConfig, parseJobs } from './jobs.ts';
import { type LoggingConfig, parseLogging } from './logging.ts';
import { type MetricsConfig, parseMetrics } from './metrics.ts';
import { type RateLimitConfig, parseRateLimits } from './rate-limits.ts';
import { type RenderConfig, parseRender } from './render.ts';
import { type ServerConfig, parseServer } from './server.ts';
import { type StorageConfig, parseStorage } from './storage.ts';

// The names the rest of the code imports from here (and the settings-table generator, scripts/docs/settings.ts,
// looks named defaults up in); each is owned by its concern's module.
export { isLoopbackHost } from './addresses.ts';
export type { OAuthClient, SignInConfig } from './auth.ts';
export { defaultCheckoutUrls } from './billing.ts';
export { DEFAULT_BODY_LIMIT_BYTES, DEFAULT_PORT } from './server.ts';
export type { BlobStoreConfig } from './storage.ts';

export interface Config
  extends
    ServerConfig,
    DatabaseConfig,
    StorageConfig,
    AuthConfig,
    BillingConfig,
    RenderConfig,
    RateLimitConfig,
    JobsConfig,
    MetricsConfig,
    LoggingConfig,
    AssetsConfig {}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: Env, cwd: string = process.cwd()): Config {
  const problems: string[] = [];
  const read = envReader(env, problems);
  // The mode (from the database) and the server's origin decide what the other concerns accept.
  const database = parseDatabase(read, cwd);
  const { localMode } = database;
  const server = parseServer(read, localMode);
  const config: Config = {
    ...database,
    ...server,
    ...parseAuth(read, { localMode, appOrigin: server.appOrigin, host: server.host }),
    ...parseStorage(read, { localMode, onPostgres: database.database.client === 'pg', dataDir: database.dataDir }),
    ...parseBilling(read, { localMode, appOrigin: server.appOrigin }),
    ...parseJobs(read, localMode),
    ...parseLogging(read),
    ...parseRender(read),
    ...parseMetrics(read),
    ...parseRateLimits(read),
    ...parseAssets(read),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return deepFreeze(config);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
