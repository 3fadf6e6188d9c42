// What a process answers while it waits for its database at start-up (src/startup.ts, the listener
// src/http/starting.listener.ts): /v1/health 200, /v1/ready 503 with the readiness fields, and
// every operation 503 `not_ready` with Retry-After — each checked against openapi.yaml, which
// declares that 503 on every operation. The fault tier (test/fault/) starts a real process before
// its Postgres; this suite covers every operation of the contract.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import supertest from 'supertest';
import YAML from 'yaml';
import { startingListener } from '../../src/http/starting.listener.ts';
import { healthReport } from '../../src/services/health.service.ts';
import { formatFacts } from '../../src/lib/formats.ts';
import { serviceLimits } from '../../src/config/limits.ts';
import { assertMatchesContract } from '../support/contract.ts';

const METHODS = ['get', 'post', 'patch', 'put', 'delete'] as const;
const doc = YAML.parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string }>>;
};
/** Every operation's method and a concrete path (`{x}` filled in). */
const operations = Object.entries(doc.paths).flatMap(([template, item]) =>
  METHODS.filter((m) => item[m]?.operationId).map((method) => ({
    operationId: item[method]!.operationId!,
    method,
    path: template.replace(/\{recipeHash\}/, 'a'.repeat(64)).replace(/\{[^}]+\}/g, 'x_1'),
  })),
);

test('while waiting for the database: health 200, ready 503 with its fields, every other operation 503 not_ready with Retry-After', async () => {
  const dependencies = { database: false, blobStore: true };
  const app = supertest(
    startingListener({
      health: () => healthReport({ renderer: 'renderer-test', generators: 20, revision: 'test-revision', animationBudgetMs: 20_000 }),
      dependencies,
      ffmpeg: true,
    }),
  );
  assert.ok(operations.length >= 30);
  for (const { operationId, method, path } of operations) {
    const url = path === '/v1/render/' + 'a'.repeat(64) ? `${path}?r=e30` : path;
    const res = await app[method](url).buffer(true);
    assertMatchesContract(method.toUpperCase(), url, { status: res.status, headers: res.headers, body: res.body, text: res.text });
    if (operationId === 'getHealth') {
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, {
        ok: true,
        engineVersion: res.body.engineVersion,
        rendererVersion: 'renderer-test',
        generators: 20,
        animationBudgetMs: 20_000,
        revision: 'test-revision',
        formats: formatFacts(),
        limits: serviceLimits(),
      });
      continue;
    }
    assert.equal(res.status, 503, `${operationId}: ${res.text}`);
    assert.equal(res.body.code, 'not_ready');
    assert.equal(res.headers['retry-after'], '5');
    assert.match(res.body.detail, /waiting for the database/);
    if (operationId === 'getReady')
      assert.deepEqual([res.body.ok, res.body.database, res.body.blobStore, res.body.ffmpeg], [false, false, true, true]);
  }
});
