// Body handling: JSON only, one documented size limit, objects only. The payment webhook keeps
// its raw bytes because its signature covers them exactly.
import express, { type RequestHandler } from 'express';
import { ProblemError } from '../errors/problem.ts';

export type RawBodyRequest = express.Request & { rawBody?: Buffer };

export const RAW_BODY_PATHS = ['/v1/billing/webhook'];

const JSON_TYPES = ['application/json', 'application/*+json'];

function hasBody(req: express.Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export function bodyParsers(limitBytes: number): RequestHandler[] {
  const raw = express.raw({ type: () => true, limit: limitBytes });
  const json = express.json({ type: JSON_TYPES, limit: limitBytes, strict: false });
  const requireJson: RequestHandler = (req, _res, next) => {
    if (!hasBody(req) || RAW_BODY_PATHS.includes(req.path)) return next();
    if (!req.is(JSON_TYPES)) {
      return next(new ProblemError('unsupported_media_type', { detail: `Send the body as application/json (got ${req.headers['content-type'] ?? 'no Content-Type'}).` }));
    }
    next();
  };
  // The signed routes keep the exact bytes in req.rawBody; req.body gets the parsed JSON (if it is
  // JSON) only so that contract validation can run. The signature check reads rawBody.
  const rawForWebhook: RequestHandler = (req, res, next) => {
    if (!RAW_BODY_PATHS.includes(req.path)) return next();
    raw(req, res, (err?: unknown) => {
      if (err) return next(err);
      const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      (req as RawBodyRequest).rawBody = bytes;
      try {
        req.body = bytes.length > 0 ? JSON.parse(bytes.toString('utf8')) : undefined;
      } catch {
        req.body = undefined;
      }
      next();
    });
  };
  const jsonElsewhere: RequestHandler = (req, res, next) => (RAW_BODY_PATHS.includes(req.path) ? next() : json(req, res, next));
  const objectsOnly: RequestHandler = (req, _res, next) => {
    if (RAW_BODY_PATHS.includes(req.path) || req.body === undefined) return next();
    if (req.body === null || typeof req.body !== 'object' || Array.isArray(req.body)) {
      return next(
        new ProblemError('validation_failed', {
          detail: 'The request body must be a JSON object.',
          issues: [{ path: 'body', message: 'must be a JSON object', keyword: 'type' }],
        }),
      );
    }
    next();
  };
  return [requireJson, rawForWebhook, jsonElsewhere, objectsOnly];
}
