import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAjv, toIssues } from './schema-validation.ts';

test('toIssues names body, query and path fields, and missing or unknown properties', () => {
  const ajv = createAjv();
  const validate = ajv.compile({
    type: 'object',
    properties: {
      requestBody: {
        type: 'object',
        additionalProperties: false,
        required: ['size'],
        properties: {
          size: { type: 'object', required: ['width'], properties: { width: { type: 'integer', minimum: 16 } } },
          format: { enum: ['png', 'svg'] },
        },
      },
      query: { type: 'object', properties: { w: { type: 'integer', maximum: 4096 } } },
    },
  });
  validate({ requestBody: { size: {}, format: 'bmp', extra: 1 }, query: { w: 5000 } });
  const issues = toIssues(validate.errors).map((i) => `${i.path}: ${i.message}`);
  assert.deepEqual(issues.sort(), [
    'body.extra: is not a known field',
    'body.format: must be one of: png, svg',
    'body.size.width: is required',
    'query.w: must be <= 4096',
  ]);
});

test("toIssues names the field a `not: { required }` excludes (with a verbose Ajv, as the contract's is)", () => {
  const schema = {
    type: 'object',
    properties: {
      requestBody: {
        type: 'object',
        not: { required: ['expiresAt', 'expiresInSeconds'], properties: { expiresAt: {}, expiresInSeconds: {} } },
        properties: { expiresAt: { type: 'string' }, expiresInSeconds: { type: 'integer' }, x: { not: { type: 'string' } } },
      },
    },
  };
  const validate = createAjv({ verbose: true }).compile(schema);
  validate({ requestBody: { expiresAt: '2030-01-01T00:00:00Z', expiresInSeconds: 60, x: 'y' } });
  assert.deepEqual(toIssues(validate.errors), [
    { path: 'body.expiresInSeconds', message: 'must not be sent with expiresAt', keyword: 'not' },
    { path: 'body.x', message: 'must NOT be valid', keyword: 'not' },
  ]);
});

test('the color format accepts #rrggbb only', () => {
  const validate = createAjv().compile({ type: 'string', format: 'color' });
  assert.equal(validate('#a1b2c3'), true);
  assert.equal(validate('red'), false);
});
