// Renders golden cases and prints {id: sha256} as JSON on stdout. The determinism tier runs this
// under qemu-x86_64 with an older CPU model (FFmpeg through the same emulator), as linux-arm64 and
// with other Node versions, and compares with the committed digests: one process per platform.
//   node --import tsx test/determinism/render-digests.ts [--canvas-sizes=WxH[,WxH…]] [--no-goldens] [--superseded] [--seed=N] [--text-breaks] [--templates] [id ...]
// Without ids, every golden (goldens.json); with ids, those. --canvas-sizes adds the canvas cases at
// those sizes (test/golden/golden-recipes.ts, canvasCases: `<id>@WxH`, committed in canvas-sizes.json);
// --no-goldens leaves the goldens out. --seed renders with another seed (a wider check by hand). With
// --text-breaks the digests of text-breaks.ts (grapheme segmentation and line breaking) come too, as
// `text-breaks:<label>`. With --templates the compositor's goldens come too
// (test/golden/templates/template-goldens.ts, ids `template:…`, committed in template-goldens.json).
// --superseded adds the superseded generator versions' goldens (x86-64 only: docs/superseded-versions.md).
import { canvasCases, goldenCases, supersededGoldenCases } from '../golden/golden-recipes.ts';
import { renderGoldens, startGoldenEngine } from '../golden/render-golden.ts';

// No top-level await: the determinism tier runs this compiled (scripts/build-service.mjs, TEST_BUNDLE),
// and a render thread of the bundle (an engine without inThread) loads its module graph through require().
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const flag = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const sizes = (flag('canvas-sizes')?.split(',') ?? []).map((s) => {
    const m = /^(\d+)x(\d+)$/.exec(s);
    if (!m) throw new Error(`--canvas-sizes: WxH expected, got ${s}`);
    return { width: Number(m[1]), height: Number(m[2]) };
  });
  const seed = flag('seed');
  const wanted = args.filter((a) => !a.startsWith('--'));
  const cases = [
    ...(args.includes('--no-goldens') ? [] : goldenCases().filter((c) => wanted.length === 0 || wanted.includes(c.id))),
    ...(sizes.length ? canvasCases(sizes) : []),
    ...(args.includes('--superseded') ? supersededGoldenCases().filter((c) => wanted.length === 0 || wanted.includes(c.id)) : []),
  ].map((c) => (seed ? { ...c, input: { ...c.input, seed: Number(seed) } } : c));
  // One engine on this thread for every case: under emulation each thread's JavaScript compiles and
  // translates again (the goldens and template goldens on Haswell-v4: 55 s of CPU instead of 71).
  const engine = await startGoldenEngine({ inThread: true });
  let results: Awaited<ReturnType<typeof renderGoldens>>;
  let templates = new Map<string, string>();
  try {
    results = await renderGoldens(cases, engine);
    if (args.includes('--templates')) {
      const { renderTemplateGoldens } = await import('../golden/templates/template-goldens.ts');
      templates = await renderTemplateGoldens(undefined, undefined, engine);
    }
  } finally {
    await engine.close();
  }
  const breaks = args.includes('--text-breaks') ? await (await import('./text-breaks.ts')).textBreakDigests() : {};
  const digests = [...results]
    .map(([id, r]) => [id, r.sha256])
    .concat([...templates])
    .concat(Object.entries(breaks).map(([label, d]) => [`text-breaks:${label}`, d]));
  process.stdout.write(JSON.stringify(Object.fromEntries(digests)) + '\n');
}

void main();
