// The README's code examples that tests run as written (the recipe-URL snippet, the SDK snippets):
// each ```ts block follows a `<!-- snippet: name -->` marker, so a test finds it by name and the
// README cannot drift from what is tested.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './black-box/server-process.ts';

/** The README's marked ```ts blocks, by marker name. */
export function readmeSnippets(readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8')): Map<string, string> {
  const snippets = new Map<string, string>();
  for (const m of readme.matchAll(/<!-- snippet: ([\w-]+) -->\s*```ts\n([\s\S]*?)```/g)) snippets.set(m[1]!, m[2]!);
  return snippets;
}
