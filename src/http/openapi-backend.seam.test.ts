import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OpenAPIRouter, type Document } from 'openapi-backend';
import { listOperations, openApiDocument } from '../lib/openapi-document.ts';
import { compileOperationMatcher, createContractBackend, installCompiledRouting } from './openapi-backend.seam.ts';

/** Overlapping templates, where specificity and document order decide. */
const OVERLAPPING: Document = {
  openapi: '3.1.0',
  info: { title: 'overlap', version: '1' },
  paths: {
    '/a/{x}': { get: { operationId: 'aAny', responses: {} }, delete: { operationId: 'aDelete', responses: {} } },
    '/a/{x}.json': { get: { operationId: 'aJson', responses: {} } },
    '/a/fixed': { post: { operationId: 'aFixedPost', responses: {} } },
    '/b/{x}/{y}': { get: { operationId: 'bFirst', responses: {} } },
    '/b/{y}/{x}': { get: { operationId: 'bSecond', responses: {} } },
  },
} as unknown as Document;

test("the precompiled operation matcher answers exactly as openapi-backend's own matcher", () => {
  const contract = new OpenAPIRouter({ definition: openApiDocument() as unknown as Document });
  const overlapping = new OpenAPIRouter({ definition: OVERLAPPING });
  const shared = ['/', '/v1', '/v1/nope', '/v1/jobs/a/b/c', '/v1/render/', '//v1/health', '/v1/health?x=1'];
  const cases: [OpenAPIRouter, string[]][] = [
    [
      contract,
      contract.getOperations().flatMap((o) => [o.path.replace(/\{[^}]+\}/g, 'abc_123'), `${o.path.replace(/\{[^}]+\}/g, 'x.y')}/`]),
    ],
    [overlapping, ['/a/q', '/a/q.json', '/a/fixed', '/a/fixed.json', '/b/1/2', '/b/1', '/a']],
  ];
  const outcome = (fn: () => unknown) => {
    try {
      return { op: (fn() as { operationId?: string } | undefined)?.operationId ?? null };
    } catch (err) {
      return { error: (err as Error).message };
    }
  };
  let compared = 0;
  for (const [router, own] of cases) {
    const match = compileOperationMatcher(router, router.getOperations());
    for (const path of [...own, ...shared]) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete', 'GET', 'options']) {
        for (const strict of [false, true]) {
          const expected = outcome(() => router.matchOperation({ method, path, headers: {} }, strict));
          assert.deepEqual(
            outcome(() => match({ method, path, headers: {} }, strict)),
            expected,
            `${method} ${path} strict=${strict}`,
          );
          compared++;
        }
      }
    }
  }
  assert.ok(compared > 200);
  // The overlapping document's answers, spelled out: specificity, document order, 405 and 404.
  const match = compileOperationMatcher(overlapping, overlapping.getOperations());
  assert.equal(match({ method: 'get', path: '/a/q.json', headers: {} })?.operationId, 'aJson');
  assert.equal(match({ method: 'get', path: '/b/1/2', headers: {} })?.operationId, 'bFirst');
  assert.equal(match({ method: 'delete', path: '/a/q.json', headers: {} })?.operationId, 'aDelete');
  // HEAD runs the GET operation.
  assert.equal(match({ method: 'head', path: '/a/q.json', headers: {} })?.operationId, 'aJson');
  assert.throws(() => match({ method: 'put', path: '/a/fixed', headers: {} }, true), /405/);
  assert.throws(() => match({ method: 'get', path: '/c', headers: {} }, true), /404/);
});

test('installCompiledRouting puts the compiled matcher in the initialised backend, answering as the library did; every request validator compiles', async () => {
  const api = createContractBackend(structuredClone(openApiDocument()) as unknown as Document);
  for (const { operationId } of listOperations()) api.register(operationId, () => undefined);
  await api.init();
  const library = api.router.matchOperation.bind(api.router);
  const probes = api.router
    .getOperations()
    .flatMap((o) => ['get', 'post', 'head', 'delete'].map((method) => ({ method, path: o.path.replace(/\{[^}]+\}/g, 'id_1') })));
  const before = probes.map((p) => library({ ...p, headers: {} }, false)?.operationId);
  const operations = installCompiledRouting(api);
  assert.notEqual(api.router.matchOperation, library, 'the matcher was replaced');
  assert.equal(api.router.getOperations(), api.router.getOperations(), 'the operation list is computed once');
  assert.equal(operations.length, api.router.getOperations().length);
  // HEAD has no operation of its own in the library; the compiled matcher runs GET for it.
  const after = probes.map((p) => api.router.matchOperation({ ...p, headers: {} }, false)?.operationId);
  probes.forEach((p, i) =>
    assert.equal(
      after[i],
      p.method === 'head' ? after[probes.findIndex((q) => q.path === p.path && q.method === 'get')] : before[i],
      `${p.method} ${p.path}`,
    ),
  );
  // Validators compile on an operation's first request (quick mode): none has yet, and every one compiles.
  assert.deepEqual(Object.keys(api.validator.requestValidators), []);
  for (const op of operations) assert.ok(api.validator.getRequestValidatorsForOperation(op.operationId!).length > 0, op.operationId);
});

test('backends initialised from one source document share its compiled request validators, which validate for each', async () => {
  const source = structuredClone(openApiDocument());
  const backend = async () => {
    const api = createContractBackend(structuredClone(source) as unknown as Document);
    for (const { operationId } of listOperations()) api.register(operationId, () => undefined);
    await api.init();
    installCompiledRouting(api, source);
    return api;
  };
  const [first, second] = [await backend(), await backend()];
  assert.equal(second.validator.requestValidators, first.validator.requestValidators, 'compiled once');
  const unrelated = createContractBackend(structuredClone(source) as unknown as Document);
  for (const { operationId } of listOperations()) unrelated.register(operationId, () => undefined);
  await unrelated.init();
  installCompiledRouting(unrelated);
  assert.notEqual(unrelated.validator.requestValidators, first.validator.requestValidators, 'no source, no sharing');
  for (const api of [first, second]) {
    const request = (body: unknown) => ({ method: 'post', path: '/v1/keys', headers: { 'content-type': 'application/json' }, body });
    assert.equal(api.validateRequest(request({ label: 'ci' }), 'createKey').valid, true);
    assert.equal(api.validateRequest(request({ label: 42 }), 'createKey').valid, false);
  }
});

test('backends given one document object share one dereferenced copy of it and leave the document as it was', async () => {
  const source = structuredClone(openApiDocument());
  const before = JSON.stringify(source);
  const backend = async () => {
    const api = createContractBackend(source as unknown as Document);
    await api.init();
    // Registered after init, as createOperationsRouter does: still checked against the contract.
    for (const { operationId } of listOperations()) api.register(operationId, () => undefined);
    assert.throws(() => api.register('noSuchOperation', () => undefined), /Unknown operationId/);
    return api;
  };
  const [first, second] = [await backend(), await backend()];
  assert.equal(second.definition, first.definition, 'dereferenced once');
  assert.notEqual(first.definition, source as unknown, 'a copy');
  // Compiling validators edits the definition's schemas (binary properties leave `required`), not the source's.
  for (const { operationId } of listOperations()) first.validator.getRequestValidatorsForOperation(operationId);
  assert.equal(JSON.stringify(source), before);
  assert.equal(JSON.stringify(source), JSON.stringify(openApiDocument()));
});
