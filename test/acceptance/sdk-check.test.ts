// `npm run sdk:check` as part of `npm test`: clients generated from the served contract by
// openapi-typescript + openapi-fetch, @hey-api/openapi-ts and orval compile in strict TypeScript
// (with the README's snippets) and render, run a job, download it, manage keys and call every other
// operation with a request body (batch, URL signing, presets, billing) against the service.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { ROOT } from '../support/black-box/server-process.ts';

// A backstop, not a deadline: three generators and three strict compiles took 177 s at load 10 (29 s quiet).
test('clients from three generators compile strict and work against the service (npm run sdk:check)', { timeout: 900_000 }, async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/sdk-check.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 880_000,
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  assert.equal(code, 0, output);
  for (const generator of ['openapi-fetch', 'hey-api', 'orval']) assert.match(output, new RegExp(`\\[${generator}\\] passed`));
});
