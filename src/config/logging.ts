// How much the process logs (LOG_LEVEL); the levels themselves are the logger's (src/lib/log-levels.ts).
import { LOG_LEVELS, type LogLevel } from '../lib/log-levels.ts';
import type { EnvReader } from './env-reader.ts';

export interface LoggingConfig {
  readonly logLevel: LogLevel;
}

export function parseLogging({ str, problems }: EnvReader): LoggingConfig {
  const logLevelRaw = (str('LOG_LEVEL') ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevelRaw as LogLevel))
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevelRaw}")`);
  return { logLevel: logLevelRaw as LogLevel };
}
