// Framework-level errors: every one is problem+json, never an HTML page, and the process stays up.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Socket } from 'node:net';
import { MAX_ENCODED_RECIPE_LENGTH } from '../../src/config/limits.ts';
import { MAX_HEADER_BYTES } from '../../src/http/http-server.ts';
import { ONE_ENGINE } from '../support/black-box/databases.ts';
import { TEST_LOCAL_KEY, sharedTestApps, startTestApp, type TestApp } from '../support/harness.ts';
import { openRaw, sendRaw, type RawResponse } from '../support/raw-http-client.ts';

/** The app of the suites on the service's own settings. */
const defaultApp = sharedTestApps();

for (const engine of ONE_ENGINE) {
  describe(`HTTP errors on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine, {
        env: { BODY_LIMIT_BYTES: '2048' },
        mutateDeps: (deps) => {
          deps.services.health.health = () => {
            throw new Error('boom: secret internals /srv/app.ts:42');
          };
        },
      });
    });
    after(async () => t?.close());

    test('404 route_not_found for an unknown route', async () => {
      const res = await t.request('get', '/v1/nothing-here');
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'route_not_found');
      const outside = await t.request('get', '/favicon.ico');
      assert.equal(outside.status, 404);
      assert.match(outside.headers['content-type'], /^application\/problem\+json/);
    });

    test('405 method_not_allowed with Allow', async () => {
      const res = await t.request('delete', '/v1/generators');
      assert.equal(res.status, 405);
      assert.equal(res.body.code, 'method_not_allowed');
      assert.equal(res.headers.allow, 'GET, HEAD'); // HEAD answers wherever GET does
    });

    test('400 malformed_json for a broken body', async () => {
      const res = await t.request('post', '/v1/keys', { headers: { 'Content-Type': 'application/json' }, raw: '{"label": ' });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'malformed_json');
    });

    test('400 validation_failed for JSON that is not an object', async () => {
      for (const raw of ['[1,2]', '"text"', '42', 'null']) {
        const res = await t.request('post', '/v1/keys', { headers: { 'Content-Type': 'application/json' }, raw });
        assert.equal(res.status, 400, raw);
        assert.equal(res.body.code, 'validation_failed', raw);
        assert.equal(res.body.issues[0].path, 'body');
      }
    });

    test('413 payload_too_large over the documented body limit', async () => {
      const res = await t.request('post', '/v1/keys', { body: { label: 'x'.repeat(4096) } });
      assert.equal(res.status, 413);
      assert.equal(res.body.code, 'payload_too_large');
    });

    test('415 unsupported_media_type for a non-JSON body', async () => {
      const res = await t.request('post', '/v1/keys', { headers: { 'Content-Type': 'text/plain' }, raw: 'label=x' });
      assert.equal(res.status, 415);
      assert.equal(res.body.code, 'unsupported_media_type');
    });

    test('500 internal_error hides the stack and keeps serving', async () => {
      const res = await t.request('get', '/v1/health', { auth: false });
      assert.equal(res.status, 500);
      assert.equal(res.body.code, 'internal_error');
      assert.doesNotMatch(res.text, /boom|secret internals|\.ts:\d+|at /);
      assert.ok(res.body.instance, 'carries the request id');
      const after = await t.request('get', '/v1/generators', { auth: false });
      assert.equal(after.status, 200);
      assert.ok(
        t.logs.some((l) => l.includes('boom')),
        'the error itself is logged',
      );
    });
  });
}

for (const engine of ONE_ENGINE) {
  describe(`request bodies, encodings and the HTTP server on ${engine}`, () => {
    let t: TestApp;
    let port: number;
    before(async () => {
      // The service's own deadlines: nothing here waits on one, so a loaded machine cannot turn an
      // answer into a 408 (the deadlines have a describe of their own below).
      t = await defaultApp(engine);
      ({ port } = await t.listen());
    });

    const problemOf = (res: RawResponse) => {
      assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
      return JSON.parse(res.body.toString('utf8')) as { code: string; status: number; issues?: { path: string }[] };
    };

    test('415 for a compressed body, on JSON operations and the payment webhook alike (not 500)', async () => {
      for (const encoding of ['gzip', 'deflate', 'br', 'x-unknown']) {
        for (const url of ['/v1/keys', '/v1/billing/webhook']) {
          const res = await t.request('post', url, {
            headers: { 'Content-Type': 'application/json', 'Content-Encoding': encoding },
            raw: '{"label":"x"}',
          });
          assert.equal(res.status, 415, `${encoding} ${url}`);
          assert.equal(res.body.code, 'unsupported_media_type');
          assert.equal(res.body.issues[0].path, 'header.Content-Encoding');
          assert.equal(res.headers['accept-encoding'], 'identity');
        }
      }
      // The same with no body at all (a POST of an empty, "compressed" body; one with no body schema).
      for (const url of ['/v1/keys', '/v1/workspace/webhook-secret/rotate']) {
        const empty = await t.request('post', url, { headers: { 'Content-Encoding': 'gzip' } });
        assert.equal(empty.status, 415, `empty gzip body on ${url}: ${empty.text}`);
        assert.equal(empty.body.issues[0].path, 'header.Content-Encoding');
      }
      const identity = await t.request('post', '/v1/keys', {
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'identity' },
        raw: '{"label":"x"}',
      });
      assert.equal(identity.status, 201);
    });

    test('431 problem+json over the header limit; the documented longest recipe URL fits', async () => {
      const big = await sendRaw(
        port,
        Buffer.from(`GET /v1/generators HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(MAX_HEADER_BYTES)}\r\n\r\n`),
        10_000,
      );
      assert.equal(big.status, 431);
      assert.equal(problemOf(big).code, 'request_header_fields_too_large');

      const r = 'A'.repeat(MAX_ENCODED_RECIPE_LENGTH);
      const longest = await sendRaw(
        port,
        Buffer.from(
          `GET /v1/render/${'a'.repeat(64)}?r=${r}&format=webp&w=4096&h=4096&pr=2.5 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_LOCAL_KEY}\r\nCookie: a=${'b'.repeat(4000)}\r\nConnection: close\r\n\r\n`,
        ),
        10_000,
      );
      assert.equal(longest.status, 400, 'reaches the route, which finds the recipe invalid');
      assert.equal(problemOf(longest).code, 'invalid_recipe');
    });

    test('400 malformed_request problem+json for what the HTTP parser refuses, no Host, CONNECT, unknown Expect', async () => {
      for (const raw of [
        'GET /v1/generators HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n',
        'GET /v1/generators HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
        'NOT HTTP\r\n\r\n',
      ]) {
        const res = await sendRaw(port, Buffer.from(raw, 'latin1'), 10_000);
        assert.equal(res.status, 400, JSON.stringify(raw));
        assert.equal(problemOf(res).code, 'malformed_request');
      }
      const noHost = await sendRaw(port, Buffer.from('GET /v1/generators HTTP/1.1\r\n\r\n'), 10_000);
      assert.equal(noHost.status, 400);
      assert.equal(problemOf(noHost).code, 'malformed_request');
      const tunnel = await sendRaw(port, Buffer.from('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'), 10_000);
      assert.equal(tunnel.status, 405);
      assert.equal(problemOf(tunnel).code, 'method_not_allowed');
      // An expectation the server does not know is ignored rather than answered with a bare 417.
      const expect = await sendRaw(
        port,
        Buffer.from('GET /v1/generators HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nConnection: close\r\n\r\n'),
        10_000,
      );
      assert.equal(expect.status, 200);
    });
  });
}

for (const engine of ONE_ENGINE) {
  // Small deadlines, so a stalled body or header block is cut off at once. Only requests that never
  // complete run here: their outcome is the deadline whatever the machine's load.
  describe(`request deadlines on ${engine}`, () => {
    let t: TestApp;
    let port: number;
    before(async () => {
      t = await startTestApp(engine, { env: { REQUEST_BODY_TIMEOUT_MS: '200', REQUEST_HEADERS_TIMEOUT_MS: '200' } });
      ({ port } = await t.listen());
    });
    after(async () => t?.close());

    const problemOf = (res: RawResponse) => {
      assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
      return JSON.parse(res.body.toString('utf8')) as { code: string };
    };
    const closed = (socket: Socket) =>
      new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));

    test('408 request_timeout for a body that trickles in, and the connection is closed', async () => {
      const { socket, response } = openRaw(port, 10_000);
      socket.write(
        `POST /v1/keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_LOCAL_KEY}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
      );
      // One byte at a time until the server gives up on the body.
      const trickle = setInterval(() => socket.writable && socket.write(' '), 20);
      try {
        const res = await response;
        assert.equal(res.status, 408);
        assert.equal(problemOf(res).code, 'request_timeout');
        assert.equal(res.headers.connection, 'close');
        await closed(socket);
      } finally {
        clearInterval(trickle);
        socket.destroy();
      }
      const health = await t.request('get', '/v1/health', { auth: false });
      assert.equal(health.status, 200);
    });

    test('408 request_timeout problem+json when the headers do not arrive in time', async () => {
      const { socket, response } = openRaw(port, 10_000);
      socket.write('GET /v1/generators HTTP/1.1\r\nHost: x\r\n');
      try {
        const res = await response;
        assert.equal(res.status, 408);
        assert.equal(problemOf(res).code, 'request_timeout');
      } finally {
        socket.destroy();
      }
    });
  });
}

for (const engine of ONE_ENGINE) {
  // On the service's own deadlines (seconds, not the 200 ms above), so a loaded machine that takes
  // a while to authenticate cannot turn the 401 into the body deadline's 408: nothing here races a timer.
  describe(`an unauthenticated body is never read on ${engine}`, () => {
    let t: TestApp;
    let port: number;
    before(async () => {
      t = await defaultApp(engine);
      ({ port } = await t.listen());
    });
    const problemOf = (res: RawResponse) => {
      assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
      return JSON.parse(res.body.toString('utf8')) as { code: string };
    };
    const closed = (socket: Socket) =>
      new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));

    test('an unauthenticated request is refused before its body is read', async () => {
      // The body never comes: a 401 (rather than the body deadline's 408, seconds away) shows it was not awaited.
      const { socket, response } = openRaw(port, 10_000);
      socket.write('POST /v1/keys HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
      try {
        const res = await response;
        assert.equal(res.status, 401);
        assert.equal(problemOf(res).code, 'unauthorized');
        assert.equal(res.headers.connection, 'close');
        await closed(socket);
      } finally {
        socket.destroy();
      }
    });
  });
}
