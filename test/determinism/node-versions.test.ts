// The product's promise across runtimes: every text golden renders to its committed bytes on the
// official Node 22 and 24 builds (scripts/node-versions, pinned there) as on the machine's Node — so do
// the compositor's goldens (template-goldens.json: text in every layer of a template) — and
// the project's grapheme segmentation and line breaking (text-breaks.ts) give the same results on
// each. A Node build brings its own ICU and Unicode tables, which Intl.Segmenter, RegExp's \p{…} and
// normalize follow, so text that leans on them could cluster or break elsewhere on another runtime.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { testBundle } from '../support/render-digests-bundle.ts';
import { goldenCases } from '../golden/golden-recipes.ts';
import { NODE_VERSIONS, nodeVersionsMissing, prepareNodeVersions } from '../../scripts/node-versions/prepare.mjs';
import { textBreakDigests } from './text-breaks.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const committed = JSON.parse(readFileSync(path.join(root, 'test/golden/goldens.json'), 'utf8')) as Record<string, { sha256: string }>;
const committedTemplates = JSON.parse(readFileSync(path.join(root, 'test/golden/template-goldens.json'), 'utf8')) as Record<string, string>;
/** A backstop: each runtime renders the text goldens in 8–15 s (the builds are fetched before, at load). */
const RUN_TIMEOUT_MS = 600_000;
const TEXT_CASES = goldenCases()
  .filter((c) => c.id.includes('.text-'))
  .map((c) => c.id);
const BREAKS = 'text-breaks:';
const TEMPLATE = 'template:';

let nodes: Record<string, string> = {};
let missing = nodeVersionsMissing();
if (!missing) {
  try {
    nodes = prepareNodeVersions().nodes;
  } catch (err) {
    missing = `the pinned Node builds could not be fetched from npm: ${(err as Error).message}`;
  }
}
const hint = `${missing}; the Node-versions tier renders the text goldens with Node ${NODE_VERSIONS.join(' and ')}`;
if (missing && process.env.CI === 'true') {
  test(`Node ${NODE_VERSIONS.join(' and ')} are available`, () => assert.fail(hint));
}
const skip = missing ? (process.env.CI === 'true' ? hint : `${hint}; skipped outside CI`) : false;

interface Digests {
  /** Text golden id → sha256. */
  goldens: Record<string, string>;
  /** text-breaks.ts label → digest of its segmentation and line breaks. */
  breaks: Record<string, string>;
  /** The compositor's goldens (template-goldens.json ids) → sha256. */
  templates: Record<string, string>;
  ms: number;
}

/**
 * One process of `node` renders the text goldens and the compositor's goldens, and digests the text
 * breaks (render-digests.ts --text-breaks --templates).
 */
async function digestsWith(node: string): Promise<Digests> {
  const started = Date.now();
  const { stdout } = await promisify(execFile)(
    node,
    [path.join(root, await testBundle('render-digests')), '--text-breaks', '--templates', ...TEXT_CASES],
    { cwd: root, timeout: RUN_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
  ).catch((err: Error & { stderr?: string }) => {
    throw new Error(`${node} render-digests.ts failed: ${err.message}\n${(err.stderr ?? '').slice(-4000)}`);
  });
  const all = JSON.parse(stdout) as Record<string, string>;
  const pick = (breaks: boolean) =>
    Object.fromEntries(
      Object.entries(all)
        .filter(([k]) => k.startsWith(BREAKS) === breaks && !k.startsWith(TEMPLATE))
        .map(([k, v]) => [breaks ? k.slice(BREAKS.length) : k, v]),
    );
  const templates = Object.fromEntries(Object.entries(all).filter(([k]) => k.startsWith(TEMPLATE)));
  return { goldens: pick(false), breaks: pick(true), templates, ms: Date.now() - started };
}

// The pinned runtimes render side by side; each test awaits the run it compares. The machine's Node
// renders the text goldens in the unit tier already (test/unit/goldens.test.ts); it renders them
// here again only to explain a difference, when there is one.
const runs = new Map<string, Promise<Digests>>();
before(() => {
  if (skip) return;
  for (const node of Object.values(nodes)) {
    const run = digestsWith(node);
    run.catch(() => undefined); // a failure is reported by the test that awaits it
    runs.set(node, run);
  }
});
let machineRun: Promise<Digests> | undefined;
const machineDigests = () => (machineRun ??= digestsWith(process.execPath));
const machineNode = `this machine's Node ${process.version}`;

for (const version of NODE_VERSIONS) {
  test(`every text golden renders to its committed bytes on Node ${version}`, { skip, timeout: RUN_TIMEOUT_MS }, async (t) => {
    assert.ok(TEXT_CASES.length > 0, 'goldenCases() has text cases (ids with ".text-")');
    const got = await runs.get(nodes[version])!;
    t.diagnostic(`Node ${version}: ${TEXT_CASES.length} text goldens and the text breaks in ${(got.ms / 1000).toFixed(1)} s`);
    assert.deepEqual(Object.keys(got.goldens).sort(), [...TEXT_CASES].sort());
    const differ = TEXT_CASES.filter((id) => got.goldens[id] !== committed[id]?.sha256);
    if (differ.length === 0) return;
    const machine = await machineDigests();
    const why = (id: string) =>
      got.goldens[id] === machine.goldens[id]
        ? `the same bytes as on ${machineNode}: not the runtime`
        : machine.goldens[id] === committed[id]?.sha256
          ? `${machineNode} gives goldens.json's bytes: the runtime changes them`
          : `${machineNode} gives other bytes again`;
    assert.deepEqual(
      differ.map((id) => `${id} (${why(id)})`),
      [],
      `these text goldens differ from goldens.json on Node ${version}`,
    );
  });

  test(`the template goldens render to their committed bytes on Node ${version}`, { skip, timeout: RUN_TIMEOUT_MS }, async () => {
    const got = await runs.get(nodes[version])!;
    assert.deepEqual(Object.keys(got.templates).sort(), Object.keys(committedTemplates).sort());
    const differ = Object.keys(committedTemplates).filter((id) => got.templates[id] !== committedTemplates[id]);
    assert.deepEqual(differ, [], `these template goldens differ from template-goldens.json on Node ${version}`);
  });

  test(
    `grapheme segmentation and line breaking on Node ${version} are those of the machine's Node`,
    { skip, timeout: RUN_TIMEOUT_MS },
    async () => {
      const expected = await textBreakDigests();
      const { breaks } = await runs.get(nodes[version])!;
      assert.deepEqual(Object.keys(breaks).sort(), Object.keys(expected).sort());
      const differ = Object.keys(expected).filter((label) => breaks[label] !== expected[label]);
      assert.deepEqual(
        differ,
        [],
        `these strings of text-breaks.ts segment or break differently on Node ${version} than on ${machineNode} ` +
          '(node --import tsx test/determinism/text-breaks.ts with each prints the results)',
      );
    },
  );
}
