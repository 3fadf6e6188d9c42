// Fails when the code has an import cycle, type-only imports included (the cycle through src/app.ts,
// issue 15, was made of type imports only): the product's, the tests' and the scripts' modules
// (TypeScript and JavaScript), what ESLint lints. This is the one cycle check: ESLint's
// import-x/no-cycle, which skipped type-only imports, took about 7 s of CPU where this takes 1.
// Run by `npm run lint` after ESLint. Prints each cycle's files.
//   node scripts/import-cycles.mjs [root]     this repository, or the code under root
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
/** Directories not walked besides node_modules anywhere (paths from the root): builds and generated or vendored code (ESLint's ignores too). */
const SKIP = new Set(['.git', 'dist', 'dist-test', '.sdk-check', 'codegen', 'test-results', 'data', 'web/dist', 'scripts/sdk-consumers']);

const files = [];
const walk = (dir) => {
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP.has(rel) && entry.name !== 'node_modules') walk(rel);
    } else if (/\.(ts|js|mjs)$/.test(rel) && !/\.d\.m?ts$/.test(rel)) files.push(rel);
  }
};
walk('');

const known = new Set(files);
/** The file a relative specifier names: as written, or the TypeScript file a `.js` one stands for. */
const resolve = (from, spec) => {
  const target = path.normalize(path.join(path.dirname(from), spec));
  return [target, target.replace(/\.js$/, '.ts'), `${target}.ts`, path.join(target, 'index.ts')].find((f) => known.has(f));
};
const graph = new Map();
for (const file of files) {
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(path.join(ROOT, file), 'utf8'), true, true);
  const targets = importedFiles
    .map((i) => i.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => resolve(file, spec))
    .filter((target) => target !== undefined);
  graph.set(file, targets);
}

// Tarjan's strongly connected components: every component of more than one file is a cycle.
let next = 0;
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
const visit = (v) => {
  index.set(v, next);
  low.set(v, next++);
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v)) {
    if (!index.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) !== index.get(v)) return;
  const component = [];
  let w;
  do {
    w = stack.pop();
    onStack.delete(w);
    component.push(w);
  } while (w !== v);
  if (component.length > 1 || graph.get(v).includes(v)) cycles.push(component.sort());
};
for (const file of files) if (!index.has(file)) visit(file);

if (cycles.length > 0) {
  console.error(`${cycles.length} import cycle(s) (type imports included):`);
  for (const c of cycles) console.error(`  ${c.length} files: ${c.join(' ')}`);
  process.exit(1);
}
console.log(`import cycles: none in ${files.length} files`);
