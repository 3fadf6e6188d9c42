// npm run docs — writes everything in the documentation that is generated from the code:
//   docs/generators.md          the catalogue (src/generators: descriptions, formats, versions, param schemas)
//   docs/generators/*.webp      each generator at seeds 1–3, rendered by the service's own engine, and
//                               strip.webp (the README's picture) composed from them
//   docs/modes-and-settings.md  the settings tables (src/config + scripts/docs/settings.ts)
//   docs/errors.md              the problem codes (src/errors/error-registry.ts + openapi.yaml)
//   docs/accounts-keys-credits-billing.md
//                               the API key scopes and their operations (src/services/key-scopes.ts + openapi.yaml)
//   docs/templates/starters/    the starter templates (starters/*.json) rendered with their sample assets,
//                               and their variables' tables in docs/templates.md (scripts/docs/starters.ts)
// A page's generated part sits between `<!-- generated:start <name> -->` and `<!-- generated:end -->`;
// the text around it is written by hand and kept.
//
//   npm run docs                       write them all (run it after changing a generator, a setting or a code)
//   npm run docs -- --check            exit 1 naming every file that would change (renders every picture again)
//   npm run docs -- --check --no-render
//                                      the same without rendering: a picture is judged by the recipe hash
//                                      and engine version it carries (what test/unit/docs-generated.test.ts runs)
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IMAGE_DIR, STRIP_FILE, catalogueMarkdown, composeStrip, renderTiles, staleTile, tiles } from './docs/catalogue.ts';
import { problemsMarkdown } from './docs/problems.ts';
import { scopesMarkdown } from './docs/scopes.ts';
import { configParserSource, settingsMarkdown } from './docs/settings.ts';
import {
  STARTERS,
  STARTER_IMAGE_DIR,
  renderStarterPictures,
  staleStarterPicture,
  starterPictures,
  starterVariablesMarkdown,
} from './docs/starters.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOCS = path.join(ROOT, 'docs');

/** The generated regions: page (under docs/), region name, its content. */
function regions(): Array<{ page: string; name: string; content: () => string }> {
  return [
    { page: 'generators.md', name: 'catalogue', content: () => catalogueMarkdown() },
    {
      page: 'modes-and-settings.md',
      name: 'settings',
      content: () => settingsMarkdown(configParserSource(ROOT)),
    },
    { page: 'errors.md', name: 'problem-codes', content: problemsMarkdown },
    { page: 'accounts-keys-credits-billing.md', name: 'key-scopes', content: scopesMarkdown },
    ...STARTERS.map(({ name }) => ({
      page: 'templates.md',
      name: `starter-variables ${name}`,
      content: () => starterVariablesMarkdown(name),
    })),
  ];
}

/** The page with its region `name` replaced by `content`; throws when the markers are missing. */
export function replaceRegion(page: string, text: string, name: string, content: string): string {
  const start = `<!-- generated:start ${name} -->`;
  const end = '<!-- generated:end -->';
  const from = text.indexOf(start);
  const to = from < 0 ? -1 : text.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`docs/${page} has no "${start}" … "${end}" region`);
  return `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`;
}

/** Every generated markdown page as it should be now, by path under docs/. */
export function generatedPages(): Map<string, string> {
  const pages = new Map<string, string>();
  for (const r of regions()) {
    const text = pages.get(r.page) ?? readFileSync(path.join(DOCS, r.page), 'utf8');
    pages.set(r.page, replaceRegion(r.page, text, r.name, r.content()));
  }
  return pages;
}

const read = (file: string): Buffer | undefined => (existsSync(path.join(DOCS, file)) ? readFileSync(path.join(DOCS, file)) : undefined);

