#!/usr/bin/env node
// Compiles the service, the worker process and the CLI to JavaScript in dist/ (not committed), so
// they start without tsx: esbuild bundles each entry point with the modules it imports (src/,
// handlers/, db/), split into shared chunks, every package but a few small pure-JavaScript ones
// (BUNDLED_PACKAGES) left to node_modules (the native and WebAssembly ones among them). Runs after `npm install`, before `npm start`, `npm run worker` and the
// tests, and again only when a source changed (the stamp in dist/build.json, scripts/build-stamp.mjs);
// a build takes about two seconds.
//   node scripts/build-service.mjs           build when a source changed, say what it did
//   node scripts/build-service.mjs --quiet   the same, silently
//   node scripts/build-service.mjs --force   build even when current
//   node scripts/build-service.mjs --test-bundle   the determinism tier's bundle (dist-test/, TEST_BUNDLE)
//
// What a bundle changes, and how the code copes:
// - `import.meta.url` is the bundle file's, so no module finds a file of this package relative to
//   it: src/lib/package-root.ts finds them from the package root (packages still resolve through
//   createRequire(import.meta.url): node_modules is above dist/ too).
// - All output is flat in dist/: render.worker.js lies beside every module, which is where
//   src/engine/render-pool.ts looks for its worker when it runs compiled.
// - Names are kept (keepNames): step names, error classes and stack traces read as in the source.
// - No top-level await anywhere in the bundled graph (the build fails on one): a worker thread loads
//   its module graph through require(), which cannot load a graph that has one.
// A running process keeps working through a rebuild: chunks have content-hashed names, entry points
// are swapped in by rename, the stamp is written last, and only then are files no entry point names
// removed (a process loads its chunks as it starts).
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, SERVICE_DIST_DIR, currentStamp, fingerprints } from './build-stamp.mjs';

export const DIST_DIR = SERVICE_DIST_DIR;
/** The entry points: dist/<name>.js each. */
export const ENTRIES = {
  cli: 'src/cli.ts',
  main: 'src/main.ts',
  worker: 'src/worker.ts',
  'render.worker': 'src/engine/render.worker.ts',
  // The superseded generator versions, which a render thread loads only for a recipe that pins one.
  superseded: 'src/generators/releases/superseded.ts',
};
/**
 * Packages bundled into dist/ with what they import: pure JavaScript on the CLI's render path, many
 * small modules each, which load several times faster as part of a bundle (Ajv and ajv-formats
 * took 90–135 ms of CPU to load on the loaded development machine, bundled 18–28 ms). Every other package stays in node_modules:
 * native and WebAssembly ones must (canvas, sharp, better-sqlite3, harfbuzzjs, wawoff2), and others
 * find files of their own at run time (piscina's worker, pino's transports) or are loaded by the
 * service alone, whose start-up is not a command's.
 */
export const BUNDLED_PACKAGES = ['ajv', 'ajv-formats', 'canonicalize', 'lru-cache', 'simplex-noise', 'unicode-segmenter'];

/** Resolves the bundled packages (and whatever they import) into the bundle; every other package is external. */
const packagesPlugin = {
  name: 'bundled-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return { external: true };
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      const fromBundled = args.importer.includes(`${path.sep}node_modules${path.sep}`);
      return fromBundled || BUNDLED_PACKAGES.includes(name) ? undefined : { external: true };
    });
  },
};

/** Files besides the sources that shape the output: this script, the compiler and its settings. */
const BUILD_INPUTS = ['scripts/build-service.mjs', 'scripts/build-stamp.mjs', 'tsconfig.json', 'node_modules/esbuild/package.json'];

/**
 * The contract parsed, beside the compiled service (src/lib/openapi-document.ts, PARSED_OPENAPI_PATH
 * reads it): JSON instead of YAML at every start, about 0.4 s of CPU less. It names the sha256 of
 * the openapi.yaml it was made from, and openapi.yaml is an input of the service's build.
 */
const PARSED_OPENAPI = { file: 'openapi.json', source: 'openapi.yaml' };

/**
 * The test tiers' bundle (dist-test/): the service's entry points, the golden digests' script and
 * dmath's digest test, so the determinism tier runs under emulation without tsx, which compiles every
 * module of the render path again in each process and render thread (about a third of an emulated
 * run's CPU; as arm64, tsx's esbuild runs under qemu too).
 */
export const TEST_BUNDLE = {
  dir: 'dist-test',
  entries: {
    ...ENTRIES,
    'render-digests': 'test/determinism/render-digests.ts',
    'dmath.test': 'src/generators/lib/dmath.test.ts',
    'render-text-samples': 'test/support/render-text-samples.ts',
  },
};

/** The esbuild options of the build (tests compile the same way). */
export function buildOptions(root = ROOT, { dir = 'dist', entries = ENTRIES } = {}) {
  return {
    absWorkingDir: root,
    entryPoints: entries,
    bundle: true,
    plugins: [packagesPlugin],
    platform: 'node',
    format: 'esm',
    target: 'node20',
    splitting: true,
    outdir: path.join(root, dir),
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    keepNames: true,
    sourcemap: 'linked',
    supported: { 'top-level-await': false },
    legalComments: 'none',
    metafile: true,
    write: false,
    logLevel: 'silent',
  };
}

