// The examples in openapi.yaml are part of the contract: the reference page and generated SDK docs
// teach by them, so each one must be true.
//  1. Every `example` and `examples` in the document — media types (request bodies, responses),
//     parameters, headers, schemas, and component examples wherever referenced — validates against
//     its schema with the service's own Ajv. They are found by walking the whole document, so a new
//     example is checked without touching this file; a problem+json example also carries its code's
//     status, title and type from the error registry. Every JSON request body, every 2xx JSON
//     response and every path and query parameter has at least one.
//  2. Every request example is sent to the service (local mode on SQLite): the body example,
//     with the parameter examples of the same name (else the parameter's `example` or its first
//     `examples` entry) for path and query parameters. Header parameters are not sent: one
//     `Idempotency-Key` example on several different bodies would be 422 `idempotency_key_reused`
//     by design, and `If-None-Match` would turn the answer into a 304. Each request must get its
//     operation's success status. Paths with a resource `{id}` are sent twice: with the example id
//     (that nobody created: 404 `not_found`, which proves the id passed validation) and with the id
//     of the resource the create operation's own example made. An operation whose body is a file
//     (createAsset) has no JSON example: it is sent a small file of the first type it declares. Billing (`createCheckout`,
//     `handlePaymentWebhook`) needs a payment provider, which exists in hosted mode only: local mode
//     answers 501 `not_implemented` and hosted mode on Postgres, with the Stripe stand-in, 2xx. The
//     payment webhook's examples are signed as the provider would sign them.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Stripe from 'stripe';
import { PROBLEMS, PROBLEM_TYPE_BASE, type ProblemCode } from '../../src/errors/error-registry.ts';
import { openApiDocument } from '../../src/lib/openapi-document.ts';
import { ajv, dereferencedDocument, validatorFor } from '../support/contract.ts';
import { ONE_ENGINE } from '../support/black-box/databases.ts';
import { HOSTED_ENV, startTestApp, type TestApp, workspaceKey } from '../support/harness.ts';
import { pngWith } from '../support/asset-files.ts';
import { deflateSync } from 'node:zlib';
import { startStripeStandIn, type StripeStandIn } from '../support/stripe-stand-in.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const raw = openApiDocument() as unknown as Json;
const resolved = dereferencedDocument as unknown as Json;

function at(root: unknown, pointer: readonly string[]): unknown {
  let node = root;
  for (const segment of pointer) node = isObject(node) || Array.isArray(node) ? (node as Json)[segment] : undefined;
  return node;
}
const show = (pointer: readonly string[]) => '#/' + pointer.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
/** `#/components/examples/x` → the raw node it names. */
const deref = (node: unknown): unknown =>
  isObject(node) && typeof node.$ref === 'string'
    ? at(
        raw,
        node.$ref
          .slice(2)
          .split('/')
          .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')),
      )
    : node;

// ---------------------------------------------------------------------------------------------
// 1. Every example in the document

interface FoundExample {
  /** Where the example is written, as a JSON pointer (with the example's name). */
  where: string;
  value: unknown;
  schema: Json;
  problem: boolean;
}

