#!/usr/bin/env node
// Builds what the service runs from, each part only when a source of it changed: the web app
// (scripts/build-web.mjs → web/dist) and the compiled service and CLI (scripts/build-service.mjs →
// dist/). Run after `npm install` and before `npm start` and `npm run worker`; when nothing
// changed it checks the stamps and does nothing (a tenth of a second).
//   node scripts/build.mjs           build what changed, say what it did
//   node scripts/build.mjs --quiet   the same, silently
//   node scripts/build.mjs --force   build both
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildService } from './build-service.mjs';
import { buildWeb, currentWebBuild } from './build-web.mjs';

/** Builds both parts that are not current (all with `force`); says which were built. */
export async function buildAll({ force = false } = {}) {
  const webCurrent = !force && currentWebBuild() !== undefined;
  const [, service] = await Promise.all([buildWeb({ force }), buildService({ force })]);
  return { web: !webCurrent, service: service.built };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const built = await buildAll({ force: process.argv.includes('--force') });
    if (!process.argv.includes('--quiet'))
      console.log(`web/dist ${built.web ? 'built' : 'is current'}; dist/ ${built.service ? 'built' : 'is current'}`);
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
