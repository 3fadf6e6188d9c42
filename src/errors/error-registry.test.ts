import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openApiDocument } from '../lib/openapi-document.ts';
import { PROBLEMS, type ProblemCode, type ProblemDefinition } from './error-registry.ts';
import { ProblemError, isTransientFailure } from './problem.ts';

const schema = (openApiDocument().components as { schemas: Record<string, { enum: string[]; description: string }> }).schemas.ProblemCode;

test('the registry and the contract list the same codes', () => {
  assert.deepEqual(Object.keys(PROBLEMS).sort(), [...schema.enum].sort());
});

test('each code has the status the contract documents for it', () => {
  const documented = new Map<string, number>();
  for (const match of schema.description.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)) documented.set(match[1], Number(match[2]));
  assert.equal(documented.size, Object.keys(PROBLEMS).length, 'every code has a row in the table');
  for (const [code, def] of Object.entries(PROBLEMS)) assert.equal(def.status, documented.get(code), code);
});

test('transient codes are the failures worth another attempt; anything else unexpected is too', () => {
  const transient = Object.entries(PROBLEMS)
    .filter(([, def]) => (def as ProblemDefinition).transient)
    .map(([code]) => code);
  assert.deepEqual(transient.sort(), ['not_ready', 'overloaded', 'render_timeout', 'upstream_error']);
  for (const code of transient) assert.equal(isTransientFailure(new ProblemError(code as ProblemCode)), true, code);
  assert.equal(isTransientFailure(new ProblemError('render_too_large')), false);
  assert.equal(isTransientFailure(new ProblemError('invalid_params')), false);
  // A failure already waited out says so itself (a job's result that storage never took).
  assert.equal(isTransientFailure(new ProblemError('upstream_error', { transient: false })), false);
  assert.equal(isTransientFailure(new Error('the encoder exited with code 1')), true);
});
