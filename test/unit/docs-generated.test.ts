// The generated parts of the documentation are what `npm run docs` would write now: the generator
// catalogue and its pictures, the starter templates' pictures and variables, the settings tables and
// the problem codes. The pictures are judged
// without rendering, by the recipe hash and engine version each file carries (a generator whose
// output changes bumps its version, which the golden suite enforces); `npm run docs:check` renders
// them again and compares bytes.
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { checkDocs, ROOT } from '../../scripts/docs.ts';
import { tiles, STRIP_FILE } from '../../scripts/docs/catalogue.ts';
import { configParserSource, settingsMarkdown } from '../../scripts/docs/settings.ts';
import { STARTERS, STARTER_IMAGE_DIR } from '../../scripts/docs/starters.ts';

test('docs/: every generated table and picture is up to date (npm run docs -- --check --no-render)', async () => {
  const problems = await checkDocs({ render: false });
  assert.deepEqual(problems, [], `run \`npm run docs\`:\n  ${problems.join('\n  ')}`);
});

test('the settings table describes exactly the settings src/config reads', () => {
  // settingsMarkdown throws naming a setting read but not described, or described but not read.
  assert.doesNotThrow(() => settingsMarkdown(configParserSource(ROOT)));
  assert.throws(
    () => settingsMarkdown(`${configParserSource(ROOT)}\nconst x = int('NEW_SETTING', 1, 0, 9);`),
    /NEW_SETTING is read by src\/config but not described/,
  );
});

test('the pictures stay small: under 1.5 MB in all', () => {
  const files = [...tiles().map((t) => t.file), STRIP_FILE];
  const total = files.reduce((sum, f) => sum + statSync(path.join(ROOT, 'docs', f)).size, 0);
  assert.ok(total < 1.5 * 1024 * 1024, `docs/generators/ holds ${total} bytes`);
});

test("the starters' pictures stay small: under 1 MB in all, the animated gif under 400 KB", () => {
  const files = STARTERS.flatMap((s) => s.samples.map((p) => `${STARTER_IMAGE_DIR}/${p.file}`));
  const sizes = new Map(files.map((f) => [f, statSync(path.join(ROOT, 'docs', f)).size]));
  const total = [...sizes.values()].reduce((sum, n) => sum + n, 0);
  assert.ok(total < 1024 * 1024, `docs/${STARTER_IMAGE_DIR}/ holds ${total} bytes`);
  for (const [f, n] of sizes) if (f.endsWith('.gif')) assert.ok(n < 400 * 1024, `docs/${f} is ${n} bytes`);
});
