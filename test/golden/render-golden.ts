// Renders the golden cases through the same engine path as the API (resolve → worker → encoder).
import { createHash } from 'node:crypto';
import type { BlobStore } from '../../src/blob/blob-store.ts';
import { probeFfmpegVersion, resolveFfmpeg } from '../../src/engine/ffmpeg.ts';
import { RenderPool } from '../../src/engine/render-pool.ts';
import { ALL_GENERATORS } from '../../src/generators/index.ts';
import { GeneratorRegistry } from '../../src/generators/registry.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { RenderService } from '../../src/services/render.service.ts';
import { type GoldenCase, goldenCases } from './golden-recipes.ts';

const noCache: BlobStore = { get: async () => undefined, put: async () => {}, delete: async () => {} };

export async function renderGoldens(cases: GoldenCase[] = goldenCases()): Promise<Map<string, { recipeHash: string; sha256: string; bytes: number }>> {
  const ffmpeg = resolveFfmpeg(process.env.FFMPEG_PATH);
  if (!(await probeFfmpegVersion(ffmpeg))) throw new Error('FFmpeg is required for the golden suite');
  const pool = new RenderPool({ workers: 2, queueLimit: 1000 });
  const service = new RenderService(new GeneratorRegistry(ALL_GENERATORS), pool, noCache, ffmpeg!.path, { timeoutMs: 120_000, animationBudgetMs: 120_000 }, createLogger('silent'));
  try {
    const out = new Map<string, { recipeHash: string; sha256: string; bytes: number }>();
    await Promise.all(
      cases.map(async (c) => {
        const resolved = service.resolve(c.slug, c.input);
        const { bytes } = await service.render(resolved, { mode: 'job' });
        out.set(c.id, { recipeHash: resolved.hash, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length });
      }),
    );
    return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
  } finally {
    await pool.close();
  }
}
