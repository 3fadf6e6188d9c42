// Compiles the test files a run starts to JavaScript bundles (scripts/run-tests.mjs), so their
// processes run without tsx. With any module customization hook registered (tsx's or a hook that does
// nothing), Node 20 sends every module a process loads, the packages' require() calls included,
// through the hook thread: a shared integration process took about 2 s more CPU (13.0 s instead of
// 10.8 s, 2026-11-30, side by side), and a run starts about thirty test processes.
//
// Each entry becomes one bundle with every test, support and product module it imports; packages stay
// in node_modules (they load as Node loads them). What a bundle changes, and how the code copes:
// - `import.meta.url`, `.dirname` and `.filename` are replaced by the source file's own, so a module
//   finds its fixtures, the contract and the package root as it does from source (src/ finds its files
//   from the package root anyway: src/lib/package-root.ts). `import.meta.resolve` keeps the bundle's
//   location, which resolves packages as the sources would (node_modules is above test-results/).
// - Failures read in the sources' lines: the run starts the test processes with --enable-source-maps.
// - A test that starts a process or a thread from a .ts file passes `--import tsx` itself (a bundle's
//   process has none to hand down); src/engine/render-pool.ts adds it for a .ts render worker.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * `import.meta.url`, `.dirname` and `.filename` as the source file has them (see above): replaced
 * where they are expressions (esbuild's define; not in strings or comments), with an inline source
 * map the bundle's own map goes through, back to the source's lines.
 */
function sourceImportMeta(esbuild) {
  return {
    name: 'source-import-meta',
    setup(build) {
      build.onLoad({ filter: /\.(ts|mts|js|mjs)$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const text = await readFile(args.path, 'utf8');
        const loader = /\.m?ts$/.test(args.path) ? 'ts' : 'js';
        const resolveDir = path.dirname(args.path);
        if (!text.includes('import.meta')) return { contents: text, loader, resolveDir };
        const { code } = await esbuild.transform(text, {
          loader,
          format: 'esm',
          target: 'node20',
          keepNames: true,
          sourcemap: 'inline',
          sourcefile: args.path,
          define: {
            'import.meta.url': JSON.stringify(pathToFileURL(args.path).href),
            'import.meta.dirname': JSON.stringify(resolveDir),
            'import.meta.filename': JSON.stringify(args.path),
          },
        });
        return { contents: code, loader: 'js', resolveDir };
      });
    },
  };
}

/**
 * Bundles `entries` (name → a test file or a shared process's entry, relative to `root`) into
 * `outdir`, as `<name>.mjs` each; the modules entries share go to chunks/. Resolves with each entry's
 * bundle, relative to `root`. Fails with esbuild's messages when a file does not compile.
 * @param {{ root: string, entries: Record<string, string>, outdir: string }} options
 * @returns {Promise<Record<string, string>>}
 */
export async function bundleTestFiles({ root, entries, outdir }) {
  const esbuild = await import('esbuild');
  try {
    await esbuild.build({
      absWorkingDir: root,
      entryPoints: entries,
      bundle: true,
      packages: 'external',
      plugins: [sourceImportMeta(esbuild)],
      platform: 'node',
      format: 'esm',
      target: 'node20',
      splitting: true,
      outdir,
      outExtension: { '.js': '.mjs' },
      chunkNames: 'chunks/[name]-[hash]',
      // Class and function names as in the sources: error classes, step names and stack traces.
      keepNames: true,
      sourcemap: 'linked',
      logLevel: 'silent',
    });
  } catch (err) {
    const messages = err.errors ? await esbuild.formatMessages(err.errors, { kind: 'error' }) : [String(err)];
    throw new Error(`the test files do not compile:\n${messages.join('\n')}`, { cause: err });
  }
  return Object.fromEntries(Object.keys(entries).map((name) => [name, path.relative(root, path.join(outdir, `${name}.mjs`))]));
}
