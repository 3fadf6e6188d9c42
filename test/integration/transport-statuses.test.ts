// Statuses the HTTP server answers before (or instead of) an operation's handler apply to every
// operation, and openapi.yaml declares them on each: 431 for a header block over the limit, 408
// for a body that never arrives (REQUEST_BODY_TIMEOUT_MS, counted once the route has accepted the
// request), 413 for a body over BODY_LIMIT_BYTES, 415 for a compressed body and 400 for a body that
// is not JSON (any route refuses such bodies, also one that takes none). Raw sockets, so node's
// client builds nothing for us; every answer is checked against the contract, which also feeds
// the status-coverage table.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_HEADER_BYTES } from '../../src/http/http-server.ts';
import { openApiDocument } from '../../src/lib/openapi-document.ts';
import { assertMatchesContract } from '../support/contract.ts';
import { ONE_ENGINE } from '../support/black-box/databases.ts';
import { TEST_LOCAL_KEY, startTestApp, type TestApp } from '../support/harness.ts';
import { openRaw, sendRaw, type RawResponse } from '../support/raw-http-client.ts';

const BODY_LIMIT = 1024;
const PATH_VALUES: Record<string, string> = { slug: 'blob', recipeHash: 'a'.repeat(64), id: 'x1' };
const doc = openApiDocument() as { paths: Record<string, Record<string, { operationId: string }>> };
const allOperations = Object.entries(doc.paths).flatMap(([template, item]) =>
  ['get', 'post', 'put', 'patch', 'delete']
    .filter((m) => item[m])
    .map((m) => ({
      method: m.toUpperCase(),
      operationId: item[m]!.operationId,
      url: template.replace(/\{(\w+)\}/g, (_, name: string) => PATH_VALUES[name] ?? 'x1'),
    })),
);

let operations = allOperations;

/**
 * Operations only a signed URL calls (the signature alone decides, before any body is read): their
 * URL is a real one, made in the app (a signed base's), so the request gets as far as its body.
 */
async function withSignedUrls(t: TestApp): Promise<Array<{ method: string; operationId: string; url: string }>> {
  const key = await t.request('post', '/v1/url-signing-keys', { body: { label: 'transport' } });
  const base = await t.request('post', `/v1/url-signing-keys/${key.body.id}/bases`, {
    body: { slug: 'identicon', size: { width: 32, height: 32 }, format: 'png', slots: { name: { maxLength: 8 } } },
  });
  assert.equal(base.status, 201, base.text);
  const baseUrl = `${new URL(base.body.url).pathname}?name=x`;
  return allOperations.map((op) => (op.operationId === 'renderSigningBase' ? { ...op, url: baseUrl } : op));
}

/** A complete request with `body`, authenticated (public operations ignore the key). */
function withBody(method: string, url: string, body: string, headers: string[] = []): Buffer {
  return Buffer.from(
    [
      `${method} ${url} HTTP/1.1`,
      'Host: x',
      `Authorization: Bearer ${TEST_LOCAL_KEY}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      ...headers,
      '',
      body,
    ].join('\r\n'),
  );
}

function checked(method: string, url: string, res: RawResponse, status: number, code: string | string[]): void {
  const body = JSON.parse(res.body.toString('utf8')) as { code: string };
  assertMatchesContract(method, url, { status: res.status, headers: res.headers, body, text: res.body.toString('utf8') });
  assert.equal(res.status, status, `${method} ${url}: ${res.body.toString('utf8')}`);
  assert.ok([code].flat().includes(body.code), `${method} ${url}: ${body.code}`);
}

for (const engine of ONE_ENGINE) {
  describe(`transport statuses on every operation on ${engine}`, () => {
    let t: TestApp;
    let port: number;
    before(async () => {
      // The service's own body deadline: every request here is complete, so none may race it.
      t = await startTestApp(engine, { env: { BODY_LIMIT_BYTES: String(BODY_LIMIT) } });
      ({ port } = await t.listen());
      operations = await withSignedUrls(t);
    });
    after(async () => t?.close());

    test('431 request_header_fields_too_large on every operation', async () => {
      for (const { method, url } of operations) {
        const res = await sendRaw(
          port,
          Buffer.from(`${method} ${url} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(MAX_HEADER_BYTES)}\r\n\r\n`),
          10_000,
        );
        checked(method, url, res, 431, 'request_header_fields_too_large');
      }
    });

    test('413 payload_too_large on every operation for a body over BODY_LIMIT_BYTES', async () => {
      const big = JSON.stringify({ padding: 'x'.repeat(BODY_LIMIT * 2) });
      for (const { method, url } of operations) {
        checked(method, url, await sendRaw(port, withBody(method, url, big), 10_000), 413, 'payload_too_large');
      }
    });

    test('415 unsupported_media_type on every operation for a compressed body', async () => {
      for (const { method, url } of operations) {
        const res = await sendRaw(port, withBody(method, url, '{}', ['Content-Encoding: gzip']), 10_000);
        checked(method, url, res, 415, 'unsupported_media_type');
        assert.equal(res.headers['accept-encoding'], 'identity');
      }
    });

    test('400 on every operation for a body that is not JSON', async () => {
      for (const { method, url, operationId } of operations) {
        // The payment webhook keeps its raw bytes for the signature, which such a body cannot carry.
        const code = operationId === 'handlePaymentWebhook' ? ['invalid_signature', 'validation_failed'] : 'malformed_json';
        checked(method, url, await sendRaw(port, withBody(method, url, '{"unterminated'), 10_000), 400, code);
      }
    });
  });
}

for (const engine of ONE_ENGINE) {
  // A short body deadline, for requests whose body never comes: their outcome is the deadline on any machine.
  describe(`the body deadline on every operation on ${engine}`, () => {
    let t: TestApp;
    let port: number;
    before(async () => {
      t = await startTestApp(engine, { env: { REQUEST_BODY_TIMEOUT_MS: '200' } });
      ({ port } = await t.listen());
      operations = await withSignedUrls(t);
    });
    after(async () => t?.close());

    test('408 request_timeout on every operation when the announced body never comes', async () => {
      await Promise.all(
        operations.map(async ({ method, url }) => {
          const { socket, response } = openRaw(port, 10_000);
          socket.write(
            `${method} ${url} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_LOCAL_KEY}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
          );
          try {
            checked(method, url, await response, 408, 'request_timeout');
          } finally {
            socket.destroy();
          }
        }),
      );
    });
  });
}
