// The compositor's goldens: the fixture template (every layer kind) and an animated one, rendered
// in this process by the template's own generator (templateGenerator) and the still encoder, as
// the render worker draws a generator; and templates as files with uploaded formats (files/: a
// JPEG turned by its EXIF orientation, a WebP with alpha) rendered as the CLI renders them — the
// upload's normalization, the render engine's workers and FFmpeg for gif and mp4. Their digests
// are committed in test/golden/template-goldens.json
// (`npm run goldens:update`). The unit tier renders them natively (test/unit/goldens.test.ts), the
// determinism tier under emulated CPUs and as arm64 (render-digests.ts --templates).
import { createHash } from 'node:crypto';
import { encodeStill } from '../../../src/engine/encoders.ts';
import { packagePath } from '../../../src/lib/package-root.ts';
import { ALL_GENERATORS } from '../../../src/generators/index.ts';
import { mulberry32 } from '../../../src/generators/lib/random.ts';
import { GeneratorRegistry } from '../../../src/generators/registry.ts';
import type { OutputFormat } from '../../../src/lib/formats.ts';
import { readTemplateFiles, resolveTemplateFiles } from '../../../src/services/template-files.ts';
import { withGoldenEngine } from '../render-golden.ts';
import type { RenderEngine } from '../../../src/services/render-engine.factory.ts';
import { templateGenerator } from '../../../src/templates/compose-template.ts';
import type { TemplateSpec } from '../../../src/templates/template.types.ts';
import { BLOG_SPEC, fixtureAssets, LOGO_ID } from './template-fixtures.ts';

export interface TemplateGoldenCase {
  id: string;
  spec: TemplateSpec;
  width: number;
  pixelRatio: number;
  params?: Record<string, unknown>;
  seed: number;
  /** A png of frame 0, or the sha256 of these frames' raw RGBA one after another. */
  output: 'png' | { frames: number[] };
}

/** An animated template: plasma under a title, a logo and a translucent band. */
export const ANIMATED_SPEC: TemplateSpec = {
  size: { width: 640, height: 360 },
  variables: { type: 'object', properties: { title: { type: 'string', default: 'Moving pictures' } } },
  layers: [
    { id: 'bg', kind: 'generator', slug: 'plasma', params: { duration: 1, fps: 10 } },
    { id: 'band', kind: 'fill', color: '#00000080', box: { x: 0, y: 220, width: 640, height: 100 } },
    { id: 'logo', kind: 'image', asset: LOGO_ID, box: { x: 24, y: 236, width: 68, height: 68 }, fit: 'contain', opacity: 0.9 },
    {
      id: 'title',
      kind: 'text',
      text: '{{title}} 🚀',
      box: { x: 110, y: 236, width: 500, height: 68 },
      valign: 'middle',
      color: '#ffffff',
      font: { family: 'Noto Sans', weight: 600 },
      fit: { max: 48, min: 24, maxLines: 1 },
    },
  ],
};

export function templateGoldenCases(): TemplateGoldenCase[] {
  return [
    { id: 'template:blog@1200x630.png', spec: BLOG_SPEC, width: 1200, pixelRatio: 1, seed: 42, output: 'png' },
    { id: 'template:blog@240x126.png', spec: BLOG_SPEC, width: 240, pixelRatio: 1, seed: 42, output: 'png' },
    { id: 'template:blog@300x157.5x2.png', spec: BLOG_SPEC, width: 300, pixelRatio: 2, seed: 42, output: 'png' },
    {
      // Fallback from the uploaded font (Latin only) to the bundled stack; a title cut with an ellipsis.
      id: 'template:blog-scripts@600x315.png',
      spec: BLOG_SPEC,
      width: 600,
      pixelRatio: 1,
      seed: 42,
      params: {
        title: 'Детерминированный рендеринг: 決定論的なレンダリング, นี่คือการทดสอบ, مرحبا بالعالم — and a long tail that does not fit',
        author: 'Ada Λ. Lovelace 李',
        tag: 'ข่าว',
      },
      output: 'png',
    },
    {
      id: 'template:animated@320x180.frames-0-3-7',
      spec: ANIMATED_SPEC,
      width: 320,
      pixelRatio: 1,
      seed: 42,
      output: { frames: [0, 3, 7] },
    },
  ];
}

