// Idempotency-Key on mutating operations (Stripe's model): the first request with a key runs and
// its response is stored; a replay with the same body gets that response back (marked
// `Idempotent-Replayed: true`) and does no work, so it charges nothing; the same key with another
// body is 422; a replay while the first still runs is 409. A 5xx or an aborted first request
// frees the key so a retry runs again. Keys expire after IDEMPOTENCY_TTL_MS.
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import canonicalizeModule from 'canonicalize';
import type { IdempotencyRepository, StoredResponse } from '../../db/repositories/idempotency.repository.ts';
import { ProblemError } from '../errors/problem.ts';
import type { Clock } from '../lib/clock.ts';
import type { operations } from '../../codegen/openapi.ts';

// The generated operation ids directly, not handler.types.ts: that module depends on the container, which holds this service.
type OperationId = keyof operations;

const canonicalize = canonicalizeModule as unknown as (value: unknown) => string | undefined;

export const IDEMPOTENT_OPERATIONS: ReadonlySet<OperationId> = new Set([
  'generate',
  'renderBatch',
  'createJob',
  'createKey',
  'createCheckout',
]);
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** Larger responses are not kept (the key is freed): export big files through jobs. */
export const MAX_STORED_RESPONSE_BYTES = 16 * 1024 * 1024;
/** Headers that describe the request rather than the result are not replayed. */
const NOT_REPLAYED = new Set([
  'content-length',
  'set-cookie',
  'x-request-id',
  'ratelimit',
  'ratelimit-policy',
  'retry-after',
  'vary',
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-expose-headers',
]);

export class IdempotencyService {
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly repo: IdempotencyRepository,
    private readonly clock: Clock,
  ) {}

  /** Deletes expired keys every `intervalMs` (their stored responses can be large). */
  startSweeper(onError: (err: unknown) => void, intervalMs = 15 * 60_000): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.repo.deleteExpired(this.clock.now()).catch(onError), intervalMs);
    this.sweeper.unref();
  }

  stopSweeper(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  fingerprint(operationId: string, req: Request): string {
    return createHash('sha256')
      .update(`${operationId}\n${req.method} ${req.originalUrl}\n${canonicalize(req.body ?? null) ?? ''}`)
      .digest('hex');
  }

  /** Runs `handler` under the request's Idempotency-Key (if it sent one). */
  async respondOnce(
    operationId: OperationId,
    workspaceId: string,
    req: Request,
    res: Response,
    handler: () => Promise<void>,
  ): Promise<void> {
    const key = req.headers['idempotency-key'];
    if (typeof key !== 'string' || !IDEMPOTENT_OPERATIONS.has(operationId)) return handler();
    const fingerprint = this.fingerprint(operationId, req);
    const now = this.clock.now();
    const claim = await this.repo.claim(workspaceId, key, fingerprint, now, now + IDEMPOTENCY_TTL_MS);
    if (claim.state !== 'claimed') {
      if (claim.fingerprint !== fingerprint) {
        throw new ProblemError('idempotency_key_reused', {
          detail: 'This Idempotency-Key was used with a different request. Use a new key for a new request.',
        });
      }
      if (claim.state === 'running') {
        throw new ProblemError('idempotency_in_progress', {
          detail: 'The first request with this Idempotency-Key is still running. Retry shortly.',
          headers: { 'Retry-After': '1' },
        });
      }
      res.status(claim.response.status).set(claim.response.headers).set('Idempotent-Replayed', 'true').end(claim.response.body);
      return;
    }

    const captured = capture(res);
    let stored = false;
    try {
      await handler();
      const response = await captured.finished;
      if (response && response.status < 500 && response.body.length <= MAX_STORED_RESPONSE_BYTES) {
        await this.repo.complete(workspaceId, key, forStorage(operationId, response));
        stored = true;
      }
    } finally {
      if (!stored) await this.repo.release(workspaceId, key);
    }
  }
}

/**
 * What may be kept. A new API key's secret is shown once and never stored anywhere, so a replay of
 * createKey returns the key without it.
 */
function forStorage(operationId: OperationId, response: StoredResponse): StoredResponse {
  if (operationId !== 'createKey') return response;
  try {
    const { secret: _secret, ...rest } = JSON.parse(response.body.toString('utf8')) as Record<string, unknown>;
    return { ...response, body: Buffer.from(JSON.stringify(rest)) };
  } catch {
    return { ...response, body: Buffer.alloc(0) };
  }
}

/** Copies what the handler sends, and resolves when the response is complete (undefined if the client left). */
function capture(res: Response): { finished: Promise<StoredResponse | undefined> } {
  const chunks: Buffer[] = [];
  const write = res.write.bind(res) as (...a: unknown[]) => boolean;
  const end = res.end.bind(res) as (...a: unknown[]) => Response;
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    chunks.push(
      Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'),
    );
  };
  (res as unknown as { write: (...a: unknown[]) => boolean }).write = (...args: unknown[]) => {
    keep(args[0], args[1]);
    return write(...args);
  };
  (res as unknown as { end: (...a: unknown[]) => Response }).end = (...args: unknown[]) => {
    keep(args[0], args[1]);
    return end(...args);
  };
  const finished = new Promise<StoredResponse | undefined>((resolve) => {
    res.once('finish', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.getHeaders())) {
        if (value === undefined || NOT_REPLAYED.has(name.toLowerCase()) || name.toLowerCase().startsWith('access-control-')) continue;
        headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
      }
      resolve({ status: res.statusCode, headers, body: Buffer.concat(chunks) });
    });
    res.once('close', () => resolve(undefined));
  });
  return { finished };
}
