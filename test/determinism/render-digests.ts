// Renders golden cases and prints {id: sha256} as JSON on stdout. The determinism tier runs this
// under qemu-x86_64 with an older CPU model (FFmpeg through the same emulator), as linux-arm64 and
// with other Node versions, and compares.
//   node --import tsx test/determinism/render-digests.ts [--size=WxH[,WxH…]] [--seed=N] [--text-breaks] [id ...]
// With more than one size every id is reported once per size, as `id@WxH`. With --text-breaks the
// digests of text-breaks.ts (grapheme segmentation and line breaking) come too, as `text-breaks:<label>`.
import { goldenCases } from '../golden/golden-recipes.ts';
import { renderGoldens } from '../golden/render-golden.ts';

const args = process.argv.slice(2);
const sizes = (
  args
    .find((a) => a.startsWith('--size='))
    ?.slice(7)
    .split(',') ?? []
).map((s) => {
  const m = /^(\d+)x(\d+)$/.exec(s);
  if (!m) throw new Error(`--size: WxH expected, got ${s}`);
  return { width: Number(m[1]), height: Number(m[2]), pixelRatio: 1 };
});
const seed = /^--seed=(\d+)$/.exec(args.find((a) => a.startsWith('--seed=')) ?? '');
const wanted = args.filter((a) => !a.startsWith('--'));
const cases = goldenCases()
  .filter((c) => wanted.length === 0 || wanted.includes(c.id))
  .flatMap((c) =>
    sizes.length === 0
      ? [c]
      : sizes.map((size) => ({ ...c, id: sizes.length > 1 ? `${c.id}@${size.width}x${size.height}` : c.id, input: { ...c.input, size } })),
  )
  .map((c) => (seed ? { ...c, input: { ...c.input, seed: Number(seed[1]) } } : c));
const results = await renderGoldens(cases);
const breaks = args.includes('--text-breaks') ? await (await import('./text-breaks.ts')).textBreakDigests() : {};
const digests = [...results]
  .map(([id, r]) => [id, r.sha256])
  .concat(Object.entries(breaks).map(([label, d]) => [`text-breaks:${label}`, d]));
process.stdout.write(JSON.stringify(Object.fromEntries(digests)) + '\n');
