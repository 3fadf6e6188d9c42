// The request log: one line per request, credential-bearing query values never in it.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createLogger } from '../lib/logger.ts';
import { loggableUrl, logAsRefused, logFailureWith, markAnsweredByLeanPath, requestLog, requestLogger } from './logging.ts';

test('loggableUrl redacts credential-bearing query values, however the name is written, and leaves other URLs as they are', () => {
  assert.equal(loggableUrl('/v1/render/abc?r=eyJzbHVnIjoiYSJ9&w=20'), '/v1/render/abc?r=eyJzbHVnIjoiYSJ9&w=20');
  assert.equal(loggableUrl('/v1/health'), '/v1/health');
  assert.equal(loggableUrl('/v1/render/abc?r=x&kid=k1&exp=9&sig=SECRET'), '/v1/render/abc?r=x&kid=k1&exp=9&sig=%5Bredacted%5D');
  assert.equal(loggableUrl('/cb?CODE=SECRET&state=SECRET2'), '/cb?CODE=%5Bredacted%5D&state=%5Bredacted%5D');
  for (const url of ['/x?%73ig=SECRET', '/x?a=1&S%49G=SECRET', '/x?token']) {
    assert.doesNotMatch(loggableUrl(url), /SECRET/, url);
  }
});

describe('requestLogger', () => {
  const lines: Record<string, unknown>[] = [];
  const waiting = new Set<() => void>();
  const destination = {
    write(line: string) {
      lines.push(JSON.parse(line) as Record<string, unknown>);
      for (const wake of waiting) wake();
    },
  };
  const logger = createLogger('info', destination);
  const log = requestLogger(logger);
  const server = http.createServer((req, res) =>
    log(req, res, () => {
      if (req.url === '/handler-logs') requestLog(req).info({ detail: 1 }, 'handler line');
      if (req.url === '/fails') {
        logFailureWith(res, new Error('the cause'));
        res.statusCode = 500;
      }
      if (req.url === '/lean') markAnsweredByLeanPath(res);
      if (req.url === '/refused') {
        logAsRefused(res, 'database');
        res.statusCode = 503;
      }
      if (req.url === '/leaves') {
        res.writeHead(200, { 'Content-Length': '10' });
        res.write('12345');
        return;
      }
      res.end('ok');
    }),
  );
  let base = '';
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  /** The request line (it has `res`) of the request with this id, once written. */
  const lineOf = (id: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const look = () => {
        const line = lines.find((l) => (l.req as { id?: string } | undefined)?.id === id && l.res !== undefined);
        if (line) {
          waiting.delete(look);
          resolve(line);
        }
      };
      waiting.add(look);
      look();
    });

  test('one line per request: its id (the client’s when well-formed, echoed), the request, the status, the time', async () => {
    const res = await fetch(`${base}/v1/render/abc?r=x&sig=SECRET`, {
      headers: { 'X-Request-Id': 'client-id-1234', 'User-Agent': 'probe' },
    });
    assert.equal(res.headers.get('x-request-id'), 'client-id-1234');
    const line = await lineOf('client-id-1234');
    assert.equal(line.msg, 'request completed');
    assert.equal(line.level, 30);
    assert.deepEqual(line.res, { statusCode: 200 });
    assert.equal(typeof line.responseTime, 'number');
    assert.deepEqual(line.req, {
      id: 'client-id-1234',
      method: 'GET',
      url: '/v1/render/abc?r=x&sig=%5Bredacted%5D',
      remoteAddress: '127.0.0.1',
      userAgent: 'probe',
    });
    const generated = await fetch(`${base}/`, { headers: { 'X-Request-Id': 'bad id' } });
    assert.match(generated.headers.get('x-request-id')!, /^[0-9a-f-]{36}$/);
  });

  test('a handler’s lines carry the request; a 5xx line carries its cause; the lean path is named', async () => {
    const handled = (await fetch(`${base}/handler-logs`, { headers: { 'X-Request-Id': 'handler-1234' } })).headers.get('x-request-id')!;
    await lineOf(handled);
    const own = lines.find((l) => l.msg === 'handler line')!;
    assert.equal((own.req as { id: string }).id, 'handler-1234');
    assert.equal(own.detail, 1);
    await fetch(`${base}/fails`, { headers: { 'X-Request-Id': 'fails-12345' } });
    const failed = await lineOf('fails-12345');
    assert.equal(failed.level, 50);
    assert.equal(failed.msg, 'the cause');
    assert.match((failed.err as { stack: string }).stack, /the cause/);
    await fetch(`${base}/lean`, { headers: { 'X-Request-Id': 'lean-123456' } });
    assert.equal((await lineOf('lean-123456')).path, 'lean');
    assert.equal((await lineOf('handler-1234')).path, undefined);
  });

  test('a 503 refused while a dependency is down is an info line naming it, without a stack (the outage is logged once elsewhere)', async () => {
    await fetch(`${base}/refused`, { headers: { 'X-Request-Id': 'refused-1234' } });
    const line = await lineOf('refused-1234');
    assert.deepEqual(
      { level: line.level, msg: line.msg, dependency: line.dependency, res: line.res, err: line.err },
      { level: 30, msg: 'request completed', dependency: 'database', res: { statusCode: 503 }, err: undefined },
    );
  });

  test('a client that leaves before the response is finished is logged as 499', async () => {
    const controller = new AbortController();
    const res = await fetch(`${base}/leaves`, { headers: { 'X-Request-Id': 'leaves-12345' }, signal: controller.signal });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    const line = await lineOf('leaves-12345');
    assert.deepEqual(line.res, { statusCode: 499 });
    assert.equal(line.msg, 'request completed');
  });
});