/** Walks the raw document and returns every example with the (dereferenced) schema it must match. */
function collectExamples(): { examples: FoundExample[]; errors: string[] } {
  const examples: FoundExample[] = [];
  const errors: string[] = [];
  const referencedComponentExamples = new Set<string>();

  const visit = (node: unknown, pointer: string[]): void => {
    if (Array.isArray(node)) return node.forEach((item, i) => visit(item, [...pointer, String(i)]));
    if (!isObject(node)) return;
    // A `properties` map names properties: a property called `example` is not an example.
    const isPropertyMap = pointer.at(-1) === 'properties';
    const isComponentsRoot = pointer.length === 1 && pointer[0] === 'components';
    const inSchema = pointer.includes('schema') || (pointer[0] === 'components' && pointer[1] === 'schemas');
    for (const [key, value] of Object.entries(node)) {
      const here = [...pointer, key];
      if (isPropertyMap || (key !== 'example' && key !== 'examples') || (isComponentsRoot && key === 'examples')) {
        visit(value, here);
        continue;
      }
      if (inSchema) {
        // A schema's own `examples` (an array) or deprecated `example`, checked against that schema.
        const schema = at(resolved, pointer) as Json;
        const values = key === 'examples' ? value : [value];
        if (!Array.isArray(values)) errors.push(`${show(here)}: a schema's examples must be an array`);
        else values.forEach((v, i) => examples.push({ where: show([...here, String(i)]), value: v, schema, problem: false }));
        continue;
      }
      // A media type, parameter or header: its examples are checked against its `schema`.
      const schema = at(resolved, [...pointer, 'schema']);
      if (!isObject(schema)) {
        errors.push(`${show(here)}: an example with no schema beside it`);
        continue;
      }
      const problem = pointer.at(-1) === 'application/problem+json';
      if (key === 'example') {
        examples.push({ where: show(here), value, schema, problem });
        continue;
      }
      if (!isObject(value)) {
        errors.push(`${show(here)}: examples must be a map of Example Objects`);
        continue;
      }
      for (const [name, entry] of Object.entries(value)) {
        if (isObject(entry) && typeof entry.$ref === 'string') referencedComponentExamples.add(entry.$ref);
        const example = deref(entry);
        if (!isObject(example) || !('value' in example)) {
          errors.push(`${show([...here, name])}: an Example Object needs an inline \`value\` (externalValue cannot be checked)`);
          continue;
        }
        examples.push({ where: show([...here, name]), value: example.value, schema, problem });
      }
    }
  };
  visit(raw, []);
  for (const name of Object.keys((at(raw, ['components', 'examples']) as Json | undefined) ?? {})) {
    if (!referencedComponentExamples.has(`#/components/examples/${name}`))
      errors.push(`#/components/examples/${name}: referenced nowhere, so there is no schema to check it against`);
  }
  return { examples, errors };
}

function validate(schema: Json, value: unknown): string | undefined {
  const v = validatorFor(schema);
  return v(value) ? undefined : ajv.errorsText(v.errors);
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
interface Operation {
  operationId: string;
  method: (typeof METHODS)[number];
  path: string;
  parameters: Parameter[];
  /** The JSON request body's examples by name (`example` is named "example"). */
  bodyExamples: Map<string, unknown> | undefined;
  successStatus: number;
  responses: Record<string, Json>;
}

const mediaExamples = (media: Json | undefined): Map<string, unknown> => {
  const out = new Map<string, unknown>();
  if (!media) return out;
  if ('example' in media) out.set('example', media.example);
  for (const [name, entry] of Object.entries((media.examples as Json | undefined) ?? {}))
    out.set(name, (entry as { value: unknown }).value);
  return out;
};

function operations(): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(resolved.paths as Record<string, Json>)) {
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const byKey = new Map<string, Parameter>();
      for (const p of [...((item.parameters as Parameter[]) ?? []), ...((op.parameters as Parameter[]) ?? [])])
        byKey.set(`${p.in}:${p.name}`, p);
      const body = (op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
      const responses = op.responses as Record<string, Json>;
      const success =
        SUCCESS_STATUS[op.operationId as string] ??
        Object.keys(responses)
          .filter((s) => /^2\d\d$/.test(s))
          .sort()[0];
      ops.push({
        operationId: op.operationId as string,
        method,
        path,
        parameters: [...byKey.values()],
        // A file body (an upload) has no JSON example to require or send: FILE_BODIES gives one.
        bodyExamples:
          body && (body['application/json'] || !FILE_BODIES[op.operationId as string])
            ? mediaExamples(body['application/json'])
            : undefined,
        successStatus: Number(success),
        responses,
      });
    }
  }
  return ops;
}

