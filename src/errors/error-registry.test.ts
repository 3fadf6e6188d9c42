import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openApiDocument } from '../lib/openapi-document.ts';
import { PROBLEMS } from './error-registry.ts';

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
