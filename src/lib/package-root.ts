// Where the package's files lie at run time. A module finds the files it reads (openapi.yaml,
// package.json, web/dist, the BudouX models) from the package root, never relative to its own
// `import.meta.url`: the same module runs from src/ (TypeScript through tsx) and bundled into dist/
// (the compiled JavaScript, scripts/build-service.mjs), where that URL is the bundle's.
// Packages are resolved with createRequire(import.meta.url), which finds node_modules from either.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'render-service';

/** The nearest directory at or above `dir` whose package.json is this package's. */
export function findPackageRoot(dir: string): string {
  for (let at = dir; ; at = path.dirname(at)) {
    try {
      if ((JSON.parse(readFileSync(path.join(at, 'package.json'), 'utf8')) as { name?: string }).name === PACKAGE_NAME) return at;
    } catch {
      // no package.json here (or not JSON): look further up
    }
    if (path.dirname(at) === at) throw new Error(`no package.json of ${PACKAGE_NAME} at or above ${dir}`);
  }
}

/** The package's root directory: where package.json, openapi.yaml, web/ and node_modules lie. */
export const PACKAGE_ROOT = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));

/** A path inside the package, e.g. packagePath('web', 'dist'). */
export function packagePath(...segments: string[]): string {
  return path.join(PACKAGE_ROOT, ...segments);
}
