// generate, renderRecipe and renderBatch through the real app, on SQLite (the render cache in the
// database and in Postgres is blob-stores.test.ts's, and the render-coalescing, lean-path and presets
// suites render on both databases).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import canonicalizeModule from 'canonicalize';
import { extract } from '../../src/engine/recipe-metadata.ts';
import { ALL_GENERATORS } from '../../src/generators/index.ts';
import { ONE_ENGINE } from '../support/black-box/databases.ts';
import { looksLike } from '../support/formats.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

const canonicalize = canonicalizeModule as unknown as (v: unknown) => string;
const still = ALL_GENERATORS.find((g) => !g.animated && g.formats.includes('png'))!;
const animated = ALL_GENERATORS.find((g) => g.animated);
const small = { width: 64, height: 48 };
const GOLDENS = JSON.parse(readFileSync(new URL('../golden/goldens.json', import.meta.url), 'utf8')) as Record<
  string,
  { sha256: string; recipeHash: string }
>;
const quick = (slug: string) => (ALL_GENERATORS.find((g) => g.slug === slug)!.animated ? { duration: 1, fps: 10 } : {});

function recipeUrl(recipe: Record<string, unknown>, overrides = '') {
  const json = canonicalize(recipe);
  return `/v1/render/${createHash('sha256').update(json).digest('hex')}?r=${Buffer.from(json).toString('base64url')}${overrides}`;
}

