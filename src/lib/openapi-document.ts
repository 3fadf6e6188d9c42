// Loads openapi.yaml once. The same document drives routing, validation, /v1/openapi.json and the
// reference page, so they cannot disagree.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const OPENAPI_PATH = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));

export interface OpenApiDocument {
  openapi: string;
  info: { version: string; [k: string]: unknown };
  paths: Record<string, Record<string, unknown>>;
  [k: string]: unknown;
}

let cached: OpenApiDocument | undefined;

/** The parsed document. Callers that may mutate it (openapi-backend dereferences in place) take a structuredClone. */
export function openApiDocument(): OpenApiDocument {
  cached ??= parse(readFileSync(OPENAPI_PATH, 'utf8')) as OpenApiDocument;
  return cached;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

export interface OperationInfo {
  operationId: string;
  method: string;
  path: string;
  /** True when the operation requires credentials (no `security: []` override). */
  secured: boolean;
}

export function listOperations(doc: OpenApiDocument = openApiDocument()): OperationInfo[] {
  const rootSecured = Array.isArray(doc.security) && doc.security.length > 0;
  const ops: OperationInfo[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as { operationId?: string; security?: unknown[] } | undefined;
      if (!op?.operationId) continue;
      const secured = op.security === undefined ? rootSecured : op.security.length > 0;
      ops.push({ operationId: op.operationId, method: method.toUpperCase(), path, secured });
    }
  }
  return ops;
}
