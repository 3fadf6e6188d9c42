// Loads openapi.yaml once. The same document drives routing, validation, /v1/openapi.json and the
// reference page, so they cannot disagree.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { packagePath } from './package-root.ts';

export const OPENAPI_PATH = packagePath('openapi.yaml');
/**
 * The document parsed at build time (scripts/build-service.mjs writes it beside the compiled service):
 * JSON parses in about 4 ms where this YAML takes about 400 ms, which every service process paid at
 * start. It is used only when made from the openapi.yaml that is there now (its sha256).
 */
export const PARSED_OPENAPI_PATH = packagePath('dist', 'openapi.json');

export interface OpenApiDocument {
  openapi: string;
  info: { version: string; [k: string]: unknown };
  paths: Record<string, Record<string, unknown>>;
  [k: string]: unknown;
}

/** What PARSED_OPENAPI_PATH holds. */
export interface ParsedOpenApi {
  /** sha256 (hex) of the openapi.yaml it was parsed from. */
  sourceSha256: string;
  document: OpenApiDocument;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The build's parsed copy (`parsedPath`) when it was made from `text`, else undefined (no build, or the contract changed since). */
function parsedAtBuild(text: string, parsedPath: string): OpenApiDocument | undefined {
  let parsed: ParsedOpenApi;
  try {
    parsed = JSON.parse(readFileSync(parsedPath, 'utf8')) as ParsedOpenApi;
  } catch {
    return undefined;
  }
  return parsed.sourceSha256 === sha256(text) ? parsed.document : undefined;
}

/** The contract at `yamlPath`: the build's parsed copy at `parsedPath` when it is of this text, else the YAML parsed here. */
export function loadOpenApiDocument(yamlPath = OPENAPI_PATH, parsedPath = PARSED_OPENAPI_PATH): OpenApiDocument {
  const text = readFileSync(yamlPath, 'utf8');
  const built = parsedAtBuild(text, parsedPath);
  if (built) return built;
  // Loaded only here: with a current build no process loads the YAML parser.
  const { parse } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return parse(text) as OpenApiDocument;
}

let cached: OpenApiDocument | undefined;

/** The parsed document, one object per process: a caller that may mutate it takes a structuredClone. */
export function openApiDocument(): OpenApiDocument {
  cached ??= loadOpenApiDocument();
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