for (const engine of ONE_ENGINE) {
  describe(`rendering on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine);
    });
    after(async () => t?.close());

    for (const gen of ALL_GENERATORS) {
      for (const format of gen.formats) {
        test(`generate ${gen.slug} as ${format}: 200, content type, headers`, async () => {
          const res = await t.request('post', `/v1/generate/${gen.slug}`, {
            body: { seed: 3, size: small, format, params: quick(gen.slug) },
          });
          assert.equal(res.status, 200, res.text);
          assert.ok(looksLike(format, res.body), `${format} bytes`);
          assert.equal(
            res.headers['x-service-recipe-hash'],
            createHash('sha256').update(Buffer.from(res.headers['x-service-recipe'], 'base64url')).digest('hex'),
          );
          assert.equal(res.headers.etag, `"${res.headers['x-service-recipe-hash']}"`);
          assert.equal(res.headers['cache-control'], 'private, max-age=31536000, immutable');
          assert.equal(res.headers['x-service-engine'], (await t.request('get', '/v1/health', { auth: false })).body.engineVersion);
        });
      }
    }

    test('MISS then HIT with identical bytes; the recipe URL is a HIT too; 304 on If-None-Match', async () => {
      const body = { seed: 11, size: small };
      const first = await t.request('post', `/v1/generate/${still.slug}`, { body });
      const second = await t.request('post', `/v1/generate/${still.slug}`, { body });
      assert.equal(first.headers['x-service-cache'], 'MISS');
      assert.equal(second.headers['x-service-cache'], 'HIT');
      assert.ok(first.body.equals(second.body));
      const hash = first.headers['x-service-recipe-hash'];
      const viaUrl = await t.request('get', `/v1/render/${hash}?r=${first.headers['x-service-recipe']}`);
      assert.equal(viaUrl.status, 200);
      assert.equal(viaUrl.headers['x-service-cache'], 'HIT');
      assert.ok(viaUrl.body.equals(first.body));
      const notModified = await t.request('get', `/v1/render/${hash}?r=${first.headers['x-service-recipe']}`, {
        headers: { 'If-None-Match': `W/"x", "${hash}"` },
      });
      assert.equal(notModified.status, 304);
      assert.equal(notModified.headers.etag, `"${hash}"`);
      const generate304 = await t.request('post', `/v1/generate/${still.slug}`, { body, headers: { 'If-None-Match': `"${hash}"` } });
      assert.equal(generate304.status, 304);
    });

    test('defaults: 1920×1080 png at pixel ratio 1, params merged over defaults, seed 0 derived', async () => {
      const res = await t.request('post', `/v1/generate/${still.slug}`, { body: {} });
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], 'image/png');
      const recipe = JSON.parse(Buffer.from(res.headers['x-service-recipe'], 'base64url').toString());
      assert.deepEqual(recipe.size, { width: 1920, height: 1080, pixelRatio: 1 });
      assert.deepEqual(recipe.params, still.defaults);
      assert.equal(recipe.version, still.version);
      assert.ok(recipe.seed > 0);
      assert.equal(res.body.readUInt32BE(16), 1920, 'PNG IHDR width');
      assert.equal(res.body.readUInt32BE(20), 1080, 'PNG IHDR height');
    });

    test('pixelRatio scales the output pixels', async () => {
      const res = await t.request('post', `/v1/generate/${still.slug}`, { body: { size: { width: 40, height: 30, pixelRatio: 2.5 } } });
      assert.equal(res.body.readUInt32BE(16), 100);
      assert.equal(res.body.readUInt32BE(20), 75);
    });

    test('404 for an unknown slug; 400 for a format the generator does not list', async () => {
      const missing = await t.request('post', '/v1/generate/no-such-generator', { body: {} });
      assert.equal(missing.status, 404);
      assert.equal(missing.body.code, 'generator_not_found');
      const wrong = still.animated ? 'css' : 'mp4';
      const format = await t.request('post', `/v1/generate/${still.slug}`, { body: { format: wrong } });
      assert.equal(format.status, 400);
      assert.equal(format.body.code, 'unsupported_format');
      assert.equal(format.body.issues[0].path, 'body.format');
    });

    test('400 invalid_params names each bad param; null restores a default', async () => {
      const key = Object.keys(still.paramSchema.properties)[0];
      const res = await t.request('post', `/v1/generate/${still.slug}`, { body: { params: { [key]: { nested: true }, notAParam: 1 } } });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'invalid_params');
      const paths = res.body.issues.map((i: { path: string }) => i.path);
      assert.ok(paths.includes(`body.params.${key}`), paths.join());
      assert.ok(paths.includes('body.params.notAParam'), paths.join());
      const reset = await t.request('post', `/v1/generate/${still.slug}`, { body: { size: small, params: { [key]: null } } });
      assert.equal(reset.status, 200);
      assert.deepEqual(JSON.parse(Buffer.from(reset.headers['x-service-recipe'], 'base64url').toString()).params, still.defaults);
    });

    describe('limits, each boundary ±1', () => {
      const cases: Array<[string, Record<string, unknown>, number]> = [
        ['width 15', { size: { width: 15, height: 16 } }, 400],
        ['width 16', { size: { width: 16, height: 16 } }, 200],
        ['width 4097', { size: { width: 4097, height: 16 } }, 400],
        ['width 4096', { size: { width: 4096, height: 16 } }, 200],
        ['height 15', { size: { width: 16, height: 15 } }, 400],
        ['height 4097', { size: { width: 16, height: 4097 } }, 400],
        ['height 4096', { size: { width: 16, height: 4096 } }, 200],
        ['pixelRatio 0.49', { size: { width: 32, height: 32, pixelRatio: 0.49 } }, 400],
        ['pixelRatio 0.5', { size: { width: 32, height: 32, pixelRatio: 0.5 } }, 200],
        ['pixelRatio 3', { size: { width: 16, height: 16, pixelRatio: 3 } }, 200],
        ['pixelRatio 3.01', { size: { width: 16, height: 16, pixelRatio: 3.01 } }, 400],
        ['seed -1', { seed: -1, size: small }, 400],
        ['seed 0', { seed: 0, size: small }, 200],
        ['seed 4294967295', { seed: 4294967295, size: small }, 200],
        ['seed 4294967296', { seed: 4294967296, size: small }, 400],
      ];
      for (const [name, body, status] of cases) {
        test(`${name} → ${status}`, async () => {
          const res = await t.request('post', `/v1/generate/${still.slug}`, { body });
          assert.equal(res.status, status, res.text?.slice(0, 300));
          if (status === 400) assert.equal(res.body.code, 'validation_failed');
          if (status === 200 && 'size' in body) {
            const size = body.size as { width: number; height: number; pixelRatio?: number };
            assert.equal(res.body.readUInt32BE(16), Math.round(size.width * (size.pixelRatio ?? 1)), 'never resized');
          }
        });
      }

      test('413 render_too_large over the pixel budget, never resized', async () => {
        const res = await t.request('post', `/v1/generate/${still.slug}`, { body: { size: { width: 4096, height: 4096, pixelRatio: 3 } } });
        assert.equal(res.status, 413);
        assert.equal(res.body.code, 'render_too_large');
        assert.equal(res.body.issues[0].path, 'body.size');
      });
    });

    describe('recipe URLs', () => {
      const base = () => ({
        v: 1,
        generator: still.slug,
        version: still.version,
        params: {},
        seed: 5,
        size: { width: 48, height: 32, pixelRatio: 1 },
        format: 'png',
      });

      test("a client-computed recipe URL renders; a changed byte is a 400 invalid_recipe, another recipe's hash a 400 recipe_hash_mismatch", async () => {
        const ok = await t.request('get', recipeUrl(base()));
        assert.equal(ok.status, 200);
        const url = recipeUrl(base());
        const tampered = url.replace(/\?r=(.)/, (_m, c: string) => `?r=${c === 'e' ? 'f' : 'e'}`);
        const res = await t.request('get', tampered);
        assert.equal(res.status, 400);
        // r always starts with the encoding of `{"`, so changing its first character breaks the JSON.
        assert.equal(res.body.code, 'invalid_recipe');
        const otherHash = recipeUrl(base()).replace(/\/v1\/render\/[0-9a-f]{64}/, `/v1/render/${'0'.repeat(64)}`);
        const mismatch = await t.request('get', otherHash);
        assert.equal(mismatch.status, 400);
        assert.equal(mismatch.body.code, 'recipe_hash_mismatch');
      });

      test('format, w, h and pr override the recipe under the same limits', async () => {
        const res = await t.request('get', recipeUrl(base(), '&w=80&h=40&pr=2&format=webp'));
        assert.equal(res.status, 200);
        assert.equal(res.headers['content-type'], 'image/webp');
        const effective = JSON.parse(Buffer.from(res.headers['x-service-recipe'], 'base64url').toString());
        assert.deepEqual(effective.size, { width: 80, height: 40, pixelRatio: 2 });
        for (const q of ['&w=4097', '&w=15', '&h=4097', '&pr=3.5', '&pr=0.4', '&format=bmp']) {
          const bad = await t.request('get', recipeUrl(base(), q));
          assert.equal(bad.status, 400, q);
        }
        const tooBig = await t.request('get', recipeUrl(base(), '&w=4096&h=4096&pr=3'));
        assert.equal(tooBig.status, 413);
        const unsupported = await t.request('get', recipeUrl(base(), still.formats.includes('gif') ? '&format=css' : '&format=gif'));
        assert.equal(unsupported.status, 400);
        assert.equal(unsupported.body.issues[0].path, 'query.format');
      });

      test('a recipe URL pinning a superseded version renders the bytes it was released with; GET /v1/generators/{slug} lists every version', async () => {
        const detail = await t.request('get', '/v1/generators/blob');
        assert.equal(detail.status, 200);
        const versions = detail.body.versions as Array<Record<string, unknown>>;
        assert.deepEqual(versions.at(-1), {
          version: detail.body.version,
          status: 'current',
          releasedAt: versions.at(-1)!.releasedAt,
          engineVersion: '1.4.0',
          formats: detail.body.formats,
        });
        assert.deepEqual(versions[0], {
          version: '1.0.0',
          status: 'deprecated',
          releasedAt: '2026-11-23',
          supersededAt: '2026-11-23',
          sunsetAt: '2027-11-23',
          successor: detail.body.version,
          engineVersion: '1.1.0',
          formats: ['png', 'webp', 'svg'],
        });
        const old = {
          v: 1,
          generator: 'blob',
          version: '1.0.0',
          params: {},
          seed: 42,
          size: { width: 96, height: 64, pixelRatio: 1 },
          format: 'png',
        };
        const res = await t.request('get', recipeUrl(old));
        assert.equal(res.status, 200, res.text);
        assert.equal(
          createHash('sha256')
            .update(res.body as Buffer)
            .digest('hex'),
          GOLDENS['blob@1.0.0.png'].sha256,
        );
        assert.equal(res.headers.etag, `"${GOLDENS['blob@1.0.0.png'].recipeHash}"`);
      });

      test('410 recipe_outdated for a version never released or not kept; 400 for garbage', async () => {
        const old = await t.request('get', recipeUrl({ ...base(), version: '0.0.1' }));
        assert.equal(old.status, 410);
        assert.equal(old.body.code, 'recipe_outdated');
        assert.match(old.body.detail, /never released/);
        const notKept = await t.request(
          'get',
          recipeUrl({
            v: 1,
            generator: 'social-card',
            version: '2.0.0',
            params: {},
            seed: 1,
            size: { width: 96, height: 64 },
            format: 'png',
          }),
        );
        assert.equal(notKept.status, 410);
        assert.match(notKept.body.detail, /no longer served: it drew its text with Skia/);
        const garbage = await t.request('get', `/v1/render/${'a'.repeat(64)}?r=bm90LWpzb24`);
        assert.equal(garbage.status, 400);
        assert.equal(garbage.body.code, 'invalid_recipe');
        assert.equal(garbage.body.title, 'The encoded recipe is invalid');
        assert.match(garbage.body.detail, /^r cannot be decoded/);
        // It decoded; it only breaks a rule: the detail says so and names the field.
        const r = Buffer.from(JSON.stringify({ ...base(), seed: -1 })).toString('base64url');
        const broken = await t.request('get', `/v1/render/${'a'.repeat(64)}?r=${r}`);
        assert.equal(broken.status, 400);
        assert.equal(broken.body.code, 'invalid_recipe');
        assert.match(broken.body.detail, /^r decoded, but the recipe is not valid: query\.r\.seed /);
        assert.doesNotMatch(broken.body.title, /cannot be decoded/);
      });

      test('404 generator_not_found for a well-formed recipe naming a generator this service does not run', async () => {
        const res = await t.request('get', recipeUrl({ ...base(), generator: 'retired-generator' }));
        assert.equal(res.status, 404, res.text);
        assert.equal(res.body.code, 'generator_not_found');
        assert.match(res.body.detail, /retired-generator/);
      });
    });

    describe('batch', () => {
      test('items are isolated, identical items render once, results land in the cache', async () => {
        const items = [
          { slug: still.slug, seed: 21, size: small },
          { slug: 'no-such-generator' },
          { slug: still.slug, seed: 21, size: small },
          { slug: still.slug, seed: 22, size: { width: 4096, height: 4096, pixelRatio: 3 } },
          { slug: still.slug, seed: 23, size: small, format: 'webp' },
          { slug: still.slug, params: { notAParam: true } },
        ];
        const res = await t.request('post', '/v1/batch', { body: { items } });
        assert.equal(res.status, 200);
        assert.equal(res.body.count, 6);
        const r = res.body.results;
        assert.deepEqual(
          r.map((x: { index: number }) => x.index),
          [0, 1, 2, 3, 4, 5],
        );
        assert.deepEqual(
          r.map((x: { ok: boolean }) => x.ok),
          [true, false, true, false, true, false],
        );
        assert.equal(r[1].code, 'generator_not_found');
        assert.equal(r[3].code, 'render_too_large');
        assert.equal(r[5].code, 'invalid_params');
        assert.equal(r[0].hash, r[2].hash);
        assert.ok(r[0].bytes > 0);
        const fetched = await t.request('get', r[4].url);
        assert.equal(fetched.status, 200);
        assert.equal(fetched.headers['x-service-cache'], 'HIT');
        assert.equal(fetched.body.length, r[4].bytes);
      });

      test('an item that breaks the item schema is reported on its own; the others render', async () => {
        const items = [
          { slug: still.slug, seed: -1 },
          { slug: still.slug, seed: 24, size: small },
          { seed: 1, colour: 'red' },
          'not an object',
        ];
        const mixed = await t.request('post', '/v1/batch', { body: { items: items.slice(0, 3) } });
        assert.equal(mixed.status, 200);
        const r = mixed.body.results;
        assert.deepEqual(
          r.map((x: { ok: boolean }) => x.ok),
          [false, true, false],
        );
        assert.equal(r[0].code, 'validation_failed');
        assert.deepEqual(
          r[0].issues.map((i: { path: string }) => i.path),
          ['body.items.0.seed'],
        );
        assert.match(r[0].error, /^body\.items\.0\.seed /);
        assert.deepEqual(r[2].issues.map((i: { path: string }) => i.path).sort(), ['body.items.2.colour', 'body.items.2.slug']);
        // The request itself is still checked: items must be objects, at most 50 of them.
        const notObject = await t.request('post', '/v1/batch', { body: { items: items.slice(3) } });
        assert.equal(notObject.status, 400);
        assert.equal(notObject.body.issues[0].path, 'body.items.0');
        const tooMany = await t.request('post', '/v1/batch', { body: { items: Array.from({ length: 51 }, () => items[0]) } });
        assert.equal(tooMany.status, 400);
      });
    });

    describe('jpeg', () => {
      const decoded = (header: string) => JSON.parse(Buffer.from(header, 'base64url').toString()) as Record<string, unknown>;

      test('POST renders image/jpeg whose recipe (quality included, 82 when none is sent) is in its headers and inside the file', async () => {
        const res = await t.request('post', `/v1/generate/${still.slug}`, { body: { seed: 31, size: small, format: 'jpeg', quality: 85 } });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.headers['content-type'], 'image/jpeg');
        assert.ok(looksLike('jpeg', res.body));
        assert.equal(decoded(res.headers['x-service-recipe']).quality, 85);
        const carried = extract(res.body);
        assert.equal(carried?.format, 'jpeg');
        assert.equal(carried?.recipe, res.headers['x-service-recipe'], 'render-service inspect reads the recipe the headers name');
        assert.equal(carried?.hash, res.headers['x-service-recipe-hash']);
        const byDefault = await t.request('post', `/v1/generate/${still.slug}`, { body: { seed: 31, size: small, format: 'jpeg' } });
        assert.equal(decoded(byDefault.headers['x-service-recipe']).quality, 82);
        assert.ok(!byDefault.body.equals(res.body));
      });

      test('a quality with another format (or none, png) is 400 naming body.quality; out of 1–100 too', async () => {
        for (const body of [
          { seed: 1, size: small, quality: 80 },
          { seed: 1, size: small, format: 'webp', quality: 80 },
        ]) {
          const res = await t.request('post', `/v1/generate/${still.slug}`, { body });
          assert.equal(res.status, 400, JSON.stringify(body));
          assert.equal(res.body.code, 'validation_failed');
          assert.deepEqual(res.body.issues, [{ path: 'body.quality', message: 'is taken only with format jpeg', keyword: 'format' }]);
        }
        const zero = await t.request('post', `/v1/generate/${still.slug}`, { body: { size: small, format: 'jpeg', quality: 0 } });
        assert.equal(zero.status, 400);
        assert.equal(zero.body.issues[0].path, 'body.quality');
      });

      test('recipe URLs: the .jpg path form, q overrides the quality, q with another format is 400 naming query.q', async () => {
        const made = await t.request('post', `/v1/generate/${still.slug}`, {
          body: { seed: 32, size: small, format: 'jpeg', quality: 70 },
        });
        const { 'x-service-recipe': r, 'x-service-recipe-hash': hash } = made.headers;
        const byUrl = await t.request('get', `/v1/render/${hash}.jpg?r=${r}`);
        assert.equal(byUrl.status, 200, byUrl.text);
        assert.equal(byUrl.headers['content-type'], 'image/jpeg');
        assert.ok(byUrl.body.equals(made.body));
        const wrongExtension = await t.request('get', `/v1/render/${hash}.png?r=${r}`);
        assert.equal(wrongExtension.status, 400);
        assert.equal(wrongExtension.body.issues[0].path, 'path.recipeHash');
        const q = await t.request('get', `/v1/render/${hash}?r=${r}&q=40`);
        assert.equal(q.status, 200);
        assert.equal(decoded(q.headers['x-service-recipe']).quality, 40);
        assert.ok(q.body.length < made.body.length);
        const asWebp = await t.request('get', `/v1/render/${hash}?r=${r}&format=webp`);
        assert.equal(asWebp.status, 200, 'a format override leaves the jpeg quality behind');
        assert.equal('quality' in decoded(asWebp.headers['x-service-recipe']), false);
        const refused = await t.request('get', `/v1/render/${hash}?r=${r}&format=png&q=40`);
        assert.equal(refused.status, 400);
        assert.deepEqual(refused.body.issues, [{ path: 'query.q', message: 'is taken only with format jpeg', keyword: 'format' }]);
        const outOfRange = await t.request('get', `/v1/render/${hash}?r=${r}&q=101`);
        assert.equal(outOfRange.status, 400);
        assert.equal(outOfRange.body.issues[0].path, 'query.q');
      });

      test('batch items take a jpeg quality, and an item that sends one with png is reported naming its field', async () => {
        const res = await t.request('post', '/v1/batch', {
          body: {
            items: [
              { slug: still.slug, seed: 33, size: small, format: 'jpeg', quality: 75 },
              { slug: still.slug, seed: 33, size: small, format: 'png', quality: 75 },
            ],
          },
        });
        assert.equal(res.status, 200);
        const [jpeg, png] = res.body.results;
        assert.equal(jpeg.ok, true);
        assert.equal(jpeg.contentType, 'image/jpeg');
        assert.equal(png.ok, false);
        assert.equal(png.code, 'validation_failed');
        assert.deepEqual(
          png.issues.map((i: { path: string }) => i.path),
          ['body.items.1.quality'],
        );
      });
    });

    test('concurrent identical misses render once', async () => {
      const pool = (t.runtime.deps.services.render as unknown as { pool: { render: (...a: unknown[]) => Promise<unknown> } }).pool;
      const original = pool.render.bind(pool);
      let calls = 0;
      pool.render = (...args) => {
        calls++;
        return original(...args);
      };
      try {
        const body = { seed: 777, size: { width: 300, height: 200 } };
        const all = await Promise.all(Array.from({ length: 6 }, () => t.request('post', `/v1/generate/${still.slug}`, { body })));
        assert.ok(all.every((r) => r.status === 200));
        assert.ok(all.every((r) => r.body.equals(all[0].body)));
        assert.equal(calls, 1);
      } finally {
        pool.render = original;
      }
    });

    test('a recipe without a size is 1920×1080 for every generator (the specification); a generator suggests its own shape apart', async () => {
      for (const [slug, width, height] of [
        ['identicon', 256, 256],
        ['social-card', 1200, 630],
        ['voronoi', 1920, 1080],
      ] as const) {
        const listed = await t.request('get', `/v1/generators/${slug}`);
        assert.deepEqual(listed.body.defaultSize, { width: 1920, height: 1080 }, slug);
        assert.deepEqual(listed.body.suggestedSize, { width, height }, slug);
        const res = await t.request('post', `/v1/generate/${slug}`, { body: { seed: 3, format: 'webp' } });
        assert.equal(res.status, 200, res.text);
        const recipe = JSON.parse(Buffer.from(res.headers['x-service-recipe'], 'base64url').toString('utf8'));
        assert.deepEqual(recipe.size, { width: 1920, height: 1080, pixelRatio: 1 }, slug);
      }
    });

    test(
      'an animated render over the animation budget is 504 pointing to jobs; /v1/health names the budget',
      { skip: !animated },
      async () => {
        const budgeted = await startTestApp(engine, { env: { ANIMATION_BUDGET_MS: '150' } });
        try {
          // Clients (the web app among them) send what would not fit to a job before trying.
          assert.equal((await budgeted.request('get', '/v1/health', { auth: false })).body.animationBudgetMs, 150);
          assert.equal((await t.request('get', '/v1/health', { auth: false })).body.animationBudgetMs, 20_000);
          const res = await budgeted.request('post', `/v1/generate/${animated!.slug}`, {
            body: { format: 'gif', size: { width: 640, height: 360 }, params: { duration: 10, fps: 30 } },
          });
          assert.equal(res.status, 504);
          assert.equal(res.body.code, 'animation_budget_exceeded');
          assert.match(res.body.detail, /POST \/v1\/jobs/);
        } finally {
          await budgeted.close();
        }
      },
    );
  });
}
