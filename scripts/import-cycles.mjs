// Fails when the product code has an import cycle, type-only imports included: import-x/no-cycle
// skips `import type`, and the cycle through src/app.ts (issue 15) was made of type imports only.
// Run by `npm run lint` after ESLint. Prints each cycle's files.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOTS = ['src', 'handlers', 'db'];

const files = [];
const walk = (dir) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(p);
    else if (p.endsWith('.ts') && !p.endsWith('.test.ts')) files.push(p);
  }
};
ROOTS.forEach(walk);

const known = new Set(files);
const graph = new Map();
for (const file of files) {
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  const targets = importedFiles
    .map((i) => i.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => path.normalize(path.join(path.dirname(file), spec)).replace(/\.js$/, '.ts'))
    .filter((target) => known.has(target));
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
