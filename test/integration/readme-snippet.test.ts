// The recipe-URL snippet (docs/recipes-and-rendering.md, marked `recipe-url`), run as written against
// the service (on SQLite): its hash must equal the server's X-Service-Recipe-Hash for the same
// render, and its URL must render.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { ONE_ENGINE } from '../support/black-box/databases.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { readmeSnippets, snippetLocation } from '../support/readme-snippets.ts';
import { ROOT } from '../support/black-box/server-process.ts';

/** The recipe-URL snippet (marked `recipe-url`), wherever the README or docs/ keep it. */
function readmeSnippet(): string {
  const block = readmeSnippets().get('recipe-url');
  assert.ok(block, 'the README or a page under docs/ has the recipe-URL snippet (<!-- snippet: recipe-url -->)');
  return block;
}

for (const engine of ONE_ENGINE) {
  describe(`recipe-URL snippet (${snippetLocation('recipe-url')}) on ${engine}`, () => {
    let t: TestApp;
    let port: number;
    // Inside the repository, so the snippet's `import 'canonicalize'` resolves as it would for a client.
    const dir = mkdtempSync(path.join(ROOT, '.readme-snippet-'));
    before(async () => {
      t = await startTestApp(engine);
      ({ port } = await t.listen());
    });
    after(async () => {
      rmSync(dir, { recursive: true, force: true });
      await t?.close();
    });

    test('its hash is the server hash of the same render, and its URL renders', async () => {
      const source = readmeSnippet();
      assert.match(source, /const service = 'http:\/\/127\.0\.0\.1:8080';/);
      const file = path.join(dir, 'snippet.mts');
      writeFileSync(
        file,
        `${source.replace('http://127.0.0.1:8080', `http://127.0.0.1:${port}`)}\nconsole.log(JSON.stringify({ hash, url }));\n`,
      );
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, timeout: 30_000 });
      const { hash, url } = JSON.parse(stdout) as { hash: string; url: string };

      const served = await t.request('post', '/v1/generate/mesh-gradient', {
        body: { seed: 7, size: { width: 800, height: 450, pixelRatio: 1 }, format: 'png' },
      });
      assert.equal(served.status, 200);
      assert.equal(served.headers['x-service-recipe-hash'], hash);
      const viaUrl = await t.request('get', url);
      assert.equal(viaUrl.status, 200);
      assert.equal(viaUrl.headers['x-service-recipe-hash'], hash);
      assert.equal(viaUrl.headers['x-service-cache'], 'HIT');
    });
  });
}
