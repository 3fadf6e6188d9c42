// scripts/status-coverage.mjs against a small fixture document and fixture observations (the files
// test/support/contract.ts writes): it passes when every status and header received is declared
// (through $refs to components/responses and components/headers, names compared case-insensitively,
// the transport headers it exempts aside) and fails, naming the operation, status and header, when a
// response carried a header its declaration for that status does not list.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/status-coverage.mjs', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'status-coverage-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const SPEC = `
openapi: 3.1.0
info: { title: fixture, version: '1' }
paths:
  /things/{id}:
    get:
      operationId: getThing
      responses:
        '200':
          description: A thing.
          headers:
            ETag: { $ref: '#/components/headers/ETag' }
            x-request-id: { $ref: '#/components/headers/RequestId' }
          content:
            application/json: { schema: { type: object } }
        '304': { $ref: '#/components/responses/NotModified' }
        '404': { $ref: '#/components/responses/NotFound', description: 'Described here too.' }
components:
  headers:
    ETag: { schema: { type: string } }
    RequestId: { schema: { type: string } }
  responses:
    NotModified: { $ref: '#/components/responses/NotModifiedHere' }
    NotModifiedHere:
      description: Not modified.
      headers:
        ETag: { $ref: '#/components/headers/ETag' }
    NotFound:
      description: Missing.
      headers:
        Retry-After: { schema: { type: integer } }
`;
const spec = path.join(dir, 'openapi.yaml');
writeFileSync(spec, SPEC);

/** Runs the script on one test process's observations ({ operationId: { status: [header names] } }). */
function check(observations: Record<string, Record<string, string[]>>): { status: number | null; stdout: string; stderr: string } {
  const observed = mkdtempSync(path.join(dir, 'observed-'));
  writeFileSync(path.join(observed, '1234.json'), JSON.stringify(observations));
  return spawnSync(process.execPath, [SCRIPT, '--no-strict', `--openapi=${spec}`, observed], { encoding: 'utf8' });
}

const TRANSPORT = ['content-type', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date'];

test('passes when every header received is declared for its status ($refs resolved, any case), transport headers exempt', () => {
  const run = check({
    getThing: {
      '200': [...TRANSPORT, 'etag', 'X-Request-Id'],
      '304': ['etag', 'date', 'connection'],
      '404': [...TRANSPORT, 'retry-after'],
    },
  });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(
    run.stdout,
    /Header coverage: 4 operation × status × header triples received over 3 operation × status pairs, 3 header names .*; 0 not declared/,
  );
});

test('fails on a header the response for that status does not declare, naming operation, status and header', () => {
  const run = check({
    getThing: {
      '200': [...TRANSPORT, 'etag', 'x-request-id', 'x-bogus'],
      // Declared on the 404, not on the 304.
      '304': ['etag', 'retry-after'],
      '404': ['retry-after'],
    },
  });
  assert.equal(run.status, 1, run.stdout + run.stderr);
  assert.match(run.stdout, /2 not declared: retry-after 1, x-bogus 1/);
  assert.match(run.stderr, /FAIL: 2 received response headers are not declared/);
  assert.match(run.stderr, /^ {2}getThing 200 x-bogus$/m);
  assert.match(run.stderr, /^ {2}getThing 304 retry-after$/m);
});

test('fails on an undeclared status (its headers are not checked: there is nothing to check them against)', () => {
  const run = check({ getThing: { '200': ['etag'], '304': ['etag'], '404': [], '418': ['x-teapot'] } });
  assert.equal(run.status, 1, run.stdout + run.stderr);
  assert.match(run.stderr, /FAIL: 1 observed statuses are not declared in openapi.yaml:\n {2}getThing 418/);
  assert.doesNotMatch(run.stderr, /x-teapot/);
});
