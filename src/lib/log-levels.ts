// The log levels (pino's), the values LOG_LEVEL accepts: a module of their own, so reading the
// settings (src/config/logging.ts) does not load the logger (pino) in a process that logs nothing.

/** pino's levels, the values LOG_LEVEL accepts (owned here, so the lowest layer need not import the settings). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
