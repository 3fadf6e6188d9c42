// Runs test files in the order given, `concurrency` at a time, with the spec reporter, and exits 1 when
// a test failed. scripts/run-tests.mjs starts it with `--enable-source-maps` (the files are bundles:
// scripts/test-bundles.mjs) or `--import tsx` (TEST_FILES_BUNDLED=0), and `--import
// scripts/test-context.mjs` (node:test's scopes without its async hook), which each file's process
// inherits. `node --test a b …` would sort the files by path: the queue's longest-first order became
// the alphabet's (the shared unit and integration processes first, the emulated determinism files
// last, then minutes of one arm64 process alone at the end of a run); run() keeps the order it is given.
//   node --enable-source-maps scripts/test-queue.mjs <concurrency> <file.mjs> [file …]
import { run } from 'node:test';
import { spec } from 'node:test/reporters';

const [concurrency, ...files] = process.argv.slice(2);
let failed = false;
const stream = run({ files, concurrency: Number(concurrency) });
stream.on('test:fail', () => (failed = true));
stream.compose(spec).pipe(process.stdout);
stream.once('end', () => (process.exitCode = failed ? 1 : 0));
