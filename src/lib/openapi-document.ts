// Loads openapi.yaml once. The same document drives routing, validation, /v1/openapi.json and the
// reference page, so they cannot disagree.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { packagePath } from './package-root.ts';

export const OPENAPI_PATH = packagePath('openapi.yaml');

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

type ParameterObject = { name?: string; in?: string; schema?: { type?: unknown }; $ref?: string };

/**
 * The query parameters of each operation whose schema is a number or an integer (their text must be
 * a plain decimal: see inputIssues in src/http/request-steps.ts), by operationId.
 */
export function numericQueryParams(doc: OpenApiDocument = openApiDocument()): ReadonlyMap<string, ReadonlySet<string>> {
  const components = ((doc.components as { parameters?: Record<string, ParameterObject> } | undefined)?.parameters ?? {}) as Record<
    string,
    ParameterObject
  >;
  const resolve = (p: ParameterObject) => (p.$ref ? (components[p.$ref.replace('#/components/parameters/', '')] ?? {}) : p);
  const numeric = (p: ParameterObject) => {
    const type = p.schema?.type;
    return (Array.isArray(type) ? type : [type]).some((t) => t === 'number' || t === 'integer');
  };
  const byOperation = new Map<string, ReadonlySet<string>>();
  for (const item of Object.values(doc.paths)) {
    const shared = ((item.parameters as ParameterObject[] | undefined) ?? []).map(resolve);
    for (const method of METHODS) {
      const op = item[method] as { operationId?: string; parameters?: ParameterObject[] } | undefined;
      if (!op?.operationId) continue;
      const params = [...shared, ...(op.parameters ?? []).map(resolve)];
      byOperation.set(op.operationId, new Set(params.filter((p) => p.in === 'query' && numeric(p)).map((p) => p.name!)));
    }
  }
  return byOperation;
}
