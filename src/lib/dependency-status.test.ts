import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { DependencyUnavailableError } from './dependency-failure.ts';
import { DependencyStatus, logFailure } from './dependency-status.ts';
import { createLogger } from './logger.ts';

interface Line {
  level: string;
  fields: Record<string, unknown>;
  msg: string;
}

const LEVELS: Record<number, string> = { 20: 'debug', 30: 'info', 40: 'warn', 50: 'error' };

/** A real logger at debug whose lines are kept (parsed) and emitted one by one. */
function recorder() {
  const lines: Line[] = [];
  const written = new EventEmitter<{ line: [Line] }>();
  const logger = createLogger('debug', {
    write(text: string) {
      const { level, msg, time: _t, pid: _p, hostname: _h, service: _s, ...fields } = JSON.parse(text) as Record<string, unknown>;
      const line = { level: LEVELS[level as number], fields, msg: msg as string };
      lines.push(line);
      written.emit('line', line);
    },
  });
  return { lines, written, logger };
}

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

test('an outage is two lines: warn when it starts, info with its counts when it ends', () => {
  const { lines, logger } = recorder();
  let now = 1_000;
  const status = new DependencyStatus({ logger, clock: { now: () => now } });
  status.available('database'); // nothing to end
  assert.equal(status.isDown('database'), false);
  status.unavailable('database', refused);
  for (let i = 0; i < 50; i++) status.refused('database');
  for (let i = 0; i < 9; i++) status.unavailable('database', refused);
  now += 4_500;
  status.available('database');
  status.available('database');
  assert.deepEqual(
    lines.map((l) => [l.level, l.msg]),
    [
      ['warn', 'The database is unavailable: requests that need it answer 503 until it is back'],
      ['info', 'The database is available again'],
    ],
  );
  assert.deepEqual(lines[0].fields, { dependency: 'database', reason: 'ECONNREFUSED' }, 'a short reason, no stack');
  assert.deepEqual(lines[1].fields, { dependency: 'database', downForMs: 4_500, requestsRefused: 50, failedOperations: 10 });
  assert.equal(status.isDown('database'), false);
});

test('a success ends an outage only when its operation started after the outage began (a query in flight when a fast shutdown began can still be answered)', () => {
  const { lines, logger } = recorder();
  let now = 1_000;
  const status = new DependencyStatus({ logger, clock: { now: () => now } });
  const inFlight = status.operationStart();
  now += 1;
  const sameMillisecond = status.operationStart();
  status.unavailable('database', refused);
  now += 47;
  status.available('database', inFlight);
  status.available('database', sameMillisecond);
  assert.ok(status.isDown('database'), 'operations begun before the outage end nothing');
  const after = status.operationStart();
  now += 3;
  status.available('database', after);
  assert.equal(status.isDown('database'), false);
  assert.deepEqual(lines[1].fields, { dependency: 'database', downForMs: 50, requestsRefused: 0, failedOperations: 1 });
});

test('a refusal starts an outage too; each dependency has its own', () => {
  const { lines, logger } = recorder();
  const status = new DependencyStatus({ logger });
  status.refused('storage', new DependencyUnavailableError('storage', refused));
  assert.ok(status.isDown('storage'));
  assert.ok(!status.isDown('database'));
  status.available('storage');
  assert.deepEqual(
    lines.map((l) => [l.level, l.msg, l.fields.requestsRefused]),
    [
      ['warn', 'Object storage is unavailable: requests that need it answer 503 until it is back', undefined],
      ['info', 'Object storage is available again', 1],
    ],
  );
});

test("logFailure: a dependency's unavailability goes to debug and to the outage; any other failure at its level", () => {
  const { lines, logger } = recorder();
  const status = new DependencyStatus({ logger });
  status.logFailure(logger, 'error', { err: refused, what: 'sweep' }, 'sweep failed');
  status.logFailure(logger, 'error', { err: new Error('a bug') }, 'sweep failed');
  logFailure(undefined, logger, 'warn', { err: refused }, 'no status: logged as asked');
  assert.deepEqual(
    lines.map((l) => [l.level, l.msg]),
    [
      ['warn', 'The database is unavailable: requests that need it answer 503 until it is back'],
      ['debug', 'sweep failed'],
      ['error', 'sweep failed'],
      ['warn', 'no status: logged as asked'],
    ],
  );
});

test('while a dependency is down its probe runs until it answers, and the recovery is logged without any traffic', async () => {
  const { lines, written, logger } = recorder();
  let answers = false;
  let probes = 0;
  const status = new DependencyStatus({
    logger,
    probeIntervalMs: 5,
    probes: {
      database: async () => {
        probes++;
        if (!answers) throw refused;
        if (probes >= 3) return;
        throw refused;
      },
    },
  });
  const recovered = new Promise<void>((resolve) => written.on('line', (l) => l.level === 'info' && resolve()));
  // The probe's timer does not hold the process open (unref): this test does, until the recovery.
  const open = setInterval(() => {}, 60_000);
  status.unavailable('database', refused);
  answers = true;
  await recovered.finally(() => clearInterval(open));
  assert.ok(probes >= 3);
  assert.equal(status.isDown('database'), false);
  assert.equal(lines.filter((l) => l.level === 'warn').length, 1);
  status.close();
});
