#!/usr/bin/env node
// Command-line entry. Runs the compiled CLI (dist/cli.js, which scripts/build-service.mjs builds at
// install and before `npm start` and the tests) when that build is there and made from the current
// sources; otherwise — a checkout without a build, or sources changed since — src/cli.ts through tsx.
import { currentServiceEntry } from '../scripts/build-stamp.mjs';

const compiled = currentServiceEntry('cli');
if (compiled) {
  await import(compiled);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli.ts');
}
