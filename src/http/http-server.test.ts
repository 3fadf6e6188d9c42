import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_ENCODED_RECIPE_LENGTH } from '../config/limits.ts';
import { MAX_HEADER_BYTES, createHttpServer } from './http-server.ts';
import { openApiDocument } from '../lib/openapi-document.ts';

test('the documented longest recipe (`r`) is the engine limit, and the header limit leaves 16 KiB beside it', () => {
  const op = (
    openApiDocument().paths['/v1/render/{recipeHash}'] as { get: { parameters: { name: string; schema?: { maxLength?: number } }[] } }
  ).get;
  assert.equal(op.parameters.find((p) => p.name === 'r')?.schema?.maxLength, MAX_ENCODED_RECIPE_LENGTH);
  assert.equal(MAX_HEADER_BYTES, MAX_ENCODED_RECIPE_LENGTH + 16 * 1024);
});

test('the server takes the header limit and the deadlines from its options', () => {
  const server = createHttpServer(() => {}, { headersMs: 2_000, bodyMs: 5_000 });
  assert.equal((server as unknown as { maxHeaderSize: number }).maxHeaderSize, MAX_HEADER_BYTES);
  assert.equal(server.headersTimeout, 2_000);
  assert.equal(server.requestTimeout, 8_000);
  assert.equal(server.listenerCount('clientError'), 1);
});