/** A template file of files/ with the images beside it, rendered as the CLI renders it. */
export interface TemplateFileGoldenCase {
  id: string;
  template: string;
  width: number;
  format: OutputFormat;
}

export function templateFileGoldenCases(): TemplateFileGoldenCase[] {
  return [
    { id: 'template:files-card@600x315.png', template: 'card.json', width: 600, format: 'png' },
    { id: 'template:files-moving@320x180.gif', template: 'moving.json', width: 320, format: 'gif' },
    { id: 'template:files-moving@160x90.mp4', template: 'moving.json', width: 160, format: 'mp4' },
  ];
}

/** Every id of template-goldens.json. */
export const templateGoldenIds = () => [...templateGoldenCases(), ...templateFileGoldenCases()].map((c) => c.id);

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function renderTemplateFileGoldens(
  cases: TemplateFileGoldenCase[],
  generators: GeneratorRegistry,
  shared: RenderEngine | undefined,
): Promise<Map<string, string>> {
  const dir = `${packagePath('test', 'golden', 'templates', 'files')}/`;
  const paths = { params: 'params', seed: 'seed', size: 'size', format: 'format', quality: 'quality' };
  return withGoldenEngine(shared, async (engine) => {
    const out = new Map<string, string>();
    for (const c of cases) {
      const files = await readTemplateFiles(dir + c.template, dir);
      const height = Math.round((c.width * files.spec.size.height) / files.spec.size.width);
      const resolved = await resolveTemplateFiles(
        files,
        generators,
        { seed: 42, size: { width: c.width, height }, format: c.format },
        paths,
      );
      out.set(c.id, sha256((await engine.service.render(resolved, { mode: 'job' })).bytes));
    }
    return out;
  });
}

/**
 * Each case's digest, by id (sorted); the file cases too unless `cases` is given. The file cases render
 * through `engine` (left open) when one is given, else through an engine of their own.
 */
export async function renderTemplateGoldens(
  cases = templateGoldenCases(),
  fileCases = templateFileGoldenCases(),
  engine?: RenderEngine,
): Promise<Map<string, string>> {
  const generators = new GeneratorRegistry(ALL_GENERATORS);
  const assets = await fixtureAssets();
  const out = new Map<string, string>();
  for (const c of cases) {
    const gen = templateGenerator({ id: 'tpl_golden', version: 1, spec: c.spec, assets, generators });
    await gen.prepare?.();
    const height = (c.width * c.spec.size.height) / c.spec.size.width;
    const device = { width: Math.round(c.width * c.pixelRatio), height: Math.round(height * c.pixelRatio) };
    const params = { ...gen.defaults, ...c.params };
    const anim = gen.animation?.(params) ?? { fps: 1, frames: 1 };
    const frame = (n: number) => {
      const px = gen.pixels!(
        {
          params,
          seed: c.seed,
          width: c.width,
          height,
          pixelRatio: c.pixelRatio,
          random: mulberry32(c.seed),
          frame: n,
          frameCount: anim.frames,
          time: n / anim.fps,
          loop: n / anim.frames,
        },
        device,
      );
      return new Uint8Array(px.buffer, px.byteOffset, px.byteLength);
    };
    if (c.output === 'png') out.set(c.id, sha256(await encodeStill(frame(0), device.width, device.height, 'png')));
    else {
      const hash = createHash('sha256');
      for (const n of c.output.frames) hash.update(frame(n));
      out.set(c.id, hash.digest('hex'));
    }
  }
  for (const [id, digest] of await renderTemplateFileGoldens(fileCases, generators, engine)) out.set(id, digest);
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