describe('every example in openapi.yaml', () => {
  const { examples, errors } = collectExamples();

  test('is written where a schema can check it', () => {
    assert.deepEqual(errors, []);
    // The walk finds them all (the document once had three).
    assert.ok(examples.length > 50, `only ${examples.length} examples found`);
  });

  test('validates against its schema', () => {
    const failures = examples.flatMap((e) => {
      const error = validate(e.schema, e.value);
      return error ? [`${e.where}: ${error}`] : [];
    });
    assert.deepEqual(failures, []);
  });

  test('of a problem carries its code’s status, title and type from the error registry', () => {
    const problems = examples.filter((e) => e.problem);
    assert.ok(problems.length >= 5, `only ${problems.length} problem examples`);
    const failures = problems.flatMap((e) => {
      const p = e.value as { code: ProblemCode; status: number; title: string; type: string };
      const known = PROBLEMS[p.code];
      if (!known) return [`${e.where}: unknown code ${p.code}`];
      const wanted = { status: known.status, title: known.title, type: PROBLEM_TYPE_BASE + p.code };
      const got = { status: p.status, title: p.title, type: p.type };
      return JSON.stringify(got) === JSON.stringify(wanted) ? [] : [`${e.where}: ${JSON.stringify(got)} ≠ ${JSON.stringify(wanted)}`];
    });
    assert.deepEqual(failures, []);
  });

  test('covers every JSON request body, 2xx JSON response and path or query parameter', () => {
    const missing: string[] = [];
    for (const op of operations()) {
      if (op.bodyExamples && op.bodyExamples.size === 0) missing.push(`${op.operationId}: request body`);
      for (const [status, response] of Object.entries(op.responses)) {
        const json = (response.content as Record<string, Json> | undefined)?.['application/json'];
        if (/^2/.test(status) && json && mediaExamples(json).size === 0) missing.push(`${op.operationId}: ${status} response`);
      }
      for (const p of op.parameters) {
        if ((p.in === 'path' || p.in === 'query') && p.example === undefined && !p.examples)
          missing.push(`${op.operationId}: ${p.in} parameter ${p.name}`);
      }
    }
    assert.deepEqual(missing, []);
  });
});

// ---------------------------------------------------------------------------------------------
// 2. Every request example, sent to the service

const WEBHOOK_SECRET = 'whsec_test_0123456789abcdef';
const STRIPE_SECRET_KEY = 'sk_test_standin_0123456789';
const stripe = new Stripe(STRIPE_SECRET_KEY);
/** Operations that need a payment provider, which only hosted mode has. */
const BILLING_OPERATIONS = new Set(['createCheckout', 'handlePaymentWebhook']);
/** The operation whose example creates the resource that `{id}` names under each collection. */
const CREATED_BY: Record<string, string> = {
  '/v1/assets/': 'createAsset',
  '/v1/jobs/': 'createJob',
  '/v1/keys/': 'createKey',
  '/v1/presets/': 'createPreset',
  '/v1/templates/': 'createTemplate',
  '/v1/url-signing-keys/': 'createUrlSigningKey',
};
/** An operation whose success is not its lowest 2xx: a new asset is 201 (200 is the same bytes again). */
const SUCCESS_STATUS: Record<string, string> = { createAsset: '201' };
/** What a missing resource of a collection answers 404 with (`not_found` unless named here). */
const NOT_FOUND_CODE: Record<string, string> = { '/v1/assets/': 'asset_not_found', '/v1/templates/': 'template_not_found' };
/** Operations whose request body is a file, not JSON: the file sent for them (a 2×2 PNG for an asset). */
const FILE_BODIES: Record<string, { contentType: string; bytes: Buffer }> = {
  createAsset: { contentType: 'image/png', bytes: pngWith(2, 2, deflateSync(Buffer.from([0, 10, 20, 0, 30, 40]))) },
};
/** A signed URL's parameters: their examples sign for a key no test database holds (url-signing.test.ts signs real ones). */
const SIGNATURE_PARAMS = new Set(['kid', 'exp', 'sig']);
/**
 * Operations whose path carries a signature (a signed base's URL): their example cannot hold a real
 * one, so they are sent at the URL the base the createSigningBase example made answered with, with
 * their query examples (signing-bases.test.ts covers the rest).
 */
const SIGNED_PATH_OPERATIONS: Record<string, string> = { renderSigningBase: 'createSigningBase' };

interface PlannedRequest {
  operation: Operation;
  /** The example's name ("default" when the operation takes no body and no parameter has named examples). */
  name: string;
  method: Operation['method'];
  url: string;
  body: unknown;
}

function parameterExample(p: Parameter, name: string): unknown {
  if (p.examples && name in p.examples) return p.examples[name].value;
  if (p.example !== undefined) return p.example;
  return p.examples ? Object.values(p.examples)[0]?.value : undefined;
}

