// Child process of test/integration/text-fonts.test.ts: renders social-card with every text sample
// of test/golden/golden-recipes.text.ts and prints, as JSON, the sha256 of each PNG, plus "control"
// renders that ask Skia for the machine's fonts on purpose (sans-serif, the real family names of
// the bundled fonts, and an emoji sequence), which must change when the machine's fonts change — proof that the test's
// FONTCONFIG_FILE (or mount namespace) does change the fonts Skia can see.
import { createHash } from 'node:crypto';
import { createCanvas } from '@napi-rs/canvas';
import socialCard from '../../src/generators/social-card/social-card.generator.ts';
import { mulberry32 } from '../../src/generators/lib/random.ts';
import { TEXT_SAMPLES } from '../golden/golden-recipes.text.ts';

// No top-level await: it runs compiled (dist-test/, scripts/build-service.mjs TEST_BUNDLE), as the
// determinism tier's scripts do.
async function main(): Promise<void> {
  await socialCard.prepare?.();
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  const W = 600;
  const H = 315;
  const samples: Record<string, string> = {};
  for (const s of TEXT_SAMPLES) {
    const canvas = createCanvas(W, H);
    const params = {
      ...socialCard.defaults,
      title: s.title,
      subtitle: s.subtitle,
      ...(s.label !== undefined ? { label: s.label } : {}),
      ...s.params,
    } as typeof socialCard.defaults;
    socialCard.draw(canvas.getContext('2d'), {
      params,
      seed: 42,
      width: W,
      height: H,
      pixelRatio: 1,
      random: mulberry32(42),
      frame: 0,
      frameCount: 1,
      time: 0,
      loop: 0,
    });
    samples[s.script] = sha(canvas.toBuffer('image/png'));
  }

  const controls: Record<string, string> = {};
  for (const family of ['sans-serif', '"Noto Sans Arabic"', '"Space Grotesk"']) {
    const canvas = createCanvas(400, 60);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, 400, 60);
    ctx.fillStyle = '#000000';
    ctx.font = `32px ${family}`;
    ctx.fillText('Agx Ωж مرحبا', 8, 40);
    controls[family] = sha(canvas.toBuffer('image/png'));
  }
  // Skia asked for an emoji presentation sequence falls back to the machine's colour emoji font.
  {
    const canvas = createCanvas(200, 60);
    const ctx = canvas.getContext('2d');
    ctx.font = '40px sans-serif';
    ctx.fillText('I ❤️ it', 8, 44);
    controls.emoji = sha(canvas.toBuffer('image/png'));
  }
  process.stdout.write(JSON.stringify({ samples, controls }));
}

void main();
