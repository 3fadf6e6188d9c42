#!/usr/bin/env node
// Command-line entry. Runs the compiled CLI (dist/cli.js, which scripts/build-service.mjs builds at
// install and before `npm start` and the tests) when that build is there and made from the current
// sources; otherwise — a checkout without a build, or sources changed since — src/cli.ts through tsx.
import module from 'node:module';
import { currentServiceEntry } from '../scripts/build-stamp.mjs';

// Node 22.1 and later keep the modules' compiled code on disk between runs (in the system's temporary
// directory; NODE_DISABLE_COMPILE_CACHE=1 turns it off): most of a short command's time is loading.
module.enableCompileCache?.();

const compiled = currentServiceEntry('cli');
if (compiled) {
  await import(compiled);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli.ts');
}
