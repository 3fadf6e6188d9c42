#!/usr/bin/env node
// Builds the web app: web/js (plain ES modules) and web/styles.css are bundled and minified by
// esbuild into web/dist under content-hashed names (served with a year-long immutable cache), and
// web/index.html is copied there pointing at them (served with no-cache). Runs after `npm install`
// and before `npm start` and `npm test`; it takes well under a second.
//   node scripts/build-web.mjs           build, print the sizes
//   node scripts/build-web.mjs --quiet   build silently
import { gzipSync } from 'node:zlib';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDir = path.join(root, 'web');
export const DIST_DIR = path.join(webDir, 'dist');

/** Writes a file by rename, so a server reading it meanwhile sees the old or the new one, whole. */
function writeAtomic(file, content) {
  writeFileSync(`${file}.${process.pid}.tmp`, content);
  renameSync(`${file}.${process.pid}.tmp`, file);
}

/**
 * Builds web/dist; returns each output file with its raw and gzip sizes. A running server never
 * sees a half-built app: bundles are new files (content-hashed names), the page that names them is
 * swapped in last, and only then are bundles it no longer names removed.
 */
export async function buildWeb() {
  mkdirSync(DIST_DIR, { recursive: true });
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { app: 'web/js/app.js', styles: 'web/styles.css' },
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022', 'chrome115', 'firefox115', 'safari16'],
    outdir: DIST_DIR,
    entryNames: '[name]-[hash]',
    legalComments: 'none',
    metafile: true,
    write: true,
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((file) => {
    const bytes = readFileSync(path.join(root, file));
    return { file: path.relative(DIST_DIR, path.join(root, file)), bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
  });
  const script = outputs.find((o) => o.file.endsWith('.js'));
  const style = outputs.find((o) => o.file.endsWith('.css'));
  const html = readFileSync(path.join(webDir, 'index.html'), 'utf8');
  const linked = html.replace('href="/styles.css"', `href="/${style.file}"`).replace('src="/js/app.js"', `src="/${script.file}"`);
  if (linked === html || linked.includes('/js/app.js') || linked.includes('"/styles.css"'))
    throw new Error('web/index.html no longer links /styles.css and /js/app.js: update scripts/build-web.mjs');
  writeAtomic(path.join(DIST_DIR, 'build.json'), `${JSON.stringify({ outputs }, null, 2)}\n`);
  writeAtomic(path.join(DIST_DIR, 'index.html'), linked);
  const keep = new Set(['index.html', 'build.json', ...outputs.map((o) => o.file)]);
  for (const name of readdirSync(DIST_DIR))
    if (!keep.has(name) && !name.endsWith('.tmp')) rmSync(path.join(DIST_DIR, name), { force: true });
  return outputs;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outputs = await buildWeb();
  if (!process.argv.includes('--quiet')) {
    for (const o of outputs)
      console.log(`web/dist/${o.file}  ${(o.bytes / 1024).toFixed(1)} kB  (gzip ${(o.gzipBytes / 1024).toFixed(1)} kB)`);
  }
}
