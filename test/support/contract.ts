// Checks a response against openapi.yaml: the status is declared for the operation (`default`
// alone does not count: generated clients type only declared statuses), the Content-Type is one
// the response lists, JSON and problem+json bodies match their schemas, and declared headers are
// present when required and valid when present.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OpenAPIRouter, type Document } from 'openapi-backend';
import dereference from 'dereference-json-schema';
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../../src/lib/schema-validation.ts';
import { openApiDocument } from '../../src/lib/openapi-document.ts';
import { compileOperationMatcher } from '../../src/http/openapi-backend.seam.ts';

type Schema = Record<string, unknown>;
interface ResponseObject {
  content?: Record<string, { schema?: Schema }>;
  headers?: Record<string, { required?: boolean; schema?: Schema }>;
}
interface OperationObject {
  operationId: string;
  responses: Record<string, ResponseObject>;
}

/** openapi.yaml with every $ref resolved: the schemas responses (and the document's examples) are checked against. */
export const dereferencedDocument = dereference.dereferenceSync(structuredClone(openApiDocument()) as never) as unknown as Document;
const router = new OpenAPIRouter({ definition: dereferencedDocument });
// The service's compiled matcher (the library's flattens every operation again on every match:
// a third of the fuzz file's checking), but HEAD stays outside the contract here, as the library
// has it: a HEAD answer carries no body for GET's schemas.
const compiledMatch = compileOperationMatcher(router, router.getOperations());
const matchOperation = (method: string, path: string) =>
  method.toLowerCase() === 'head' ? undefined : compiledMatch({ method, path, headers: {} }, false);
export const ajv = createAjv();
const validators = new WeakMap<object, ValidateFunction>();

/** The service's Ajv validator for a (dereferenced) schema, compiled once per schema object. */
export function validatorFor(schema: Schema): ValidateFunction {
  let v = validators.get(schema);
  if (!v) {
    v = ajv.compile(schema);
    validators.set(schema, v);
  }
  return v;
}

// Every status each operation answered in this test process, with the names of the response
// headers received with it, written when it exits as { operationId: { status: [header names] } };
// a run has many test processes, so scripts/status-coverage.mjs merges their files into the
// operation × status table (declared statuses nobody produced are as much a contract lie as
// undeclared ones) and checks every header received against the ones the response declares.
const observed = new Map<string, Map<string, Set<string>>>();
const coverageDir = process.env.STATUS_COVERAGE_DIR ?? fileURLToPath(new URL('../../test-results/status-coverage', import.meta.url));
process.on('exit', () => {
  if (observed.size === 0) return;
  mkdirSync(coverageDir, { recursive: true });
  const out = Object.fromEntries(
    [...observed].map(([op, statuses]) => [
      op,
      Object.fromEntries([...statuses].sort(([a], [b]) => a.localeCompare(b)).map(([status, names]) => [status, [...names].sort()])),
    ]),
  );
  writeFileSync(path.join(coverageDir, `${process.pid}.json`), JSON.stringify(out));
});

function record(operationId: string, status: number, headers: ObservedResponse['headers']): void {
  let statuses = observed.get(operationId);
  if (!statuses) observed.set(operationId, (statuses = new Map()));
  let names = statuses.get(String(status));
  if (!names) statuses.set(String(status), (names = new Set()));
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) names.add(name.toLowerCase());
}

export interface ObservedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  text?: string;
}

/** Returns the operationId that served the request, or undefined for routes outside the contract. */
export function assertMatchesContract(method: string, url: string, res: ObservedResponse): string | undefined {
  const path = url.split('?')[0];
  const operation = matchOperation(method, path) as unknown as OperationObject | undefined;
  const contentType = String(res.headers['content-type'] ?? '')
    .split(';')[0]
    .trim();
  if (!operation) {
    // Unknown routes and wrong methods still answer with a problem document.
    if (res.status >= 400) assert.equal(contentType, 'application/problem+json', `${method} ${path} → ${res.status} must be problem+json`);
    return undefined;
  }
  const where = `${operation.operationId} (${method} ${path}) → ${res.status}`;
  record(operation.operationId, res.status, res.headers);
  const response = operation.responses[String(res.status)];
  assert.ok(response, `${where}: status not declared for this operation (only \`default\` covers it)`);
  if (res.status >= 400) assert.equal(contentType, 'application/problem+json', `${where}: errors must be problem+json`);

  if (response.content && res.status !== 304 && res.status !== 204) {
    assert.ok(
      contentType in response.content,
      `${where}: Content-Type ${contentType || '(none)'} not in ${Object.keys(response.content).join(', ')}`,
    );
    const schema = response.content[contentType].schema;
    if (schema && (contentType === 'application/json' || contentType === 'application/problem+json')) {
      const body =
        res.body !== undefined && !Buffer.isBuffer(res.body) && Object.keys(res.body as object).length > 0
          ? res.body
          : JSON.parse(res.text ?? 'null');
      const validate = validatorFor(schema);
      assert.ok(
        validate(body),
        `${where}: body does not match the contract: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 2000)}`,
      );
    }
  }
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    const value = res.headers[name.toLowerCase()];
    if (value === undefined) {
      assert.ok(!header.required, `${where}: required header ${name} is missing`);
      continue;
    }
    if (header.schema) {
      const schema = header.schema;
      const candidate = schema.type === 'integer' || schema.type === 'number' ? Number(value) : value;
      const validate = validatorFor(schema);
      assert.ok(validate(candidate), `${where}: header ${name}=${String(value)} does not match: ${ajv.errorsText(validate.errors)}`);
    }
  }
  return operation.operationId;
}
