// Everything that reaches into openapi-backend's internals lives here, behind one tested seam
// (openapi-backend.seam.test.ts compares the patched matcher with the library's own on the whole
// contract), so a library upgrade that changes them breaks one module and one test.
import { OpenAPIBackend, type Document } from 'openapi-backend';
import { createAjv } from '../lib/schema-validation.ts';

/** openapi-backend checks definitions against the 3.0 schema; redocly lint is our definition gate. */
export class ContractBackend extends OpenAPIBackend {
  override validateDefinition() {
    return this.document;
  }

  /**
   * The document is an object already: the library's parse only copied it for validateDefinition.
   * init dereferences the same object (dereference-json-schema keeps one dereferenced copy per
   * source object), so the backends of one process given one document share its definition.
   */
  override loadDocument() {
    this.document = this.inputDocument as Document;
    return Promise.resolve(this.document);
  }
}

/** A path template as a RegExp: each `{param}` matches (and captures) one segment. */
function templatePattern(templatePath: string): RegExp {
  const escape = (literal: string) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    `^${templatePath
      .replace(/\{[^}]+\}/g, '\0')
      .split('\0')
      .map(escape)
      .join('([^/]+)')}$`,
  );
}

/**
 * The contract's backend: strict, coercing query and path types, with our Ajv (draft 2020-12) and
 * lazily compiled validators (openapi-backend makes a new Ajv for every operation and context and
 * would precompile response validators we never run; `quick` defers compiling, and no schema is
 * checked against the meta-schema, which every new Ajv would compile again: redocly lint checks the
 * document). createApp went from ~3.5 s to well under one.
 */
export function createContractBackend(document: Document): ContractBackend {
  return new ContractBackend({
    definition: document,
    strict: true,
    coerceTypes: true,
    quick: true,
    // verbose: an error carries its schema, so toIssues can name the field a `not: { required }` excludes.
    ajvOpts: { strict: false, allErrors: true, validateSchema: false, verbose: true },
    customizeAjv: (_original: unknown, ajvOpts: unknown) => createAjv(ajvOpts as Record<string, unknown>),
  });
}

type Router = OpenAPIBackend['router'];
type RouterOperation = ReturnType<Router['getOperations']>[number];

/** openapi-backend's matchOperation with its patterns compiled once instead of on every request. */
export function compileOperationMatcher(router: Router, operations: readonly RouterOperation[]) {
  const byPath = new Map<string, RouterOperation[]>();
  for (const op of operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  const templates = operations
    .map((op) => ({
      op,
      pattern: templatePattern(op.path),
      specificity: op.path.replace(/\{.*?\}/g, '').length,
    }))
    // Most specific first; ties keep the document's order (sort is stable, as lodash's orderBy).
    .sort((a, b) => b.specificity - a.specificity);
  return (req: Parameters<Router['matchOperation']>[0], strict?: boolean): RouterOperation | undefined => {
    const normalized = router.normalizeRequest(req);
    const fail = (message: string) => {
      if (strict) throw Error(message);
      return undefined;
    };
    const path = router.normalizePath(normalized.path);
    // HEAD runs the GET operation (RFC 9110 §9.3.2: same headers, no body; Node drops the body).
    const method = normalized.method === 'head' ? 'get' : normalized.method;
    const exact = byPath.get(path)?.find((op) => op.method === method);
    if (exact) return exact;
    const matching = templates.filter((t) => t.pattern.test(path));
    if (matching.length === 0) return fail('404-notFound: no route matches request');
    return matching.find((t) => t.op.method === method)?.op ?? fail('405-methodNotAllowed: this method is not registered for the route');
  };
}

type RequestValidators = OpenAPIBackend['validator']['requestValidators'];
/**
 * The request validators compiled from each source document. They depend on the document and
 * createContractBackend's fixed Ajv options alone, so the apps of one process share them.
 */
const compiledValidators = new WeakMap<object, RequestValidators>();

/**
 * After init: takes the request validators an earlier backend compiled from the same `source`
 * document, and replaces the router's per-request work with precomputed equivalents: the flattened
 * operation list (rebuilt on every match, twice for templated paths; the document never changes) and
 * the matcher (a RegExp built per operation on every match). Returns the operations.
 *
 * An operation's validators compile on its first request (openapi-backend's quick mode), not at
 * start: compiling all 58 took about 1 s of CPU, a third of a service's start, and a process
 * (a test's service, an API process scaling out) uses a few. The first request of an
 * operation waits about 20 ms on average. A schema Ajv cannot compile fails CI instead of a start: a unit test
 * (openapi-backend.seam.test.ts) compiles every operation's.
 */
export function installCompiledRouting(api: OpenAPIBackend, source?: object): RouterOperation[] {
  const shared = source && compiledValidators.get(source);
  if (shared) api.validator.requestValidators = shared;
  else if (source) compiledValidators.set(source, api.validator.requestValidators);
  const flattened = api.router.getOperations();
  api.router.getOperations = () => flattened;
  api.router.matchOperation = compileOperationMatcher(api.router, flattened) as typeof api.router.matchOperation;
  return flattened;
}

/** The raw (still percent-encoded) path parameters of a templated path, e.g. /v1/jobs/{id}. */
export function pathParamReader(templatePath: string): (path: string) => Record<string, string> {
  const names = [...templatePath.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  if (names.length === 0) return () => ({});
  const pattern = templatePattern(templatePath);
  return (path) => {
    const m = pattern.exec(path);
    return Object.fromEntries(names.map((n, i) => [n, m?.[i + 1] ?? '']));
  };
}
