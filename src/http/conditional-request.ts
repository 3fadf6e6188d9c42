// Conditional GETs (RFC 9110 §13.1.2, If-None-Match): the one rule every representation the service
// validates follows — rendered files (ETag: the quoted recipe hash, render-response.ts) and JSON and
// HTML answers (ETag: the SHA-256 of the exact body bytes, sendRepresentation below).
//
// A request's `Cache-Control: no-cache` does not turn the rule off. That directive addresses caches
// (RFC 9111 §5.2.1.4: a cache must not answer from storage without validating with the origin); an
// origin server answering a conditional request still answers 304 when the tag matches. fetch
// (browsers, Node's undici) adds `Cache-Control: no-cache` to every request that sets If-None-Match,
// so honouring it would mean a fetch client never gets a 304 (express's own freshness check does).
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isPubliclyCacheable, withoutPerRequestHeaders } from './public-answer.ts';

/** A strong entity-tag of exactly these bytes. */
export function strongEtag(bytes: Buffer | string): string {
  return `"${createHash('sha256').update(bytes).digest('hex')}"`;
}

/** `"x"` → `"x"`, `W/"x"` → `"x"`: weak comparison looks at the opaque tags only (RFC 9110 §8.8.3.2). */
const opaqueTag = (tag: string): string => tag.replace(/^W\//, '');

/**
 * Whether If-None-Match matches the current representation's `etag` (RFC 9110 §13.1.2): `*`, or any
 * listed entity-tag equal to it by weak comparison. Tags are read as quoted strings, so a comma
 * inside one does not split it; anything that is not an entity-tag matches nothing.
 */
export function ifNoneMatchMatches(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const value = Array.isArray(header) ? header.join(', ') : header;
  if (value.trim() === '*') return true;
  const ours = opaqueTag(etag);
  for (const [tag] of value.matchAll(/(?:W\/)?"[^"]*"/g)) if (opaqueTag(tag) === ours) return true;
  return false;
}

/**
 * The fields a 304 carries of those its 200 would have (RFC 9110 §15.4.5: Content-Location, ETag,
 * Vary, Cache-Control, Expires; Date is node's). Other representation metadata (Content-Type,
 * Link, …) stays with the copy the client already holds.
 */
const NOT_MODIFIED_FIELDS = new Set(['content-location', 'etag', 'vary', 'cache-control', 'expires']);

/**
 * Answers 304 Not Modified with `headers` (ETag among them, and what else RFC 9110 §15.4.5 asks of
 * it) when the request's If-None-Match matches `etag`; returns true if it did.
 */
export function answerNotModified(req: IncomingMessage, res: ServerResponse, etag: string, headers: Record<string, string>): boolean {
  if (!ifNoneMatchMatches(req.headers['if-none-match'], etag)) return false;
  res.statusCode = 304;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('ETag', etag);
  res.end();
  return true;
}

/**
 * Writes a complete answer (JSON or HTML) with node's own response API. A 200 to GET or HEAD carries
 * a strong ETag of the body bytes and answers 304 to a matching If-None-Match instead.
 */
export function sendRepresentation(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  // A copy a shared cache keeps is served to everyone: nothing of this request or client goes with it.
  if (status === 200 && isPubliclyCacheable(headers['Cache-Control'])) withoutPerRequestHeaders(res);
  if (status === 200 && (req.method === 'GET' || req.method === 'HEAD')) {
    const etag = strongEtag(bytes);
    const kept = Object.entries(headers).filter(([name]) => NOT_MODIFIED_FIELDS.has(name.toLowerCase()));
    if (answerNotModified(req, res, etag, Object.fromEntries(kept))) return;
    res.setHeader('ETag', etag);
  }
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Length', bytes.length);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}
