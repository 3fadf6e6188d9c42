// What a request log line says of the URL: credential-bearing query values never reach it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loggableUrl } from './logging.ts';

test('loggableUrl redacts credential-bearing query values, however the name is written, and leaves other URLs as they are', () => {
  assert.equal(loggableUrl('/v1/render/abc?r=eyJzbHVnIjoiYSJ9&w=20'), '/v1/render/abc?r=eyJzbHVnIjoiYSJ9&w=20');
  assert.equal(loggableUrl('/v1/health'), '/v1/health');
  assert.equal(loggableUrl('/v1/render/abc?r=x&kid=k1&exp=9&sig=SECRET'), '/v1/render/abc?r=x&kid=k1&exp=9&sig=%5Bredacted%5D');
  assert.equal(loggableUrl('/cb?CODE=SECRET&state=SECRET2'), '/cb?CODE=%5Bredacted%5D&state=%5Bredacted%5D');
  for (const url of ['/x?%73ig=SECRET', '/x?a=1&S%49G=SECRET', '/x?token']) {
    assert.doesNotMatch(loggableUrl(url), /SECRET/, url);
  }
});
