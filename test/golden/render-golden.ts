// Renders the golden cases through the same engine path as the API (resolve → worker → encoder).
import { createHash } from 'node:crypto';
import { loadConfig } from '../../src/config/config.ts';
import { createRenderEngine, type RenderEngine } from '../../src/services/render-engine.factory.ts';
import { resolveEncodedRecipe } from '../../src/engine/recipe.ts';
import { type GoldenCase, goldenCases } from './golden-recipes.ts';

/** The longest a timer can wait (2^31 − 1 ms, about 24 days). */
const NO_TIME_LIMIT_MS = 2 ** 31 - 1;

/**
 * The engine golden renders go through, with FFmpeg (closed by the caller), on one render thread: a
 * second one shortened a native run by about 5% (the encodes run in FFmpeg beside it anyway) and cost
 * 14–17% more CPU, native or emulated (each thread compiles the generators' code again, and under qemu
 * translates it again), in a suite whose processes share the cores. No time limit to race: under
 * emulation at load 34 a render that waited its turn took over 120 s. What bounds a run is the caller's
 * backstop (the test's timeout, the process's).
 *
 * `inThread` renders on the calling thread (RenderPoolOptions.inThread, as the CLI renders) through
 * the same render.worker module: the determinism tier's processes (render-digests.ts), whose JavaScript
 * then compiles once for the goldens and the template goldens, which draw on this thread too. The
 * unit tier renders on a worker thread, as the API does.
 */
export async function startGoldenEngine(options: { inThread?: boolean } = {}): Promise<RenderEngine> {
  const engine = await createRenderEngine({
    ffmpegPath: loadConfig(process.env).ffmpegPath,
    render: {
      workers: 1,
      queueLimit: 10_000,
      timeoutMs: NO_TIME_LIMIT_MS,
      animationBudgetMs: NO_TIME_LIMIT_MS,
      inThread: options.inThread,
    },
  });
  // An engine that renders on its own thread prepares only what a render needs (the CLI's one render);
  // resolving a text golden needs the shaper, so every generator is prepared here, as for a worker.
  if (options.inThread)
    await engine.generators.ready().catch(async (err: unknown) => {
      await engine.close();
      throw err;
    });
  if (engine.ffmpegVersion) return engine;
  await engine.close();
  throw new Error('FFmpeg is required for the golden suite');
}

/** Runs `work` with `engine` (left open), or with an engine of its own, closed after. */
export async function withGoldenEngine<T>(engine: RenderEngine | undefined, work: (engine: RenderEngine) => Promise<T>): Promise<T> {
  if (engine) return work(engine);
  const own = await startGoldenEngine();
  try {
    return await work(own);
  } finally {
    await own.close();
  }
}

/** Each case's digest, by id (sorted), rendered by `engine` (left open) or by an engine of its own. */
export async function renderGoldens(
  cases: GoldenCase[] = goldenCases(),
  engine?: RenderEngine,
): Promise<Map<string, { recipeHash: string; sha256: string; bytes: number }>> {
  return withGoldenEngine(engine, async ({ service, generators }) => {
    const out = new Map<string, { recipeHash: string; sha256: string; bytes: number }>();
    await Promise.all(
      cases.map(async (c) => {
        // A superseded version renders only as a recipe URL pins it (a body's recipe gets the current one).
        const resolved =
          c.version === undefined
            ? service.resolve(c.slug, c.input)
            : resolveEncodedRecipe(generators, undefined, pinnedRecipe(c.slug, c.version, c.input));
        const { bytes } = await service.render(resolved, { mode: 'job' });
        out.set(c.id, { recipeHash: resolved.hash, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length });
      }),
    );
    return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
  });
}

/** A recipe URL's `r` pinning `slug@version` (the resolution merges the version's defaults, as for any URL). */
function pinnedRecipe(slug: string, version: string, input: GoldenCase['input']): string {
  const recipe = { v: 1, generator: slug, version, params: input.params ?? {}, seed: input.seed, size: input.size, format: input.format };
  return Buffer.from(JSON.stringify(recipe), 'utf8').toString('base64url');
}