/** Files under docs/<imageDir>/ that nothing generated accounts for (a generator's tiles and the strip; the starters' pictures). */
function strayImages(imageDir: string, expected: Set<string>): string[] {
  const dir = path.join(DOCS, imageDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((f) => `${imageDir}/${f}`)
    .filter((f) => !expected.has(f));
}

/**
 * What differs between docs/ and what `npm run docs` would write, one line per file (empty: nothing).
 * With `render: false` the pictures are not rendered again: each is judged by the recipe it carries.
 */
export async function checkDocs({ render }: { render: boolean }): Promise<string[]> {
  const problems: string[] = [];
  for (const [page, text] of generatedPages())
    if (read(page)?.toString('utf8') !== text) problems.push(`docs/${page}: its generated part is out of date`);
  const list = tiles();
  const expected = new Set([...list.map((t) => t.file), STRIP_FILE]);
  const starters = await starterPictures();
  if (render) {
    const rendered = await renderTiles(list);
    for (const [file, bytes] of rendered) if (!read(file)?.equals(bytes)) problems.push(`docs/${file}: the engine renders other bytes now`);
    const strip = await composeStrip((f) => rendered.get(f));
    if (!read(STRIP_FILE)?.equals(strip)) problems.push(`docs/${STRIP_FILE}: out of date`);
    for (const [file, bytes] of await renderStarterPictures(starters))
      if (!read(file)?.equals(bytes)) problems.push(`docs/${file}: the engine renders other bytes now`);
  } else {
    for (const t of list) {
      const why = staleTile(t, read(t.file));
      if (why) problems.push(`docs/${t.file}: ${why}`);
    }
    if (problems.every((p) => !p.includes(`/${IMAGE_DIR}/`))) {
      const strip = await composeStrip(read);
      if (!read(STRIP_FILE)?.equals(strip)) problems.push(`docs/${STRIP_FILE}: not composed from the pictures beside it`);
    }
    for (const p of starters) {
      const why = staleStarterPicture(p, read(p.file));
      if (why) problems.push(`docs/${p.file}: ${why}`);
    }
  }
  for (const f of strayImages(IMAGE_DIR, expected)) problems.push(`docs/${f}: no generator has this picture any more`);
  for (const f of strayImages(STARTER_IMAGE_DIR, new Set(starters.map((p) => p.file))))
    problems.push(`docs/${f}: no starter has this picture any more`);
  return problems;
}

/** Writes every generated file; returns the paths (under docs/) that changed. */
export async function writeDocs(): Promise<string[]> {
  const changed: string[] = [];
  const put = (file: string, bytes: Buffer) => {
    if (read(file)?.equals(bytes)) return;
    mkdirSync(path.dirname(path.join(DOCS, file)), { recursive: true });
    writeFileSync(path.join(DOCS, file), bytes);
    changed.push(file);
  };
  const list = tiles();
  const rendered = await renderTiles(list);
  for (const [file, bytes] of rendered) put(file, bytes);
  put(STRIP_FILE, await composeStrip((f) => rendered.get(f)));
  const starters = await starterPictures();
  for (const [file, bytes] of await renderStarterPictures(starters)) put(file, bytes);
  for (const [page, text] of generatedPages()) put(page, Buffer.from(text, 'utf8'));
  const stray = [
    ...strayImages(IMAGE_DIR, new Set([...list.map((t) => t.file), STRIP_FILE])),
    ...strayImages(STARTER_IMAGE_DIR, new Set(starters.map((p) => p.file))),
  ];
  for (const f of stray) {
    rmSync(path.join(DOCS, f));
    changed.push(`${f} (removed)`);
  }
  return changed;
}

async function main(): Promise<number> {
  const started = Date.now();
  if (process.argv.includes('--check')) {
    const render = !process.argv.includes('--no-render');
    const problems = await checkDocs({ render });
    if (problems.length === 0) {
      console.log(
        `docs: up to date (${render ? 'pictures rendered again' : 'pictures judged by their recipes'}; ${((Date.now() - started) / 1000).toFixed(1)} s)`,
      );
      return 0;
    }
    console.error(`docs: ${problems.length} generated file(s) out of date — run \`npm run docs\`:\n  ${problems.join('\n  ')}`);
    return 1;
  }
  const changed = await writeDocs();
  console.log(
    changed.length ? `docs: wrote ${changed.length} file(s) under docs/:\n  ${changed.join('\n  ')}` : 'docs: nothing changed',
    `(${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main();
