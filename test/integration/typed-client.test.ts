// The typed client the playground's "Copy TypeScript" snippet and the README show: openapi-fetch
// over the types openapi-typescript generates from /v1/openapi.json (here: codegen/openapi.ts, the
// same generation). The snippet's calls, run against a listening service: a render's bytes and
// headers, a problem body on error, and JSON operations typed end to end.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import createClient from 'openapi-fetch';
import type { paths } from '../../codegen/openapi.ts';
import { ONE_ENGINE } from '../support/black-box/databases.ts';
import { startTestApp, TEST_LOCAL_KEY, type TestApp } from '../support/harness.ts';

for (const engine of ONE_ENGINE) {
  describe(`typed client (openapi-fetch) on ${engine}`, () => {
    let t: TestApp;
    let client: ReturnType<typeof createClient<paths>>;
    let baseUrl: string;
    before(async () => {
      t = await startTestApp(engine);
      baseUrl = `http://127.0.0.1:${(await t.listen()).port}`;
      client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${TEST_LOCAL_KEY}` } });
    });
    after(async () => {
      await t?.close();
    });

    test('POST /v1/generate/{slug} as the snippet writes it: the same bytes and headers as a plain request', async () => {
      const body = { seed: 7, size: { width: 96, height: 64 }, format: 'png' as const, params: { points: 5 } };
      const { data, error, response } = await client.POST('/v1/generate/{slug}', {
        params: { path: { slug: 'mesh-gradient' } },
        body,
        parseAs: 'arrayBuffer',
      });
      assert.equal(error, undefined);
      const bytes = new Uint8Array(data!);
      const plain = await fetch(`${baseUrl}/v1/generate/mesh-gradient`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TEST_LOCAL_KEY}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.ok(Buffer.from(bytes).equals(Buffer.from(await plain.arrayBuffer())));
      assert.match(response.headers.get('X-Service-Recipe-Hash') ?? '', /^[0-9a-f]{64}$/);
      assert.equal(response.headers.get('X-Service-Recipe-Hash'), plain.headers.get('X-Service-Recipe-Hash'));
    });

    test('an error arrives as the typed problem (code, detail, issues naming the field)', async () => {
      const { data, error, response } = await client.POST('/v1/generate/{slug}', {
        params: { path: { slug: 'mesh-gradient' } },
        body: { size: { width: 5, height: 64 } },
        parseAs: 'arrayBuffer',
      });
      assert.equal(data, undefined);
      assert.equal(response.status, 400);
      assert.equal(error?.code, 'validation_failed');
      assert.ok(error?.issues?.some((i) => i.path === 'body.size.width'));
    });

    test('JSON operations: generators, a job submitted and read back', async () => {
      const { data: generators } = await client.GET('/v1/generators');
      assert.ok(generators!.some((g) => g.slug === 'plasma'));
      const { data: job, response } = await client.POST('/v1/jobs', {
        body: { slug: 'mesh-gradient', seed: 8, size: { width: 32, height: 32 } },
      });
      assert.equal(response.status, 202);
      const { data: again } = await client.GET('/v1/jobs/{id}', { params: { path: { id: job!.id } } });
      assert.equal(again!.id, job!.id);
    });
  });
}
