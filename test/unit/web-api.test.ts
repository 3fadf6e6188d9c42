// The web app's API client against the contract: web/js/generated/operations.js is openapi.yaml's
// operations (written by `npm run codegen`), every `call('…')` (and `urlOf('…')`, `download('…')`) in
// web/js names one of them with the path params its template needs, no page hand-writes an API URL,
// and operationUrl fills a template as the service routes it.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import YAML from 'yaml';
import { operations } from '../../web/js/generated/operations.js';
import { operationUrl } from '../../web/js/api-rules.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const WEB = path.join(ROOT, 'web/js');
const contract = YAML.parse(readFileSync(path.join(ROOT, 'openapi.yaml'), 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string }>>;
};

/** Every web/js source but the generated table, with its text. */
function sources(dir = WEB): { file: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sources(file);
    return entry.name.endsWith('.js') ? [{ file: path.relative(ROOT, file), text: readFileSync(file, 'utf8') }] : [];
  });
}

/** The argument text of a call starting at `open` (the index of its "("), up to the matching ")". */
function argumentsAt(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if ('([{'.includes(text[i])) depth++;
    else if (')]}'.includes(text[i]) && --depth === 0) return text.slice(open + 1, i);
  }
  throw new Error(`unbalanced call at ${open}`);
}

/** The keys of the `path: { … }` object in a call's arguments (shorthand `{ slug }` or `{ id: x }`). */
function pathKeys(args: string): string[] {
  const start = /\bpath:\s*\{/.exec(args);
  if (!start) return [];
  const inner = argumentsAt(args, start.index + start[0].length - 1);
  return [...inner.matchAll(/(?:^|,)\s*(\w+)\s*(?=[:,]|$)/g)].map((m) => m[1]);
}

test("the generated table is the contract's operations: operationId → [method, path template]", () => {
  const expected = Object.fromEntries(
    Object.entries(contract.paths).flatMap(([template, item]) =>
      Object.entries(item)
        .filter(([method, op]) => /^(get|put|post|patch|delete|head)$/.test(method) && op.operationId)
        .map(([method, op]) => [op.operationId, [method.toUpperCase(), template]]),
    ),
  );
  assert.deepEqual(operations, expected);
  assert.ok(Object.keys(operations).length >= 50);
});

// api.js's helpers that take an operationId: call() sends it, urlOf() gives its URL (an EventSource's), download() its file.
const BY_OPERATION = /(?<![.\w])(call|urlOf|download)\(/g;

test('every call(), urlOf() and download() in web/js names an operation of the contract, with the path params its template needs', () => {
  const calls: string[] = [];
  for (const { file, text } of sources()) {
    for (const match of text.matchAll(BY_OPERATION)) {
      const args = argumentsAt(text, match.index + match[0].length - 1);
      const where = `${file}: ${match[1]}(${args.slice(0, 60)}`;
      // A literal operationId, so that this test (and a reader) can check it.
      const id = /^\s*'(\w+)'/.exec(args)?.[1];
      if (text.slice(match.index - 16, match.index).includes('function ')) continue; // its definition in api.js
      if (file === 'web/js/api.js' && /^\s*operationId\b/.test(args)) continue; // one of them handing its own on
      assert.ok(id, `${where}: the operationId must be a string literal`);
      assert.ok(id in operations, `${where}: openapi.yaml has no operation ${id}`);
      const needed = [...operations[id as keyof typeof operations][1].matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      assert.deepEqual(pathKeys(args).sort(), needed, `${where}: path params`);
      calls.push(id);
    }
  }
  // The pages call through it: the playground's render and quote, the share panel's signing, the start-up's auth config.
  for (const id of ['generate', 'createQuote', 'getHealth', 'listGenerators', 'createPreset', 'signRenderUrl', 'getAuthConfig'])
    assert.ok(calls.includes(id), `no call('${id}') found`);
  // …and so do the account area, Export and the templates area, whose URLs were once written by hand.
  for (const id of ['getMe', 'updateBudget', 'revokeKey', 'listUrlSigningKeys', 'createJob', 'streamJobEvents', 'getJobResult'])
    assert.ok(calls.includes(id), `no call('${id}') found`);
  for (const id of ['listTemplates', 'getTemplateVersion', 'updateTemplate', 'previewTemplate', 'createAsset'])
    assert.ok(calls.includes(id), `no call('${id}') found`);
});

test('no page hand-writes an API URL: nothing in web/js but api.js sends a /v1/ literal', () => {
  // A path beginning /v1/ handed to json() (as pages once did), request(), fetch(), EventSource or
  // download() is checked by no test but a browser's. Under /v1/auth/ is the sign-in library's, which
  // the contract does not describe (openapi.yaml, "Authentication"); a URL the API returned (a Link
  // header's next page) goes to request() as a variable.
  const sent = /(?<![.\w])(json|request|fetch|EventSource|download)\(\s*['"`]\/v1\/(?!auth\/)/g;
  const handWritten = sources()
    .filter(({ file }) => file !== 'web/js/api.js')
    .flatMap(({ file, text }) => [...text.matchAll(sent)].map((m) => `${file}:${text.slice(0, m.index).split('\n').length}: ${m[0]}`));
  assert.deepEqual(handWritten, [], 'call the operation by its operationId instead: call(operationId, { path, query, body })');
  // The guard itself sees what it is meant to see.
  const probe = "json('/v1/jobs?limit=20'); request(`/v1/templates`, {}); x.request('/v1/a'); fetch('/v1/auth/sign-out')";
  assert.deepEqual(
    [...probe.matchAll(sent)].map((m) => m[1]),
    ['json', 'request'],
  );
});

test('an operation URL fills its template (encoded) and appends the defined query params; a missing path param throws', () => {
  assert.equal(operationUrl(operations.generate[1], { slug: 'mesh-gradient' }), '/v1/generate/mesh-gradient');
  assert.equal(operationUrl(operations.getJob[1], { id: 'a b/c' }), '/v1/jobs/a%20b%2Fc');
  assert.equal(operationUrl(operations.listJobs[1], {}, { limit: 20, cursor: undefined }), '/v1/jobs?limit=20');
  assert.equal(operationUrl(operations.getJobThumbnail[1], { id: 'j1' }, { pr: 1.5 }), '/v1/jobs/j1/thumbnail?pr=1.5');
  assert.throws(() => operationUrl(operations.getJob[1], {}), /needs its path param "id"/);
  assert.throws(() => operationUrl(operations.getJob[1]), /needs its path param "id"/);
});
