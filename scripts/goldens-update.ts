// `npm run goldens:update`: re-renders the golden set and rewrites test/golden/goldens.json, and the
// canvas cases at larger sizes into test/golden/canvas-sizes.json (what the determinism tier compares
// emulated CPUs and arm64 with). Changing a generator's output means bumping its version (the golden
// ids carry it); changing encoder settings or a native build's bytes means bumping ENGINE_VERSION
// (src/engine/versions.ts). The compositor's goldens (test/golden/templates/template-goldens.ts) go
// to test/golden/template-goldens.json.
import { writeFile } from 'node:fs/promises';
import { canvasCases, goldenCases } from '../test/golden/golden-recipes.ts';
import { renderGoldens } from '../test/golden/render-golden.ts';
import { renderTemplateGoldens } from '../test/golden/templates/template-goldens.ts';

const goldens = goldenCases();
const [results, templates] = await Promise.all([renderGoldens([...goldens, ...canvasCases()]), renderTemplateGoldens()]);
const ids = new Set(goldens.map((c) => c.id));
const write = (name: string, entries: [string, unknown][]) =>
  writeFile(new URL(`../test/golden/${name}`, import.meta.url), JSON.stringify(Object.fromEntries(entries), null, 2) + '\n');
await write(
  'goldens.json',
  [...results].filter(([id]) => ids.has(id)),
);
await write(
  'canvas-sizes.json',
  [...results].filter(([id]) => !ids.has(id)).map(([id, r]) => [id, r.sha256]),
);
await write('template-goldens.json', [...templates]);
console.log(
  `wrote ${templates.size} template digests to test/golden/template-goldens.json, ${ids.size} goldens to test/golden/goldens.json and ${results.size - ids.size} canvas digests to test/golden/canvas-sizes.json`,
);
