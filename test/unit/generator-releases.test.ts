// Released generator versions (src/generators/releases): the record of every version, what the
// registry says of each over time (current → deprecated → retired 12 months after it was superseded),
// and a retired version's files: served where rendered before, never rendered anew. The bytes of every
// version are the golden suite's (test/unit/goldens.test.ts).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import type { BlobStore } from '../../src/blob/blob-store.ts';
import { ProblemError } from '../../src/errors/problem.ts';
import { resolveFfmpeg } from '../../src/engine/ffmpeg.ts';
import { RenderPool } from '../../src/engine/render-pool.ts';
import { ALL_GENERATORS } from '../../src/generators/index.ts';
import { compareVersions, GeneratorRegistry, sunsetDate } from '../../src/generators/registry.ts';
import { ALL_RELEASES } from '../../src/generators/releases/index.ts';
import { createLogger } from '../../src/lib/logger.ts';
import { RenderService } from '../../src/services/render.service.ts';
import { ENGINE_PROFILE_VERSIONS } from '../../src/engine/engine-profiles.ts';
import { resolveEncodedRecipe } from '../../src/engine/recipe.ts';
import { readFileSync } from 'node:fs';

const GOLDENS = JSON.parse(readFileSync(new URL('../golden/goldens.json', import.meta.url), 'utf8')) as Record<string, { sha256: string }>;

const registryAt = (day: string) => new GeneratorRegistry(ALL_GENERATORS, ALL_RELEASES, { now: () => new Date(`${day}T12:00:00Z`) });

test('every generator has one release per version, in order, each superseded by the next on the day that one came', () => {
  const registry = registryAt('2026-11-29');
  for (const def of ALL_GENERATORS) {
    const releases = registry.releases(def.slug);
    assert.deepEqual(
      releases.map((r) => r.release.version),
      [...releases.map((r) => r.release.version)].sort(compareVersions),
    );
    assert.equal(releases.at(-1)!.release.definition, def, `${def.slug}: the last release is the current version`);
    assert.equal(releases.at(-1)!.status, 'current');
    for (const [i, state] of releases.entries()) {
      const { release } = state;
      assert.match(release.releasedAt, /^\d{4}-\d{2}-\d{2}$/, `${def.slug}@${release.version}`);
      assert.ok(ENGINE_PROFILE_VERSIONS.includes(release.engine), `${def.slug}@${release.version}: engine ${release.engine} has a profile`);
      if (release.definition) {
        assert.equal(release.definition.slug, def.slug);
        assert.equal(release.definition.version, release.version);
      } else assert.ok(release.notKept, `${def.slug}@${release.version}: a version without code says why`);
      const next = releases[i + 1];
      if (next) {
        assert.equal(
          release.supersededAt,
          next.release.releasedAt,
          `${def.slug}@${release.version} ends when ${next.release.version} begins`,
        );
        assert.ok(release.releasedAt <= release.supersededAt!);
        assert.equal(state.successor, def.version);
      }
    }
  }
});

test('a superseded version renders for 12 months from the day it was superseded, then retires; one without code is retired at once', () => {
  assert.equal(sunsetDate('2026-11-23'), '2027-11-23');
  assert.equal(sunsetDate('2028-02-29'), '2029-03-01'); // never less than 12 months
  const blob100 = (day: string) => registryAt(day).release('blob', '1.0.0')!;
  assert.equal(blob100('2026-11-29').status, 'deprecated');
  assert.equal(blob100('2026-11-29').sunsetAt, '2027-11-23');
  assert.equal(blob100('2027-11-22').status, 'deprecated');
  assert.equal(blob100('2027-11-23').status, 'retired');
  assert.equal(registryAt('2030-01-01').release('blob', '1.3.0')!.status, 'current');
  const socialCard = registryAt('2026-11-29').release('social-card', '2.0.0')!;
  assert.equal(socialCard.status, 'retired');
  assert.match(socialCard.release.notKept!, /fonts installed on the host/);
  assert.equal(registryAt('2026-11-29').release('blob', '0.9.0'), undefined);
});

/** `r` of a recipe URL pinning `version`. */
const pinned = (slug: string, version: string, seed: number) =>
  Buffer.from(
    JSON.stringify({ v: 1, generator: slug, version, params: {}, seed, size: { width: 96, height: 64, pixelRatio: 1 }, format: 'png' }),
  ).toString('base64url');

test('past its sunset a version serves the files it rendered before and renders no new one (410 recipe_outdated naming the successor)', async () => {
  const store = new Map<string, Buffer>();
  const cache: BlobStore = {
    get: async (k) => store.get(k),
    put: async (k, b) => void store.set(k, Buffer.from(b)),
    delete: async (k) => void store.delete(k),
  };
  let today = '2026-11-29';
  const generators = new GeneratorRegistry(ALL_GENERATORS, ALL_RELEASES, { now: () => new Date(`${today}T12:00:00Z`) });
  const pool = new RenderPool({ workers: 1, queueLimit: 10 });
  const service = new RenderService({
    generators,
    pool,
    cache,
    ffmpegPath: resolveFfmpeg(process.env.FFMPEG_PATH)?.path,
    limits: { timeoutMs: 600_000, animationBudgetMs: 600_000 },
    logger: createLogger('silent'),
  });
  try {
    const resolve = (r: string) => resolveEncodedRecipe(generators, undefined, r);
    const served = pinned('blob', '1.0.0', 42);
    const first = await service.render(resolve(served), { mode: 'job' });
    assert.equal(first.cache, 'MISS');
    assert.equal(
      createHash('sha256').update(first.bytes).digest('hex'),
      GOLDENS['blob@1.0.0.png'].sha256,
      'the bytes it was released with',
    );
    today = '2027-11-23';
    const again = await service.render(resolve(served), { mode: 'job' });
    assert.equal(again.cache, 'HIT');
    assert.deepEqual(again.bytes, first.bytes);
    await assert.rejects(
      service.render(resolve(pinned('blob', '1.0.0', 43)), { mode: 'job' }),
      (err: unknown) =>
        err instanceof ProblemError &&
        err.code === 'recipe_outdated' &&
        /2027-11-23/.test(err.detail ?? '') &&
        (err.extra as { currentVersion: string }).currentVersion === generators.get('blob')!.version,
    );
  } finally {
    await pool.close();
  }
});
