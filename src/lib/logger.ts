// The process logger: JSON lines (pino). Redaction is the second line of defence behind the request
// log's allow-list (src/http/logging.ts), for anything code logs by mistake.
import { pino, type DestinationStream, type Logger } from 'pino';

/** pino's levels, the values LOG_LEVEL accepts (owned here, so the lowest layer need not import the settings). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

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