/** Writes a file by rename, so a process reading it meanwhile sees the old or the new one, whole. */
function writeAtomic(file, content) {
  writeFileSync(`${file}.${process.pid}.tmp`, content);
  renameSync(`${file}.${process.pid}.tmp`, file);
}

/**
 * Builds dist/ unless it is current (or `force`). Resolves with whether it built, the output files
 * and the time taken. Fails with esbuild's messages when the sources do not compile. `dir` and
 * `entries` build another bundle the same way (TEST_BUNDLE).
 * @param {{ force?: boolean, root?: string, dir?: string, entries?: Record<string, string> }} [options]
 */
export async function buildService({ force = false, root = ROOT, dir = 'dist', entries = ENTRIES } = {}) {
  const started = performance.now();
  const dist = path.join(root, dir);
  const current = force ? undefined : currentStamp(root, dist);
  if (current) return { built: false, outputs: current.outputs, ms: performance.now() - started };

  // Imported only to build: a check that finds the build current stays quick.
  const esbuild = await import('esbuild');
  let result;
  try {
    result = await esbuild.build(buildOptions(root, { dir, entries }));
  } catch (err) {
    const messages = err.errors ? await esbuild.formatMessages(err.errors, { kind: 'error' }) : [String(err)];
    throw new Error(`the service does not compile:\n${messages.join('\n')}`, { cause: err });
  }
  mkdirSync(dist, { recursive: true });
  const entryFiles = new Set(Object.keys(entries).flatMap((name) => [`${name}.js`, `${name}.js.map`]));
  const outputs = result.outputFiles.map((o) => ({ file: path.relative(dist, o.path), bytes: o.contents.length }));
  // The service's build carries the parsed contract too (PARSED_OPENAPI); the test bundle reads none.
  const contract = dir === 'dist' ? await parsedContractText(root) : undefined;
  if (contract) outputs.push({ file: PARSED_OPENAPI.file, bytes: Buffer.byteLength(contract) });
  for (const { file } of outputs)
    if (file.includes(path.sep)) throw new Error(`${dir}/${file}: every output must lie in ${dir}/ itself (src/engine/render-pool.ts)`);
  // Chunks and their maps first (new names), then the entry points, then the stamp.
  const ordered = [...result.outputFiles].sort(
    (a, b) => Number(entryFiles.has(path.basename(a.path))) - Number(entryFiles.has(path.basename(b.path))),
  );
  for (const o of ordered) writeAtomic(o.path, o.contents);
  if (contract) writeAtomic(path.join(dist, PARSED_OPENAPI.file), contract);
  // A bundled package's files count as its package.json: npm rewrites that whenever it installs another
  // version. Fewer files for the bin to look at on every start.
  const packageJson = (file) => file.replace(/^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\/.*$/, '$1/package.json');
  const inputs = [...Object.keys(result.metafile.inputs).map(packageJson), ...BUILD_INPUTS, ...(contract ? [PARSED_OPENAPI.source] : [])];
  const stamp = {
    note: 'Written by scripts/build-service.mjs; what it was made from (to tell whether it is current) and what it wrote.',
    entries: Object.fromEntries(Object.keys(entries).map((name) => [name, `${name}.js`])),
    outputs,
    inputs: fingerprints(root, inputs),
  };
  writeAtomic(path.join(dist, 'build.json'), `${JSON.stringify(stamp, null, 2)}\n`);
  const keep = new Set(['build.json', ...outputs.map((o) => o.file)]);
  for (const name of readdirSync(dist))
    if (!keep.has(name) && !name.endsWith('.tmp')) rmSync(path.join(dist, name), { recursive: true, force: true });
  return { built: true, outputs, ms: performance.now() - started };
}

/** PARSED_OPENAPI's content: the parsed openapi.yaml with the sha256 of its text. */
async function parsedContractText(root) {
  const text = readFileSync(path.join(root, PARSED_OPENAPI.source), 'utf8');
  const { parse } = await import('yaml');
  return JSON.stringify({ sourceSha256: createHash('sha256').update(text).digest('hex'), document: parse(text) });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const bundle = process.argv.includes('--test-bundle') ? TEST_BUNDLE : { dir: 'dist', entries: ENTRIES };
    const { built, outputs, ms } = await buildService({ force: process.argv.includes('--force'), ...bundle });
    if (!process.argv.includes('--quiet')) {
      const js = outputs.filter((o) => o.file.endsWith('.js'));
      const kB = (js.reduce((sum, o) => sum + o.bytes, 0) / 1024).toFixed(0);
      console.log(
        built ? `${bundle.dir}/: ${js.length} files, ${kB} kB, built in ${(ms / 1000).toFixed(1)} s` : `${bundle.dir}/ is current`,
      );
    }
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
