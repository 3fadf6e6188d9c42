// Body handling: JSON only, uncompressed, one documented size limit, one deadline, objects only.
// The operations router calls readBody after it has matched and authenticated the request, so an
// unauthenticated client cannot make the service buffer a body. The payment webhook keeps its raw
// bytes because its signature covers them exactly as sent. An upload operation (createAsset) takes a
// file as its raw body instead, with a limit per media type that is enforced while the body arrives.
import type { IncomingMessage } from 'node:http';
import express, { type Request, type Response } from 'express';
import { ProblemError } from '../errors/problem.ts';

export type RawBodyRequest = express.Request & { rawBody?: Buffer };

export const RAW_BODY_PATHS = ['/v1/billing/webhook'];

const JSON_TYPES = ['application/json', 'application/*+json'];

export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export interface BodyOptions {
  limitBytes: number;
  /** Deadline for the whole body, from the moment the route starts reading it (408 request_timeout). */
  timeoutMs: number;
  /**
   * Operations that take a file as their raw body (the bytes go to req.rawBody, req.body stays
   * undefined). A JSON body is read as any operation's, and left to the handler to refuse.
   */
  uploads?: Partial<Record<string, UploadRule>>;
}

/** How an upload operation reads its body. */
export interface UploadRule {
  /** For a media type the operation takes as a file: its largest body and the problem past it; undefined for any other. */
  accept(mediaType: string): { limitBytes: number; tooLarge: () => ProblemError } | undefined;
  /** The problem for a body that is neither such a file nor JSON (415). */
  unsupported(mediaType: string | undefined): ProblemError;
}

/**
 * Reads a file body into a Buffer, refusing it as soon as it passes `limitBytes` (a `Content-Length`
 * over the limit is refused before a byte is read): a body far over the limit is never buffered.
 */
function readUpload(req: Request, limitBytes: number, tooLarge: () => ProblemError, timeoutMs: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const done = (err: unknown, bytes?: Buffer) => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAborted);
      if (err) {
        // Nothing more is read: the answer closes the connection (problem-response.ts).
        req.pause();
        reject(err);
      } else resolve(bytes!);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limitBytes) done(tooLarge());
      else chunks.push(chunk);
    };
    const onEnd = () => done(undefined, Buffer.concat(chunks, received));
    const onError = (err: Error) => done(err);
    const onAborted = () => done(new ProblemError('client_closed_request'));
    const timer = setTimeout(
      () => done(new ProblemError('request_timeout', { detail: `The request body did not arrive within ${timeoutMs} ms.` })),
      timeoutMs,
    );
    req.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted);
  });
}

/** Reads the body into req.body (and req.rawBody on RAW_BODY_PATHS and uploads); rejects with a ProblemError or a body-parser error. */
export function createBodyReader(options: BodyOptions): (req: Request, res: Response, operationId?: string) => Promise<void> {
  const raw = express.raw({ type: () => true, limit: options.limitBytes, inflate: false });
  const json = express.json({ type: JSON_TYPES, limit: options.limitBytes, strict: false, inflate: false });

  const parse = (req: Request, res: Response, parser: express.RequestHandler): Promise<void> =>
    new Promise((resolve, reject) => {
      // A body that trickles in is cut off: the client gets 408 and the connection is closed
      // (problem-response.ts closes it when the request has not been read to its end).
      const timer = setTimeout(
        () => reject(new ProblemError('request_timeout', { detail: `The request body did not arrive within ${options.timeoutMs} ms.` })),
        options.timeoutMs,
      );
      parser(req, res, (err?: unknown) => {
        clearTimeout(timer);
        if (err) reject(err);
        else resolve();
      });
    });

  return async (req, res, operationId) => {
    // Compressed bodies are refused (RFC 7694): the webhook's signature covers the bytes as sent, and
    // bodies are small JSON, where decompression only adds a way to exhaust the service. One rule:
    // a request that says its body is compressed is refused whether or not one follows (every
    // operation that may carry a body declares 415; a GET or HEAD is judged by its body alone).
    const mayCarryBody = req.method !== 'GET' && req.method !== 'HEAD';
    const encoding = mayCarryBody || hasBody(req) ? req.headers['content-encoding']?.trim().toLowerCase() : undefined;
    if (encoding !== undefined && encoding !== '' && encoding !== 'identity') {
      throw new ProblemError('unsupported_media_type', {
        detail: `Content-Encoding "${req.headers['content-encoding']}" is not accepted: send the body uncompressed.`,
        issues: [{ path: 'header.Content-Encoding', message: 'must be absent or identity', keyword: 'enum' }],
        headers: { 'Accept-Encoding': 'identity' },
      });
    }
    if (!hasBody(req)) {
      req.body = undefined;
      return;
    }
    const uploadRule = operationId === undefined ? undefined : options.uploads?.[operationId];
    if (uploadRule) {
      const mediaType = req.headers['content-type']?.split(';')[0]?.trim().toLowerCase() || undefined;
      const upload = mediaType === undefined ? undefined : uploadRule.accept(mediaType);
      if (upload) {
        (req as RawBodyRequest).rawBody = await readUpload(req, upload.limitBytes, upload.tooLarge, options.timeoutMs);
        req.body = undefined;
        return;
      }
      if (!req.is(JSON_TYPES)) throw uploadRule.unsupported(mediaType);
    }
    if (RAW_BODY_PATHS.includes(req.path)) {
      await parse(req, res, raw);
      // The exact bytes go to req.rawBody; req.body gets the parsed JSON (if it is JSON) only so that
      // contract validation can run. The signature check reads rawBody.
      const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      (req as RawBodyRequest).rawBody = bytes;
      try {
        req.body = bytes.length > 0 ? JSON.parse(bytes.toString('utf8')) : undefined;
      } catch {
        req.body = undefined;
      }
      return;
    }
    if (!req.is(JSON_TYPES)) {
      throw new ProblemError('unsupported_media_type', {
        detail: `Send the body as application/json (got ${req.headers['content-type'] ?? 'no Content-Type'}).`,
      });
    }
    await parse(req, res, json);
    if (req.body === undefined) return;
    if (req.body === null || typeof req.body !== 'object' || Array.isArray(req.body)) {
      throw new ProblemError('validation_failed', {
        detail: 'The request body must be a JSON object.',
        issues: [{ path: 'body', message: 'must be a JSON object', keyword: 'type' }],
      });
    }
  };
}