/** The requests an operation's examples describe: one per body example, else one per named path-parameter example. */
function plan(op: Operation): PlannedRequest[] {
  const names = op.bodyExamples
    ? [...op.bodyExamples.keys()]
    : [...new Set(op.parameters.filter((p) => p.in === 'path' && p.examples).flatMap((p) => Object.keys(p.examples!)))];
  return (names.length ? names : ['default']).map((name) => {
    let url = op.path;
    const query = new URLSearchParams();
    for (const p of op.parameters) {
      const value = parameterExample(p, name);
      if (value === undefined || (p.in === 'query' && SIGNATURE_PARAMS.has(p.name))) continue;
      if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(String(value)));
      // A free-form object (style form, exploded): one parameter per member.
      else if (p.in === 'query' && typeof value === 'object' && value !== null)
        for (const [name, member] of Object.entries(value)) query.set(name, String(member));
      else if (p.in === 'query') query.set(p.name, String(value));
    }
    const search = query.toString();
    return { operation: op, name, method: op.method, url: search ? `${url}?${search}` : url, body: op.bodyExamples?.get(name) };
  });
}

const idCollection = (op: Operation) => Object.keys(CREATED_BY).find((prefix) => op.path.startsWith(prefix) && op.path.includes('{id}'));

/** Sends one planned request; the payment webhook's body is signed as the provider signs it. */
async function send(t: TestApp, r: PlannedRequest, auth: { auth?: boolean; headers?: Record<string, string> }, url = r.url) {
  if (r.operation.operationId === 'handlePaymentWebhook') {
    const payload = JSON.stringify(r.body);
    const signature = stripe.webhooks.generateTestHeaderString({
      payload,
      secret: WEBHOOK_SECRET,
      timestamp: Math.floor(Date.now() / 1000),
    });
    return t.request('post', url, {
      auth: false,
      headers: { 'Content-Type': 'application/json', 'Payment-Signature': signature },
      raw: payload,
    });
  }
  const file = FILE_BODIES[r.operation.operationId];
  if (file) return t.request(r.method, url, { ...auth, raw: file.bytes, headers: { ...auth.headers, 'Content-Type': file.contentType } });
  return t.request(r.method, url, { ...auth, body: r.body });
}

const describeAnswer = (r: PlannedRequest, res: { status: number; body: unknown; text?: string }) =>
  `${r.operation.operationId} example "${r.name}" (${r.method.toUpperCase()} ${r.url}) → ${res.status} ${Buffer.isBuffer(res.body) ? '' : JSON.stringify(res.body).slice(0, 600)}`;

const allOperations = operations();
const requests = allOperations.flatMap(plan);
// Operations on one resource run after everything that creates resources, reads before changes,
// deletes last (revokeKey and deletePreset remove what the create examples made).
const PHASE: Record<string, number> = { get: 0, patch: 1, post: 2, delete: 3 };
const collectionRequests = requests.filter((r) => !idCollection(r.operation) && !SIGNED_PATH_OPERATIONS[r.operation.operationId]);
const signedPathRequests = requests.filter((r) => SIGNED_PATH_OPERATIONS[r.operation.operationId]);
const resourceRequests = requests
  .filter((r) => idCollection(r.operation))
  // The event stream first: it ends when the job does, so it is also the wait for the job's result.
  .sort(
    (a, b) =>
      Number(b.operation.operationId === 'streamJobEvents') - Number(a.operation.operationId === 'streamJobEvents') ||
      PHASE[a.method] - PHASE[b.method],
  );

