// The API client's rules, without the network or the DOM (unit-tested in Node:
// test/unit/web-jobs.test.ts): which requests are sent again once the service is back, what a
// refusal says, and a download's file name.
import { issueLine } from './field-text.js';

/**
 * Sent again once the service is back only when that cannot do something twice: reads, renders
 * (a repeat is a free cache hit) and requests with an Idempotency-Key. Anything else (creating a
 * key or a preset) may have reached the service before the connection broke: it fails, with the
 * banner up, and the person decides.
 */
export function resendable(path, init = {}) {
  const method = (init.method ?? 'GET').toUpperCase();
  if (method === 'GET' || method === 'HEAD' || path.startsWith('/v1/generate/')) return true;
  return Object.keys(init.headers ?? {}).some((name) => name.toLowerCase() === 'idempotency-key');
}

/**
 * What a person reads of a refusal: with issues, each in plain words named by its field ("Title:
 * must be at most 80 characters", never `body.params.title`), joined by "; "; else its detail, title or status.
 */
export function problemMessage(status, problem) {
  const issues = Array.isArray(problem?.issues) ? problem.issues : [];
  return issues.map((i) => issueLine(i).text).join('; ') || problem?.detail || problem?.title || `HTTP ${status}`;
}

/** The file name a Content-Disposition header gives (`filename*=UTF-8''…` decoded), or null. */
export function dispositionName(disposition) {
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition ?? '');
  return match ? decodeURIComponent(match[1]) : null;
}

/**
 * The URL of an operation of the contract (its path template from web/js/generated/operations.js):
 * each `{name}` filled from `path` (encoded), the defined entries of `query` appended. A path param
 * left out throws: the request would reach another operation, or none.
 */
export function operationUrl(template, path = {}, query = {}) {
  const url = template.replace(/\{(\w+)\}/g, (_, name) => {
    if (path[name] === undefined || path[name] === null || path[name] === '') throw new Error(`${template} needs its path param "${name}"`);
    return encodeURIComponent(path[name]);
  });
  const search = new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined && v !== null)).toString();
  return search ? `${url}?${search}` : url;
}
