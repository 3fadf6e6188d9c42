#!/usr/bin/env node
// Builds the web app: web/js (plain ES modules) and web/styles.css are bundled and minified by
// esbuild into web/dist under content-hashed names (served with a year-long immutable cache), and
// web/index.html is copied there pointing at them (served with no-cache). Runs after `npm install`
// and before `npm start` and `npm test` (scripts/build.mjs), and builds only when a source changed
// (the stamp in web/dist/build.json, scripts/build-stamp.mjs); a build takes well under a second.
//   node scripts/build-web.mjs           build when a source changed, print the sizes
//   node scripts/build-web.mjs --quiet   the same, silently
//   node scripts/build-web.mjs --force   build even when current
import { gzipSync } from 'node:zlib';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { currentStamp, fingerprints } from './build-stamp.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDir = path.join(root, 'web');
export const DIST_DIR = path.join(webDir, 'dist');

/** Writes a file by rename, so a server reading it meanwhile sees the old or the new one, whole. */
function writeAtomic(file, content) {
  writeFileSync(`${file}.${process.pid}.tmp`, content);
  renameSync(`${file}.${process.pid}.tmp`, file);
}

/** Files besides the sources that shape the output: the page, this script, the compiler. */
const BUILD_INPUTS = ['web/index.html', 'scripts/build-web.mjs', 'scripts/build-stamp.mjs', 'node_modules/esbuild/package.json'];

/** The outputs of web/dist when it was built from the current sources, else undefined. */
export function currentWebBuild() {
  const stamp = currentStamp(root, DIST_DIR);
  return stamp && existsSync(path.join(DIST_DIR, 'index.html')) ? stamp.outputs : undefined;
}

/**
 * Builds web/dist unless it is current (or `force`); returns each output file with its raw and gzip sizes. A running server never
 * sees a half-built app: bundles are new files (content-hashed names), the page that names them is
 * swapped in last, and only then are bundles it no longer names removed.
 */
export async function buildWeb({ force = false } = {}) {
  const current = force ? undefined : currentWebBuild();
  if (current) return current;
  // Imported only to build: a check that finds the build current stays quick.
  const esbuild = await import('esbuild');
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
    // A page loaded with import() (the templates area) is its own file, and what it shares with the
    // app a chunk of its own: the first page load carries neither the editor nor a copy of the app.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    legalComments: 'none',
    metafile: true,
    write: true,
    logLevel: 'warning',
  });
  const distName = (file) => path.relative(DIST_DIR, path.join(root, file));
  // Each file with what it statically imports: the page's first load is the app's entry and those
  // chunks (the size budget's, test/unit/web-build.test.ts); a dynamically imported page is loaded later.
  const outputs = Object.entries(result.metafile.outputs).map(([file, meta]) => {
    const bytes = readFileSync(path.join(root, file));
    return {
      file: distName(file),
      bytes: bytes.length,
      gzipBytes: gzipSync(bytes, { level: 9 }).length,
      ...(meta.entryPoint ? { entryPoint: meta.entryPoint } : {}),
      imports: meta.imports.filter((i) => i.kind === 'import-statement' && !i.external).map((i) => distName(i.path)),
    };
  });
  const script = outputs.find((o) => o.entryPoint === 'web/js/app.js');
  const style = outputs.find((o) => o.file.endsWith('.css'));
  const html = readFileSync(path.join(webDir, 'index.html'), 'utf8');
  const linked = html.replace('href="/styles.css"', `href="/${style.file}"`).replace('src="/js/app.js"', `src="/${script.file}"`);
  if (linked === html || linked.includes('/js/app.js') || linked.includes('"/styles.css"'))
    throw new Error('web/index.html no longer links /styles.css and /js/app.js: update scripts/build-web.mjs');
  writeAtomic(path.join(DIST_DIR, 'index.html'), linked);
  const inputs = fingerprints(root, [...Object.keys(result.metafile.inputs), ...BUILD_INPUTS]);
  writeAtomic(path.join(DIST_DIR, 'build.json'), `${JSON.stringify({ outputs, inputs }, null, 2)}\n`);
  const keep = new Set(['index.html', 'build.json', ...outputs.map((o) => o.file)]);
  for (const name of readdirSync(DIST_DIR))
    if (!keep.has(name) && !name.endsWith('.tmp')) rmSync(path.join(DIST_DIR, name), { force: true });
  return outputs;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const force = process.argv.includes('--force');
  const current = !force && currentWebBuild() !== undefined;
  const outputs = await buildWeb({ force });
  if (current && !process.argv.includes('--quiet')) console.log('web/dist is current');
  else if (!process.argv.includes('--quiet')) {
    for (const o of outputs)
      console.log(`web/dist/${o.file}  ${(o.bytes / 1024).toFixed(1)} kB  (gzip ${(o.gzipBytes / 1024).toFixed(1)} kB)`);
  }
}
