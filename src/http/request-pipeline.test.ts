// The request pipeline runs one ordered list of steps for every request over real HTTP.
import assert from 'node:assert/strict';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { requestPipeline, type RequestStep } from './request-pipeline.ts';

type Failure = { err: unknown; step: string; passedOn: boolean };

describe('requestPipeline', () => {
  const ran: string[] = [];
  const failures: Failure[] = [];
  const failed = new Set<(f: Failure) => void>();
  const passing = (name: string): RequestStep => ({
    name,
    handle: (_req, res, next) => {
      ran.push(name);
      res.setHeader(`X-Step-${name}`, 'ran');
      next();
    },
  });
  const answer = (res: ServerResponse, body: string) => {
    res.setHeader('Content-Type', 'text/plain');
    res.end(body);
  };
  // Each path of the test server is answered by a different step.
  const steps: RequestStep[] = [
    passing('first'),
    passing('second'),
    {
      name: 'early',
      handle: async (req, res, next) => {
        ran.push('early');
        if (req.url === '/early') return answer(res, 'early');
        if (req.url === '/throws') throw new Error('boom');
        if (req.url === '/next-error') return next(new Error('passed'));
        if (req.url === '/twice') {
          next();
          next();
          return;
        }
        if (req.url === '/after-next') {
          next();
          throw new Error('late');
        }
        next();
      },
    },
    {
      name: 'last',
      handle: (req: IncomingMessage, res) => {
        ran.push('last');
        answer(res, `last ${req.url}`);
      },
    },
  ];
  const pipeline = requestPipeline(steps, (err, step, _req, res, passedOn) => {
    const failure = { err, step: step.name, passedOn };
    failures.push(failure);
    for (const listener of failed) listener(failure);
    if (!passedOn) {
      res.statusCode = 500;
      res.end(`failed in ${step.name}`);
    }
  });
  const server = http.createServer(pipeline);
  let base = '';
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const get = async (path: string) => {
    ran.length = 0;
    failures.length = 0;
    const res = await fetch(`${base}${path}`);
    return { status: res.status, body: await res.text(), headers: res.headers };
  };

  test('names its steps in order, and refuses two steps of one name', () => {
    assert.deepEqual(pipeline.steps, ['first', 'second', 'early', 'last']);
    assert.throws(() => requestPipeline([passing('a'), passing('a')], () => {}), /share a name/);
  });

  test('every request walks the steps in order until one answers', async () => {
    const through = await get('/through');
    assert.equal(through.body, 'last /through');
    assert.deepEqual(ran, ['first', 'second', 'early', 'last']);
    assert.equal(through.headers.get('x-step-first'), 'ran');
    const early = await get('/early');
    assert.equal(early.body, 'early');
    assert.deepEqual(ran, ['first', 'second', 'early'], 'a step that answers ends the walk');
    assert.equal(early.headers.get('x-step-second'), 'ran', 'the steps in front of it ran for it too');
  });

  test('a step that throws, rejects or passes an error fails the request with the step named', async () => {
    assert.deepEqual(await get('/throws').then((r) => [r.status, r.body]), [500, 'failed in early']);
    assert.equal((failures[0]!.err as Error).message, 'boom');
    assert.deepEqual(await get('/next-error').then((r) => [r.status, r.body]), [500, 'failed in early']);
    assert.equal((failures[0]!.err as Error).message, 'passed');
    assert.deepEqual(ran, ['first', 'second', 'early'], 'nothing after the failed step runs');
  });

  test('a second next() from one step is ignored; a failure after next() is reported, not answered', async () => {
    const twice = await get('/twice');
    assert.equal(twice.body, 'last /twice');
    assert.deepEqual(ran, ['first', 'second', 'early', 'last']);
    const reported = new Promise<Failure>((resolve) => failed.add(resolve));
    const late = await get('/after-next');
    assert.equal(late.body, 'last /after-next', 'the later step owns the response');
    const failure = await reported;
    assert.equal(failure.step, 'early');
    assert.equal(failure.passedOn, true);
  });
});
