// `npm run goldens:update`: re-renders the golden set and rewrites test/golden/goldens.json.
// Changing a generator's output means bumping its version (the golden ids carry it); changing
// encoder settings or a native build's bytes means bumping ENGINE_VERSION (src/engine/versions.ts).
import { writeFile } from 'node:fs/promises';
import { renderGoldens } from '../test/golden/render-golden.ts';

const results = await renderGoldens();
const file = new URL('../test/golden/goldens.json', import.meta.url);
await writeFile(file, JSON.stringify(Object.fromEntries(results), null, 2) + '\n');
console.log(`wrote ${results.size} goldens to test/golden/goldens.json`);