for (const engine of ONE_ENGINE) {
  describe(`every request example sent to the service on ${engine} (local mode)`, () => {
    let t: TestApp;
    const created = new Map<string, string>();
    before(async () => {
      t = await startTestApp(engine);
    });
    after(async () => t?.close());

    test(
      'operations on collections answer their success status (billing: 501 without a payment provider)',
      { timeout: 120_000 },
      async () => {
        // Every refusal is reported, not only the first.
        const refused: string[] = [];
        for (const r of collectionRequests) {
          const res = await send(t, r, {});
          const billing = BILLING_OPERATIONS.has(r.operation.operationId);
          const expected = billing ? 501 : r.operation.successStatus;
          if (res.status !== expected || (billing && res.body.code !== 'not_implemented')) refused.push(describeAnswer(r, res));
          if (!created.has(r.operation.operationId) && typeof res.body?.id === 'string') created.set(r.operation.operationId, res.body.id);
        }
        assert.deepEqual(refused, []);
        for (const op of Object.values(CREATED_BY)) assert.ok(created.has(op), `${op}'s example created nothing`);
      },
    );

    test(
      'operations on one resource answer 404 for the example id and their success status for a created one',
      { timeout: 120_000 },
      async () => {
        for (const op of Object.values(CREATED_BY)) assert.ok(created.has(op), `runs after ${op}'s example created a resource`);
        const refused: string[] = [];
        for (const r of resourceRequests) {
          const missing = await send(t, r, {});
          const notFoundCode = NOT_FOUND_CODE[idCollection(r.operation)!] ?? 'not_found';
          if (missing.status !== 404 || missing.body.code !== notFoundCode)
            refused.push(`expected 404 ${notFoundCode}: ${describeAnswer(r, missing)}`);

          let id = created.get(CREATED_BY[idCollection(r.operation)!])!;
          if (r.operation.operationId === 'cancelJob') {
            // The created job has completed by now (the event stream waited for it), and a finished
            // job cannot be cancelled: cancel a job that stays queued, with the runner stopped.
            await t.runtime.stopJobs();
            const createJob = collectionRequests.find((c) => c.operation.operationId === 'createJob')!;
            id = (await send(t, createJob, {})).body.id;
          }
          let url = r.url.replace(/(\/v1\/(?:assets|jobs|keys|presets|templates|url-signing-keys)\/)[^/?]+/, `$1${id}`);
          // A key's base: the one its create example made.
          if (created.has('createSigningBase')) url = url.replace(/(\/bases\/)[^/?]+/, `$1${created.get('createSigningBase')}`);
          const res = await send(t, r, {}, url);
          if (res.status !== r.operation.successStatus) refused.push(describeAnswer({ ...r, url }, res));
          if (!created.has(r.operation.operationId) && typeof res.body?.id === 'string') {
            created.set(r.operation.operationId, res.body.id);
            // Its URL answers the signed-path operations' examples, with their query (no credentials: the signature decides).
            for (const signed of signedPathRequests.filter(
              (c) => SIGNED_PATH_OPERATIONS[c.operation.operationId] === r.operation.operationId,
            )) {
              const target = `${new URL(res.body.url).pathname}${signed.url.includes('?') ? signed.url.slice(signed.url.indexOf('?')) : ''}`;
              const answer = await send(t, signed, { auth: false }, target);
              if (answer.status !== signed.operation.successStatus) refused.push(describeAnswer({ ...signed, url: target }, answer));
            }
          }
          if (r.operation.operationId === 'streamJobEvents')
            assert.match(res.text, /event: status\ndata: \{[^\n]*"status":"completed"/, 'the stream ends with the completed job');
        }
        assert.deepEqual(refused, []);
      },
    );
  });
}

describe('every billing request example sent to the service in hosted mode (postgres, Stripe stand-in)', () => {
  let t: TestApp;
  let standIn: StripeStandIn;
  let secret: string;
  before(async () => {
    standIn = await startStripeStandIn();
    t = await startTestApp('postgres', {
      env: { ...HOSTED_ENV, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: standIn.url },
    });
    secret = await workspaceKey(t, { id: 'ws_examples', name: 'Examples' }, 'examples');
  });
  after(async () => {
    await t?.close();
    await standIn?.close();
  });

  test('checkout and the signed payment events answer their success status', async () => {
    const billing = requests.filter((r) => BILLING_OPERATIONS.has(r.operation.operationId));
    assert.ok(billing.length >= 3, 'a checkout and both payment events');
    const refused: string[] = [];
    for (const r of billing) {
      const res = await send(t, r, { auth: false, headers: { Authorization: `Bearer ${secret}` } });
      if (res.status !== r.operation.successStatus) refused.push(describeAnswer(r, res));
    }
    assert.deepEqual(refused, []);
    assert.equal(standIn.requests.filter((x) => x.path === '/v1/checkout/sessions').length, 1);
  });
});
