// Renders golden cases and prints {id: sha256} as JSON on stdout. The determinism tier runs this
// under qemu-x86_64 with an older CPU model (FFmpeg through the same emulator) and compares.
//   node --import tsx test/determinism/render-digests.ts [--size=WxH] [--seed=N] [id ...]
import { goldenCases } from '../golden/golden-recipes.ts';
import { renderGoldens } from '../golden/render-golden.ts';

const args = process.argv.slice(2);
const size = /^--size=(\d+)x(\d+)$/.exec(args.find((a) => a.startsWith('--size=')) ?? '');
const seed = /^--seed=(\d+)$/.exec(args.find((a) => a.startsWith('--seed=')) ?? '');
const wanted = args.filter((a) => !a.startsWith('--'));
const cases = goldenCases()
  .filter((c) => wanted.length === 0 || wanted.includes(c.id))
  .map((c) => (size ? { ...c, input: { ...c.input, size: { width: Number(size[1]), height: Number(size[2]), pixelRatio: 1 } } } : c))
  .map((c) => (seed ? { ...c, input: { ...c.input, seed: Number(seed[1]) } } : c));
const results = await renderGoldens(cases);
process.stdout.write(JSON.stringify(Object.fromEntries([...results].map(([id, r]) => [id, r.sha256]))) + '\n');
