// Presets through HTTP on both databases: create (validated by resolving the recipe), list, get,
// update (top-level merge; a new recipe is re-validated and re-hashed), delete, render (exactly
// like POST /v1/generate/{slug}), workspace isolation and the per-workspace limit.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_PRESETS } from '../../src/services/presets.service.ts';
import { ENGINES } from '../support/black-box/databases.ts';
import { strictlyIncreasingClock } from '../support/clocks.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });
const SLUG = 'mesh-gradient';
const small = { width: 64, height: 48 };
const recipe = (extra: Record<string, unknown> = {}) => ({
  slug: SLUG,
  params: { points: 5 },
  seed: 7,
  size: small,
  format: 'png',
  ...extra,
});
const issuePaths = (body: { issues?: { path: string }[] }) => (body.issues ?? []).map((i) => i.path);

for (const engine of ENGINES) {
  describe(`presets on ${engine}`, () => {
    let t: TestApp;
    /** A second workspace with its own key. */
    let otherSecret: string;
    let otherPresetId: string;

    const create = async (body: Record<string, unknown> = { name: 'hero', recipe: recipe() }) => {
      const res = await t.request('post', '/v1/presets', { body });
      assert.equal(res.status, 201, res.text);
      return res.body;
    };

    before(async () => {
      // Every write gets its own millisecond, so ordering by time needs no sleep.
      t = await startTestApp(engine, { compose: { clock: strictlyIncreasingClock() } });
      const ws = 'ws_presets_other';
      await t.runtime.deps.services.workspaces.ensure({ id: ws, name: 'Other', kind: 'personal', createdAt: Date.now() });
      otherSecret = (await t.runtime.deps.services.keys.create(ws, 'theirs')).secret;
      const theirs = await t.request('post', '/v1/presets', {
        body: { name: 'theirs', recipe: recipe({ seed: 99 }) },
        headers: bearer(otherSecret),
        auth: false,
      });
      assert.equal(theirs.status, 201, theirs.text);
      otherPresetId = theirs.body.id;
    });
    after(async () => t?.close());

    describe('createPreset', () => {
      test('201 stores the recipe as given, with its hash, Location and no-store', async () => {
        const res = await t.request('post', '/v1/presets', { body: { name: 'hero', recipe: recipe() } });
        assert.equal(res.status, 201);
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.match(res.body.id, /^pre_[0-9A-Za-z]{20}$/);
        assert.equal(res.headers.location, `/v1/presets/${res.body.id}`);
        assert.equal(res.body.name, 'hero');
        assert.deepEqual(res.body.recipe, recipe());
        assert.match(res.body.recipeHash, /^[0-9a-f]{64}$/);
        assert.equal(res.body.createdAt, res.body.updatedAt);
        // The hash is the one POST /v1/generate/{slug} reports for the same recipe.
        const { slug, ...body } = recipe();
        const generated = await t.request('post', `/v1/generate/${slug}`, { body });
        assert.equal(res.body.recipeHash, generated.headers['x-service-recipe-hash']);
      });

      test('201 with only a slug: nothing is filled in', async () => {
        const created = await create({ name: 'bare', recipe: { slug: SLUG } });
        assert.deepEqual(created.recipe, { slug: SLUG });
        const generated = await t.request('post', `/v1/generate/${SLUG}`, { body: {} });
        assert.equal(created.recipeHash, generated.headers['x-service-recipe-hash']);
      });

      test('400 names the field: bad params', async () => {
        const res = await t.request('post', '/v1/presets', { body: { name: 'bad', recipe: recipe({ params: { points: 99 } }) } });
        assert.equal(res.status, 400);
        assert.equal(res.body.code, 'invalid_params');
        assert.deepEqual(issuePaths(res.body), ['body.recipe.params.points']);
      });

      test('400 names the field: bad size, seed and format', async () => {
        const res = await t.request('post', '/v1/presets', {
          body: { name: 'bad', recipe: recipe({ size: { width: 15, height: 4097 }, seed: -1 }) },
        });
        assert.equal(res.status, 400);
        assert.deepEqual(issuePaths(res.body).sort(), ['body.recipe.seed', 'body.recipe.size.height', 'body.recipe.size.width']);
        const format = await t.request('post', '/v1/presets', { body: { name: 'bad', recipe: recipe({ format: 'gif' }) } });
        assert.equal(format.status, 400);
        assert.equal(format.body.code, 'unsupported_format');
        assert.deepEqual(issuePaths(format.body), ['body.recipe.format']);
      });

      test('400 names the field: missing or too long name, missing recipe, unknown fields', async () => {
        for (const [body, field] of [
          [{ recipe: recipe() }, 'body.name'],
          [{ name: '', recipe: recipe() }, 'body.name'],
          [{ name: 'x'.repeat(101), recipe: recipe() }, 'body.name'],
          [{ name: 'x' }, 'body.recipe'],
          [{ name: 'x', recipe: { ...recipe(), colour: 'red' } }, 'body.recipe.colour'],
        ] as const) {
          const res = await t.request('post', '/v1/presets', { body });
          assert.equal(res.status, 400, JSON.stringify(body));
          assert.ok(
            issuePaths(res.body).some((p) => p.startsWith(field)),
            JSON.stringify(res.body.issues),
          );
        }
      });

      test('404 generator_not_found for an unknown slug; nothing is stored', async () => {
        const before = (await t.request('get', '/v1/presets')).body.length;
        const res = await t.request('post', '/v1/presets', { body: { name: 'x', recipe: { slug: 'no-such-generator' } } });
        assert.equal(res.status, 404);
        assert.equal(res.body.code, 'generator_not_found');
        assert.equal((await t.request('get', '/v1/presets')).body.length, before);
      });

      test('401 without credentials', async () => {
        assert.equal((await t.request('post', '/v1/presets', { body: { name: 'x', recipe: recipe() }, auth: false })).status, 401);
      });

      test(`409 conflict past ${MAX_PRESETS} presets; concurrent creates cannot overshoot`, async () => {
        const ws = 'ws_presets_limit';
        await t.runtime.deps.services.workspaces.ensure({ id: ws, name: 'Limit', kind: 'personal', createdAt: Date.now() });
        const { secret } = await t.runtime.deps.services.keys.create(ws, 'limit');
        const presets = t.runtime.deps.services.presets;
        for (let i = 0; i < MAX_PRESETS - 2; i++) await presets.create(ws, { name: `p${i}`, recipe: { slug: SLUG } });
        const racing = await Promise.all(
          Array.from({ length: 5 }, (_, i) =>
            t.request('post', '/v1/presets', { body: { name: `race${i}`, recipe: recipe() }, headers: bearer(secret), auth: false }),
          ),
        );
        assert.deepEqual(racing.map((r) => r.status).sort(), [201, 201, 409, 409, 409]);
        const over = racing.find((r) => r.status === 409)!;
        assert.equal(over.body.code, 'conflict');
        assert.match(over.body.detail, new RegExp(`at most ${MAX_PRESETS} presets`));
        assert.equal((await t.request('get', '/v1/presets', { headers: bearer(secret), auth: false })).body.length, MAX_PRESETS);
        // Deleting one makes room again.
        const first = racing.find((r) => r.status === 201)!;
        assert.equal((await t.request('delete', `/v1/presets/${first.body.id}`, { headers: bearer(secret), auth: false })).status, 204);
        assert.equal(
          (await t.request('post', '/v1/presets', { body: { name: 'room', recipe: recipe() }, headers: bearer(secret), auth: false }))
            .status,
          201,
        );
      });
    });

    describe('listPresets', () => {
      test("200 lists the workspace's presets newest first, with no-store; never another workspace's", async () => {
        const a = await create({ name: 'a', recipe: recipe() });
        const b = await create({ name: 'b', recipe: recipe({ seed: 8 }) });
        const res = await t.request('get', '/v1/presets');
        assert.equal(res.status, 200);
        assert.equal(res.headers['cache-control'], 'no-store');
        const ids = res.body.map((p: { id: string }) => p.id);
        assert.ok(ids.indexOf(b.id) < ids.indexOf(a.id), 'newest first');
        assert.deepEqual(
          res.body.find((p: { id: string }) => p.id === a.id),
          a,
        );
        const times = res.body.map((p: { createdAt: string }) => Date.parse(p.createdAt));
        assert.deepEqual(
          times,
          [...times].sort((x, y) => y - x),
        );
        assert.ok(!ids.includes(otherPresetId));
        const theirs = await t.request('get', '/v1/presets', { headers: bearer(otherSecret), auth: false });
        assert.deepEqual(
          theirs.body.map((p: { id: string }) => p.id),
          [otherPresetId],
        );
      });

      test('401 without credentials', async () => {
        assert.equal((await t.request('get', '/v1/presets', { auth: false })).status, 401);
      });
    });

    describe('getPreset', () => {
      test('200 returns the preset with no-store', async () => {
        const created = await create();
        const res = await t.request('get', `/v1/presets/${created.id}`);
        assert.equal(res.status, 200);
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.deepEqual(res.body, created);
      });

      test('the hash is the one the preset renders to now, not the one stored with it', async () => {
        const created = await create({ name: 'stale', recipe: recipe({ seed: 31337 }) });
        // As if saved under an older generator version: the stored hash no longer matches.
        await t.runtime
          .db('presets')
          .where({ id: created.id })
          .update({ recipe_hash: '0'.repeat(64) });
        const current = (await t.request('get', `/v1/presets/${created.id}/render`)).headers['x-service-recipe-hash'];
        assert.equal(current, created.recipeHash);
        assert.equal((await t.request('get', `/v1/presets/${created.id}`)).body.recipeHash, current);
        const listed = (await t.request('get', '/v1/presets')).body.find((p: { id: string }) => p.id === created.id);
        assert.equal(listed.recipeHash, current);
        // A stored recipe that no longer validates keeps its stored hash; rendering it says why.
        await t.runtime
          .db('presets')
          .where({ id: created.id })
          .update({ recipe: JSON.stringify({ slug: SLUG, params: { points: 10_000 } }) });
        assert.equal((await t.request('get', `/v1/presets/${created.id}`)).body.recipeHash, '0'.repeat(64));
        const render = await t.request('get', `/v1/presets/${created.id}/render`);
        assert.equal(render.status, 400);
        assert.ok(render.body.issues.some((i: { path: string }) => i.path.startsWith('preset.recipe.params')));
      });

      test("404 not_found for an unknown preset and for another workspace's, indistinguishably", async () => {
        const missing = await t.request('get', '/v1/presets/pre_doesnotexist');
        const foreign = await t.request('get', `/v1/presets/${otherPresetId}`);
        assert.equal(missing.status, 404);
        assert.equal(foreign.status, 404);
        assert.equal(missing.body.code, 'not_found');
        assert.equal(foreign.body.code, 'not_found');
        assert.equal(foreign.body.title, missing.body.title);
        assert.ok(!foreign.text.includes('theirs'));
      });

      test('401 without credentials', async () => {
        assert.equal((await t.request('get', '/v1/presets/pre_x', { auth: false })).status, 401);
      });
    });

    describe('updatePreset', () => {
      test('200 name only: the recipe and its hash stay', async () => {
        const created = await create();
        const res = await t.request('patch', `/v1/presets/${created.id}`, { body: { name: 'renamed' } });
        assert.equal(res.status, 200);
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.equal(res.body.name, 'renamed');
        assert.deepEqual(res.body.recipe, created.recipe);
        assert.equal(res.body.recipeHash, created.recipeHash);
        assert.equal(res.body.createdAt, created.createdAt);
        assert.ok(Date.parse(res.body.updatedAt) > Date.parse(created.updatedAt));
        assert.deepEqual((await t.request('get', `/v1/presets/${created.id}`)).body, res.body);
      });

      test('200 recipe only: the recipe is replaced as a whole, the name stays, the hash changes', async () => {
        const created = await create();
        const next = { slug: SLUG, params: { points: 3 }, size: small };
        const res = await t.request('patch', `/v1/presets/${created.id}`, { body: { recipe: next } });
        assert.equal(res.status, 200);
        assert.equal(res.body.name, created.name);
        assert.deepEqual(res.body.recipe, next);
        assert.notEqual(res.body.recipeHash, created.recipeHash);
        const rendered = await t.request('get', `/v1/presets/${created.id}/render`);
        assert.equal(rendered.headers['x-service-recipe-hash'], res.body.recipeHash);
        // The same recipe again gives the same hash back.
        const back = await t.request('patch', `/v1/presets/${created.id}`, { body: { recipe: recipe() } });
        assert.equal(back.body.recipeHash, created.recipeHash);
      });

      test('400 names the field; the preset is unchanged', async () => {
        const created = await create();
        const params = await t.request('patch', `/v1/presets/${created.id}`, {
          body: { name: 'nope', recipe: recipe({ params: { points: 1 } }) },
        });
        assert.equal(params.status, 400);
        assert.deepEqual(issuePaths(params.body), ['body.recipe.params.points']);
        const size = await t.request('patch', `/v1/presets/${created.id}`, {
          body: { recipe: recipe({ size: { width: 64, height: 5000 } }) },
        });
        assert.equal(size.status, 400);
        assert.deepEqual(issuePaths(size.body), ['body.recipe.size.height']);
        const empty = await t.request('patch', `/v1/presets/${created.id}`, { body: {} });
        assert.equal(empty.status, 400);
        const unknown = await t.request('patch', `/v1/presets/${created.id}`, { body: { recipe: { slug: 'no-such-generator' } } });
        assert.equal(unknown.status, 404);
        assert.equal(unknown.body.code, 'generator_not_found');
        assert.deepEqual((await t.request('get', `/v1/presets/${created.id}`)).body, created);
      });

      test("404 for an unknown preset and for another workspace's; theirs is unchanged", async () => {
        assert.equal((await t.request('patch', '/v1/presets/pre_doesnotexist', { body: { name: 'x' } })).status, 404);
        const foreign = await t.request('patch', `/v1/presets/${otherPresetId}`, { body: { name: 'mine now' } });
        assert.equal(foreign.status, 404);
        assert.equal(foreign.body.code, 'not_found');
        const theirs = await t.request('get', `/v1/presets/${otherPresetId}`, { headers: bearer(otherSecret), auth: false });
        assert.equal(theirs.body.name, 'theirs');
      });
    });

    describe('deletePreset', () => {
      test('204, then 404 everywhere', async () => {
        const created = await create();
        const res = await t.request('delete', `/v1/presets/${created.id}`);
        assert.equal(res.status, 204);
        assert.equal(res.text, '');
        for (const [method, url] of [
          ['get', `/v1/presets/${created.id}`],
          ['delete', `/v1/presets/${created.id}`],
          ['get', `/v1/presets/${created.id}/render`],
        ] as const) {
          const gone = await t.request(method, url);
          assert.equal(gone.status, 404, `${method} ${url}`);
          assert.equal(gone.body.code, 'not_found');
        }
        assert.equal((await t.request('patch', `/v1/presets/${created.id}`, { body: { name: 'x' } })).status, 404);
        assert.ok(!(await t.request('get', '/v1/presets')).body.some((p: { id: string }) => p.id === created.id));
      });

      test("404 for another workspace's preset; it survives", async () => {
        const res = await t.request('delete', `/v1/presets/${otherPresetId}`);
        assert.equal(res.status, 404);
        assert.equal(res.body.code, 'not_found');
        assert.equal((await t.request('get', `/v1/presets/${otherPresetId}`, { headers: bearer(otherSecret), auth: false })).status, 200);
      });

      test('401 without credentials', async () => {
        assert.equal((await t.request('delete', '/v1/presets/pre_x', { auth: false })).status, 401);
      });
    });

    describe('renderPreset', () => {
      test('200 bytes and headers identical to POST /v1/generate/{slug}; HIT the second time', async () => {
        const r = recipe({ seed: 4242, params: { points: 6 }, format: 'webp' });
        const created = await create({ name: 'render me', recipe: r });
        const first = await t.request('get', `/v1/presets/${created.id}/render`);
        assert.equal(first.status, 200, first.text);
        assert.equal(first.headers['content-type'], 'image/webp');
        assert.equal(first.headers['x-service-recipe-hash'], created.recipeHash);
        assert.equal(first.headers.etag, `"${created.recipeHash}"`);
        assert.equal(first.headers['cache-control'], 'private, max-age=31536000, immutable');
        const { slug, ...body } = r;
        const generated = await t.request('post', `/v1/generate/${slug}`, { body });
        assert.equal(generated.status, 200);
        assert.ok(Buffer.isBuffer(first.body) && first.body.equals(generated.body), 'identical bytes');
        for (const h of ['x-service-recipe-hash', 'x-service-recipe', 'x-service-engine', 'etag', 'cache-control', 'content-type']) {
          assert.equal(first.headers[h], generated.headers[h], h);
        }
        const second = await t.request('get', `/v1/presets/${created.id}/render`);
        assert.equal(second.status, 200);
        assert.equal(second.headers['x-service-cache'], 'HIT');
        assert.ok(second.body.equals(first.body));
      });

      test('304 with If-None-Match', async () => {
        const created = await create();
        const res = await t.request('get', `/v1/presets/${created.id}/render`, {
          headers: { 'If-None-Match': `W/"other", "${created.recipeHash}"` },
        });
        assert.equal(res.status, 304);
        assert.equal(res.headers.etag, `"${created.recipeHash}"`);
        const other = await t.request('get', `/v1/presets/${created.id}/render`, { headers: { 'If-None-Match': '"nope"' } });
        assert.equal(other.status, 200);
      });

      test("404 for an unknown preset and for another workspace's", async () => {
        const missing = await t.request('get', '/v1/presets/pre_doesnotexist/render');
        const foreign = await t.request('get', `/v1/presets/${otherPresetId}/render`);
        assert.equal(missing.status, 404);
        assert.equal(foreign.status, 404);
        assert.equal(foreign.body.code, missing.body.code);
        assert.equal(foreign.body.title, missing.body.title);
        assert.equal(foreign.headers['x-service-recipe-hash'], undefined);
      });

      test('401 without credentials', async () => {
        assert.equal((await t.request('get', '/v1/presets/pre_x/render', { auth: false })).status, 401);
      });
    });

    test('presets go with their workspace (cascade)', async () => {
      const ws = 'ws_presets_cascade';
      await t.runtime.deps.services.workspaces.ensure({ id: ws, name: 'Gone', kind: 'personal', createdAt: Date.now() });
      const created = await t.runtime.deps.services.presets.create(ws, { name: 'x', recipe: { slug: SLUG } });
      await t.runtime.db('api_keys').where({ workspace_id: ws }).delete();
      await t.runtime.db('workspaces').where({ id: ws }).delete();
      assert.equal(await t.runtime.db('presets').where({ id: created.id }).first(), undefined);
    });
  });
}
