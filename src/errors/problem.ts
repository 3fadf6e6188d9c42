// ProblemError carries an RFC 9457 problem through the stack; the HTTP layer renders it.
import type { components } from '../../codegen/openapi.ts';
import { PROBLEMS, PROBLEM_TYPE_BASE, type ProblemCode, type ProblemDefinition } from './error-registry.ts';

export type Problem = components['schemas']['Problem'];
export type ProblemIssue = components['schemas']['ProblemIssue'];

export interface ProblemOptions {
  detail?: string;
  issues?: ProblemIssue[];
  /** Extra members of the problem object (e.g. balance and cost on 402). */
  extra?: Record<string, unknown>;
  /** Response headers such as Retry-After or WWW-Authenticate. */
  headers?: Record<string, string>;
  cause?: unknown;
  /** Overrides the code's `transient` (error-registry.ts) for this failure, e.g. an upstream error already waited out. */
  transient?: boolean;
}

export class ProblemError extends Error {
  readonly code: ProblemCode;
  readonly status: number;
  readonly detail: string | undefined;
  readonly issues: ProblemIssue[] | undefined;
  readonly extra: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;
  /** Whether another attempt may succeed (see isTransientFailure). */
  readonly transient: boolean;

  constructor(code: ProblemCode, options: ProblemOptions = {}) {
    super(options.detail ?? PROBLEMS[code].title, { cause: options.cause });
    this.name = 'ProblemError';
    this.code = code;
    this.status = PROBLEMS[code].status;
    this.detail = options.detail;
    this.issues = options.issues;
    this.extra = options.extra;
    this.headers = options.headers;
    this.transient = options.transient ?? (PROBLEMS[code] as ProblemDefinition).transient === true;
  }

  toProblem(instance?: string): Problem {
    return problemBody(this.code, { detail: this.detail, issues: this.issues, extra: this.extra }, instance);
  }
}

export function problemBody(
  code: ProblemCode,
  options: Pick<ProblemOptions, 'detail' | 'issues' | 'extra'> = {},
  instance?: string,
): Problem {
  const def = PROBLEMS[code];
  return {
    ...options.extra,
    type: PROBLEM_TYPE_BASE + code,
    status: def.status,
    code,
    title: def.title,
    ...(options.detail !== undefined ? { detail: options.detail } : {}),
    ...(options.issues !== undefined ? { issues: options.issues } : {}),
    ...(instance !== undefined ? { instance } : {}),
  };
}

export function isProblemError(err: unknown): err is ProblemError {
  return err instanceof ProblemError;
}

/**
 * Whether work that failed with `err` is worth another attempt: a problem says so by its code in the
 * error registry (or its own override); any other error is unexpected (a crashed encoder, a reset
 * connection) and may not happen again, so it is.
 */
export function isTransientFailure(err: unknown): boolean {
  return !isProblemError(err) || err.transient;
}
