// Request validation reports every violation at once, naming each field. On SQLite: validation
// runs before any repository (the fuzz tier sends NUL and broken encodings to Postgres too).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ONE_ENGINE } from '../support/black-box/databases.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

for (const engine of ONE_ENGINE) {
  describe(`request validation on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine);
    });
    after(async () => t?.close());

    test('400 lists every body violation with its path', async () => {
      const res = await t.request('post', '/v1/generate/mesh-gradient', {
        body: { seed: -1, size: { width: 15, height: 4097, pixelRatio: 4 }, format: 'bmp', colour: 'red' },
      });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'validation_failed');
      const paths = res.body.issues.map((i: { path: string }) => i.path).sort();
      assert.deepEqual(paths, ['body.colour', 'body.format', 'body.seed', 'body.size.height', 'body.size.pixelRatio', 'body.size.width']);
      assert.match(res.body.detail, /body\.size\.width must be >= 16/);
    });

    test('400 names a missing required field and a bad query parameter', async () => {
      const missing = await t.request('post', '/v1/keys', { body: {} });
      assert.equal(missing.status, 400);
      assert.deepEqual(
        missing.body.issues.map((i: { path: string; message: string }) => [i.path, i.message]),
        [['body.label', 'is required']],
      );

      const query = await t.request('get', `/v1/render/${'a'.repeat(64)}?r=abc&w=5000&pr=9`);
      assert.equal(query.status, 400);
      assert.deepEqual(query.body.issues.map((i: { path: string }) => i.path).sort(), ['query.pr', 'query.w']);
    });

    test('numbers in query strings are plain decimals: 0x10, 1e0, +2 or a space are 400 naming the field, on the full and the lean path', async () => {
      const held = await t.request('post', '/v1/generate/mesh-gradient', { body: { seed: 5, size: { width: 16, height: 16 } } });
      assert.equal(held.status, 200);
      const base = `/v1/render/${held.headers['x-service-recipe-hash']}?r=${held.headers['x-service-recipe']}`;
      // The held render is a lean-path hit for w=16, so a lax parser there would answer 0x10 with 200.
      assert.equal((await t.request('get', `${base}&w=16`)).headers['x-service-cache'], 'HIT');
      for (const [name, value] of [
        ['w', '0x10'],
        ['w', '1.6e1'],
        ['h', '+16'],
        ['pr', '0x1'],
        ['pr', '1e0'],
        ['pr', '%201'],
      ]) {
        const res = await t.request('get', `${base}&${name}=${value}`);
        assert.equal(res.status, 400, `${name}=${value}: ${res.text}`);
        assert.deepEqual(
          res.body.issues.map((i: { path: string }) => i.path),
          [`query.${name}`],
        );
      }
      assert.equal((await t.request('get', `${base}&w=16&pr=1.0`)).status, 200);
      // The same rule on another operation's numbers.
      assert.equal((await t.request('get', '/v1/jobs?limit=0x10')).status, 400);
    });

    test('400 for a path parameter outside its pattern', async () => {
      const res = await t.request('get', '/v1/render/not-a-hash?r=abc');
      assert.equal(res.status, 400);
      assert.equal(res.body.issues[0].path, 'path.recipeHash');
    });

    test('400 naming the parameter for a path parameter that is not valid percent-encoding (not 500)', async () => {
      for (const [url, field] of [
        ['/v1/generators/%zz', 'path.slug'],
        ['/v1/jobs/%e0%a4', 'path.id'],
        ['/v1/presets/%/render', 'path.id'],
      ] as const) {
        const res = await t.request('get', url);
        assert.equal(res.status, 400, url);
        assert.equal(res.body.code, 'validation_failed', url);
        assert.deepEqual(
          res.body.issues.map((i: { path: string }) => i.path),
          [field],
          url,
        );
      }
    });

    test('400 naming the field for NUL (U+0000) in a path parameter, a query value or a JSON string, before any database sees it', async () => {
      const cases = [
        { method: 'get', url: '/v1/jobs/%00', field: 'path.id' },
        { method: 'delete', url: '/v1/keys/key%00x', field: 'path.id' },
        { method: 'get', url: '/v1/jobs?status=queued%00', field: 'query.status' },
        { method: 'get', url: '/v1/presets/%00/render', field: 'path.id' },
        { method: 'post', url: '/v1/keys', body: { label: 'a\u0000b' }, field: 'body.label' },
        {
          method: 'post',
          url: '/v1/presets',
          body: { name: 'p', recipe: { slug: 'mesh-gradient', params: { 'k\u0000': 1 } } },
          field: 'body.recipe.params',
        },
        { method: 'post', url: '/v1/billing/webhook', body: { id: 'evt\u0000' }, field: 'body.id', auth: false },
      ] as const;
      for (const c of cases) {
        const res = await t.request(c.method, c.url, { auth: !('auth' in c), ...('body' in c ? { body: c.body } : {}) });
        assert.equal(res.status, 400, `${c.method} ${c.url}`);
        assert.equal(res.body.code, 'validation_failed', `${c.method} ${c.url}`);
        assert.deepEqual(
          res.body.issues.map((i: { path: string }) => i.path),
          [c.field],
          `${c.method} ${c.url}`,
        );
      }
    });

    test('a body nested 100 000 levels deep (within the 1 MiB limit) is a 400, not a crash or 500', async () => {
      const depth = 100_000;
      const objects = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      const arrays = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      for (const [url, raw] of [
        ['/v1/generate/mesh-gradient', `{"size":{"width":16,"height":16},"params":${objects}}`],
        ['/v1/presets', `{"name":"deep","recipe":{"slug":"mesh-gradient","params":{"a":${arrays}}}}`],
        ['/v1/keys', `{"label":${arrays}}`],
      ] as const) {
        const res = await t.request('post', url, { headers: { 'Content-Type': 'application/json' }, raw });
        assert.equal(res.status, 400, url);
      }
    });

    test('400 for a batch over 50 items', async () => {
      const items = Array.from({ length: 51 }, () => ({ slug: 'mesh-gradient' }));
      const res = await t.request('post', '/v1/batch', { body: { items } });
      assert.equal(res.status, 400);
      assert.equal(res.body.issues[0].path, 'body.items');
    });
  });
}
