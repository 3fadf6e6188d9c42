// `npm run bench:template` — what a template costs against the generator it competes with, end to
// end and in one run: POST /v1/generate of a 1200×630 png on the in-process service (local mode,
// render workers, an empty cache: every request is a miss), taking turns:
//   social-card   the built-in link-preview card: a diagonal gradient with ornaments and a title;
//   background    the template's background generator alone, as a plain render;
//   template      that background as a generator layer, a logo (a 256×256 PNG asset shown at
//                 96 px, corners rounded) and a title fitted to its box (96 → 40 px, ≤ 3 lines).
// Each request has its own title and seed, so nothing is answered from a cache and the text is set
// anew. Target (issue 42): the template's p50 ≤ 1.3× social-card's. template ÷ background is what
// the compositor adds to the generator it draws.
//   --background linear-gradient        the background generator (default: a gradient, as social-card's)
//   --background-params '{"grain":0}'   its params (default: no grain, as social-card's gradient; grain
//                                       is noise, which makes every png several times slower to encode)
//   --requests 40                       requests of each kind (default 40), after 4 of each to warm up
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { logoRgba } from '../../test/golden/templates/template-fixtures.ts';
import { startInProcessService } from './in-process-service.ts';
import { BENCH_KEY } from './service-process.ts';

const { values } = parseArgs({
  options: {
    background: { type: 'string', default: 'linear-gradient' },
    'background-params': { type: 'string', default: '{"grain":0}' },
    requests: { type: 'string', default: '40' },
  },
});
const requests = Number(values.requests);
const backgroundParams = JSON.parse(values['background-params']) as Record<string, unknown>;
const auth = { authorization: `Bearer ${BENCH_KEY}` };
const service = await startInProcessService();

async function call(method: string, path: string, body: BodyInit, type: string) {
  const res = await fetch(service.base + path, { method, headers: { ...auth, 'content-type': type }, body });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res;
}

try {
  const logoPng = await sharp(Buffer.from(logoRgba()), { raw: { width: 256, height: 256, channels: 4 } })
    .png()
    .toBuffer();
  const logo = (await (await call('POST', '/v1/assets', logoPng, 'image/png')).json()) as { id: string };
  const template = (await (
    await call(
      'POST',
      '/v1/templates',
      JSON.stringify({
        name: 'bench card',
        size: { width: 1200, height: 630 },
        variables: {
          type: 'object',
          required: ['title'],
          properties: { title: { type: 'string' }, seed: { type: 'integer', default: 1 } },
        },
        layers: [
          { id: 'background', kind: 'generator', slug: values.background, params: backgroundParams, seed: '{{seed}}' },
          { id: 'logo', kind: 'image', asset: logo.id, box: { x: 72, y: 64, width: 96, height: 96 }, radius: 20 },
          {
            id: 'title',
            kind: 'text',
            text: '{{title}}',
            box: { x: 72, y: 200, width: 1056, height: 300 },
            font: { weight: 700 },
            color: '#ffffff',
            fit: { max: 96, min: 40, maxLines: 3 },
          },
        ],
      }),
      'application/json',
    )
  ).json()) as { id: string };

  const title = (i: number) => `Deterministic og:images, number ${i}: the same bytes on every machine`;
  const kinds = {
    'social-card': (i: number) => ({ slug: 'social-card', body: { params: { title: title(i) }, seed: i } }),
    background: (i: number) => ({ slug: values.background, body: { params: backgroundParams, seed: i } }),
    template: (i: number) => ({ slug: template.id, body: { params: { title: title(i), seed: i } } }),
  };
  const times: Record<keyof typeof kinds, number[]> = { 'social-card': [], background: [], template: [] };
  for (let i = 0; i < requests + 4; i++)
    for (const [kind, recipe] of Object.entries(kinds) as [keyof typeof kinds, (i: number) => { slug: string; body: object }][]) {
      const { slug, body } = recipe(i);
      const t = performance.now();
      const res = await call(
        'POST',
        `/v1/generate/${slug}`,
        JSON.stringify({ ...body, size: { width: 1200, height: 630 }, format: 'png' }),
        'application/json',
      );
      await res.arrayBuffer();
      if (res.headers.get('x-service-cache') !== 'MISS')
        throw new Error(`${kind} ${i}: expected a miss, got ${res.headers.get('x-service-cache')}`);
      if (i >= 4) times[kind].push(performance.now() - t);
    }
  const p50 = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)];
  const card = p50(times['social-card']);
  const alone = p50(times.background);
  const tpl = p50(times.template);
  const bg = `${values.background} ${values['background-params']}`;
  console.log(`1200×630 png, ${requests} misses of each, POST /v1/generate end to end`);
  console.log(`  social-card                  p50 ${card.toFixed(1)} ms`);
  console.log(`  background alone             p50 ${alone.toFixed(1)} ms   (${bg})`);
  console.log(`  template                     p50 ${tpl.toFixed(1)} ms   (the background + a logo + a fitted title)`);
  console.log(`  template ÷ social-card       ${(tpl / card).toFixed(2)}   (target ≤ 1.3)`);
  console.log(`  template ÷ background alone  ${(tpl / alone).toFixed(2)}   (what the compositor adds)`);
} finally {
  await service.close();
}
