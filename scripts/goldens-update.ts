// `npm run goldens:update`: renders every golden case and ADDS the new ones to test/golden/goldens.json
// (every released version × format, current and superseded) and writes test/golden/canvas-sizes.json
// (the current versions' canvas cases at larger sizes, which the determinism tier compares emulated CPUs
// and arm64 with).
// A committed entry is never rewritten: its id names a released version, whose bytes are fixed
// (docs/versioning.md). A case that renders other bytes than its entry fails the update: change a
// generator's output by releasing a new version (and freezing the old one in src/generators/releases),
// an encoder's by a new engine profile (src/engine/engine-profiles.ts). The compositor's goldens
// (test/golden/templates/template-goldens.ts) are rewritten into test/golden/template-goldens.json.
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { canvasCases, goldenCases, supersededGoldenCases } from '../test/golden/golden-recipes.ts';
import { renderGoldens } from '../test/golden/render-golden.ts';
import { renderTemplateGoldens } from '../test/golden/templates/template-goldens.ts';

type Golden = { recipeHash: string; sha256: string; bytes: number };
const file = (name: string) => new URL(`../test/golden/${name}`, import.meta.url);
const read = <T>(name: string): Record<string, T> => JSON.parse(readFileSync(file(name), 'utf8')) as Record<string, T>;

const goldens = [...goldenCases(), ...supersededGoldenCases()];
const [results, templates] = await Promise.all([renderGoldens([...goldens, ...canvasCases()]), renderTemplateGoldens()]);
const ids = new Set(goldens.map((c) => c.id));
const committed = read<Golden>('goldens.json');
const committedCanvas = read<string>('canvas-sizes.json');

const changed: string[] = [];
/** `fresh` added to `old`; `keepOld`: entries no case renders any more stay (a released version's never go). */
const merge = <T>(old: Record<string, T>, fresh: [string, T][], digest: (v: T) => string, keepOld: boolean) => {
  const out: Record<string, T> = keepOld ? { ...old } : {};
  for (const [id, value] of fresh) {
    if (id in old && digest(old[id]) !== digest(value)) changed.push(id);
    else out[id] = value;
  }
  return Object.entries(out).sort(([a], [b]) => a.localeCompare(b));
};
const nextGoldens = merge(
  committed,
  [...results].filter(([id]) => ids.has(id)),
  (g) => g.sha256 + g.recipeHash,
  true,
);
const nextCanvas = merge(
  committedCanvas,
  [...results].filter(([id]) => !ids.has(id)).map(([id, r]): [string, string] => [id, r.sha256]),
  (d) => d,
  false, // the current versions' larger sizes only: what the determinism tier compares platforms with
);
if (changed.length > 0) {
  console.error(
    `These released versions render other bytes than they were released with:\n  ${changed.join('\n  ')}\n` +
      'Nothing was written. Release a new generator version (freezing the old one) or a new engine profile: docs/versioning.md.',
  );
  process.exit(1);
}
const write = (name: string, entries: [string, unknown][]) =>
  writeFile(file(name), JSON.stringify(Object.fromEntries(entries), null, 2) + '\n');
await write('goldens.json', nextGoldens);
await write('canvas-sizes.json', nextCanvas);
await write('template-goldens.json', [...templates]);
console.log(
  `wrote ${templates.size} template digests to test/golden/template-goldens.json; goldens.json holds ${nextGoldens.length} goldens and canvas-sizes.json ${nextCanvas.length} canvas digests`,
);
