// The code blocks of the README and docs/, and what tests them. Every ```sh and ```ts block is one of:
//   - run (sh) or type-checked (ts) as written: the default, by test/integration/docs-snippets.test.ts
//     and test/unit/docs-snippets.test.ts;
//   - named, `<!-- snippet: <name> -->` just above it, and read by the test or script NAMED_SNIPPETS
//     lists (the recipe-URL snippet, the SDK snippets), so the page cannot drift from what is tested;
//   - `<!-- snippet: skip <reason> -->`: not runnable (it starts a server, needs hosted mode, …).
// Blocks in other languages are either inert (html, json, yaml, …: nothing to run) or must be marked.
// test/unit/docs-snippets.test.ts fails on a block that is none of these.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './black-box/server-process.ts';

/** Blocks read by name, and who reads them. Older markers (`<!-- openssl-example -->`) count as names. */
export const NAMED_SNIPPETS: Readonly<Record<string, { lang: string; testedBy: string }>> = {
  'recipe-url': { lang: 'ts', testedBy: 'test/integration/readme-snippet.test.ts' },
  'openapi-fetch': { lang: 'ts', testedBy: 'scripts/sdk-check.ts' },
  'hey-api': { lang: 'ts', testedBy: 'scripts/sdk-check.ts' },
  'orval-config': { lang: 'ts', testedBy: 'scripts/sdk-check.ts' },
  'orval-mutator': { lang: 'ts', testedBy: 'scripts/sdk-check.ts' },
  orval: { lang: 'ts', testedBy: 'scripts/sdk-check.ts' },
  'openssl-example': { lang: 'bash', testedBy: 'test/unit/sign-render-url.test.ts' },
  'nginx-example': { lang: 'nginx', testedBy: 'test/acceptance/embedding.test.ts (test/support/black-box/nginx-cache.ts)' },
};

/** Languages that are not code to run: shown, never executed. */
export const INERT_LANGUAGES: ReadonlySet<string> = new Set(['html', 'json', 'yaml', 'nginx', 'http', 'text', 'xml', 'css', 'diff']);

export type SnippetMarker = { kind: 'name'; name: string } | { kind: 'skip'; reason: string };

export interface DocBlock {
  /** Path from the repository root, e.g. `docs/embedding.md`. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  /** The block's text, its lines' indentation removed, with a final newline. */
  code: string;
  marker?: SnippetMarker;
}

/** README.md and every page under docs/, as paths from the root. */
export function docFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.md') ? [path.join(dir, e.name)] : [],
    );
  return ['README.md', ...walk('docs').sort()];
}

/** The fenced code blocks of one markdown text, with the marker on the nearest non-blank line above each. */
export function parseBlocks(file: string, text: string): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)(`{3,})([\w+-]*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang] = open as unknown as [string, string, string, string];
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !new RegExp(`^ *\`{${fence.length},}\\s*$`).test(lines[j]!)) body.push(lines[j++]!);
    let k = i - 1;
    while (k >= 0 && lines[k]!.trim() === '') k--;
    const above = k >= 0 ? lines[k]!.trim() : '';
    let marker: SnippetMarker | undefined;
    const named = /^<!-- snippet: (.*?) -->$/.exec(above) ?? /^<!-- ([\w-]+-example) -->$/.exec(above);
    if (named) {
      const value = named[1]!.trim();
      marker =
        value === 'skip' || value.startsWith('skip ') ? { kind: 'skip', reason: value.slice(4).trim() } : { kind: 'name', name: value };
    }
    const code = body.map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l.trimStart())).join('\n');
    blocks.push({ file, line: i + 1, lang, code: `${code}\n`, marker });
    i = j;
  }
  return blocks;
}

/** Every code block of the README and docs/. */
export function docBlocks(): DocBlock[] {
  return docFiles().flatMap((file) => parseBlocks(file, readFileSync(path.join(ROOT, file), 'utf8')));
}

/**
 * The named ```ts blocks (`<!-- snippet: name -->`), by name, wherever they are in the README and
 * docs/ — or in `text` alone when given.
 */
export function readmeSnippets(text?: string): Map<string, string> {
  const blocks = text === undefined ? docBlocks() : parseBlocks('(text)', text);
  const snippets = new Map<string, string>();
  for (const b of blocks) if (b.marker?.kind === 'name' && b.lang === 'ts') snippets.set(b.marker.name, b.code);
  return snippets;
}

/** Where a named snippet lives (for messages): `docs/clients.md:71`. */
export function snippetLocation(name: string): string | undefined {
  const b = docBlocks().find((x) => x.marker?.kind === 'name' && x.marker.name === name);
  return b && `${b.file}:${b.line}`;
}
