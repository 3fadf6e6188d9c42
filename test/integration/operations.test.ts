// getHealth, getReady, listGenerators, getGenerator, getOpenApiDocument, getApiReference — on SQLite
// (database-outage.test.ts answers getReady on a Postgres that goes away).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ONE_ENGINE } from '../support/black-box/databases.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

for (const engine of ONE_ENGINE) {
  describe(`operational routes on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine);
    });
    after(async () => t?.close());

    test('getHealth 200 reports all five fields without credentials', async () => {
      const res = await t.request('get', '/v1/health', { auth: false });
      assert.equal(res.status, 200);
      assert.equal(res.body.ok, true);
      assert.match(res.body.engineVersion, /^\d+\.\d+\.\d+$/);
      assert.match(res.body.rendererVersion, /canvas-.*\+sharp-.*\+ffmpeg-/);
      assert.equal(res.body.generators, t.runtime.deps.services.generators.size);
      assert.equal(res.body.revision, 'test-revision');
    });

    test('getReady 200 pings the database and runs ffmpeg', async () => {
      const res = await t.request('get', '/v1/ready', { auth: false });
      assert.equal(res.status, 200);
      assert.deepEqual(
        { ok: res.body.ok, database: res.body.database, ffmpeg: res.body.ffmpeg, blobStore: res.body.blobStore },
        { ok: true, database: true, ffmpeg: true, blobStore: true },
      );
    });

    test('listGenerators 200 is public and matches the registry', async () => {
      const res = await t.request('get', '/v1/generators', { auth: false });
      assert.equal(res.status, 200);
      assert.deepEqual(
        res.body.map((g: { slug: string }) => g.slug),
        t.runtime.deps.services.generators.list().map((g) => g.slug),
      );
    });

    test('getGenerator 404 for an unknown slug', async () => {
      const res = await t.request('get', '/v1/generators/no-such-thing', { auth: false });
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'generator_not_found');
    });

    test('getOpenApiDocument 200 serves the same contract', async () => {
      const res = await t.request('get', '/v1/openapi.json', { auth: false });
      assert.equal(res.status, 200);
      assert.equal(res.body.openapi, '3.1.0');
      assert.equal(res.body.info.version, '0.4.0');
      assert.ok(res.body.paths['/v1/generate/{slug}'].post);
    });

    test('getApiReference 200 is self-contained: no third-party URL is loaded', async () => {
      const res = await t.request('get', '/v1/reference', { auth: false });
      assert.equal(res.status, 200);
      assert.match(res.headers['content-type'], /^text\/html/);
      assert.doesNotMatch(res.text, /(src|href)=["']?https?:/);
      assert.match(res.headers['content-security-policy'], /default-src 'self'/);
      const bundle = await t.request('get', '/assets/redoc.standalone.js', { auth: false });
      assert.equal(bundle.status, 200);
      assert.match(bundle.headers['content-type'], /javascript/);
      assert.ok(Number(bundle.headers['content-length']) > 100_000);
      // Redoc's own footer logo would come from its CDN (blocked by the CSP): it is served inline.
      assert.doesNotMatch(bundle.body.toString(), /https:\/\/cdn\.redoc\.ly/);
    });

    test('getReady 503 with the same body when the database is gone', async () => {
      const broken = await startTestApp(engine);
      await broken.runtime.db.destroy();
      const res = await broken.request('get', '/v1/ready', { auth: false });
      assert.equal(res.status, 503);
      assert.equal(res.body.ok, false);
      assert.equal(res.body.database, false);
      assert.equal(res.body.ffmpeg, true);
      assert.equal(res.body.code, 'not_ready');
      assert.equal(res.headers['retry-after'], '5');
      await broken.close().catch(() => {});
    });
  });
}
