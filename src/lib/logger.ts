// The process logger: JSON lines (pino). Redaction is the second line of defence behind the request
// log's allow-list (src/http/logging.ts), for anything code logs by mistake.
import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './log-levels.ts';

export { LOG_LEVELS, type LogLevel } from './log-levels.ts';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["payment-signature"]',
  'req.headers["stripe-signature"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'authorization',
  'cookie',
  'secret',
  'secretHash',
  'secret_hash',
  'token',
  '*.secret',
  '*.secretHash',
  '*.secret_hash',
  '*.token',
  '*.authorization',
  '*.cookie',
];

export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { service: 'render-service' } }, destination);
}
