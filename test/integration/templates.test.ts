// Templates through HTTP on both databases: create (checked whole), versions (immutable: a version
// renders the same bytes after the template changed twice), list, get, delete, and rendering a
// template as a generator on every path — POST /v1/generate/{templateId}, its recipe URL, a signed
// URL without credentials, a batch item, an export job, a preset — with another workspace's
// credentials answering 404 on each. The starter templates (starters/*.json) go in unchanged.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Sharp from 'sharp';
import { after, before, describe, test } from 'node:test';
import { MAX_TEMPLATES, type TemplateInput } from '../../src/services/templates.service.ts';
import { LOCAL_WORKSPACE_ID } from '../../src/services/auth.service.ts';
import { ENGINES } from '../support/black-box/databases.ts';
import { strictlyIncreasingClock } from '../support/clocks.ts';
import { fonts, images } from '../support/asset-files.ts';
import { waitForJob } from '../support/events.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

/** The starter templates shipped with the service (docs/templates.md, "Starters"), and their sample assets. */
const STARTERS = new URL('../../starters/', import.meta.url);
const sharp = createRequire(import.meta.url)('sharp') as typeof Sharp;

const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });
const issuePaths = (body: { issues?: { path: string }[] }) => (body.issues ?? []).map((i) => i.path);

/** A small card: a background, a shape and a title from a variable. */
const card = (background: string, extra: Record<string, unknown> = {}) => ({
  name: 'Card',
  size: { width: 120, height: 63 },
  variables: {
    type: 'object',
    properties: { title: { type: 'string', maxLength: 80, default: 'Hello' } },
  },
  layers: [
    { id: 'background', kind: 'fill', color: background },
    { id: 'badge', kind: 'shape', shape: 'ellipse', box: { x: 8, y: 8, width: 24, height: 24 }, fill: '#ffffff' },
    {
      id: 'title',
      kind: 'text',
      text: '{{title}}',
      box: { x: 8, y: 36, width: 104, height: 20 },
      color: '#ffffff',
      fit: { max: 16, min: 8 },
    },
  ],
  ...extra,
});

for (const engine of ENGINES) {
  describe(`templates on ${engine}`, () => {
    let t: TestApp;
    let otherSecret: string;

    const create = async (body: Record<string, unknown> = card('#1e3a8a')) => {
      const res = await t.request('post', '/v1/templates', { body });
      assert.equal(res.status, 201, res.text);
      return res.body as { id: string; version: number };
    };
    const render = (slug: string, body: Record<string, unknown> = {}, headers?: Record<string, string>) =>
      t.request('post', `/v1/generate/${slug}`, { body: { format: 'png', ...body }, ...(headers ? { headers, auth: false } : {}) });

    before(async () => {
      t = await startTestApp(engine, { compose: { clock: strictlyIncreasingClock() } });
      const ws = 'ws_templates_other';
      await t.runtime.deps.services.workspaces.ensure({ id: ws, name: 'Other', kind: 'personal', createdAt: Date.now() });
      otherSecret = (await t.runtime.deps.services.keys.create(ws, 'theirs')).secret;
    });
    after(async () => t?.close());

    test('createTemplate: 201 at version 1 with Location and no-store; getTemplate and getTemplateVersion answer it', async () => {
      const res = await t.request('post', '/v1/templates', { body: card('#1e3a8a') });
      assert.equal(res.status, 201, res.text);
      assert.match(res.body.id, /^tpl_[0-9A-Za-z]{20}$/);
      assert.equal(res.headers.location, `/v1/templates/${res.body.id}`);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.equal(res.body.version, 1);
      assert.deepEqual(res.body.size, { width: 120, height: 63 });
      assert.equal(res.body.layers.length, 3);
      assert.deepEqual(
        res.body.versions.map((v: { version: number }) => v.version),
        [1],
      );
      const got = await t.request('get', `/v1/templates/${res.body.id}`);
      assert.equal(got.status, 200);
      assert.deepEqual(got.body, res.body);
      const v1 = await t.request('get', `/v1/templates/${res.body.id}/versions/1`);
      assert.equal(v1.status, 200);
      assert.equal(v1.body.templateId, res.body.id);
      assert.deepEqual(v1.body.layers, res.body.layers);
      assert.equal((await t.request('get', `/v1/templates/${res.body.id}/versions/2`)).status, 404);
    });

    test('400 names the field: the shape by the contract, the rest as invalid_template', async () => {
      const noKind = await t.request('post', '/v1/templates', {
        body: { ...card('#000000'), layers: [{ id: 'x', box: { x: 0, y: 0, width: 1, height: 1 } }] },
      });
      assert.equal(noKind.status, 400);
      const badVariables = await t.request('post', '/v1/templates', {
        body: card('#000000', { variables: { type: 'object', properties: { title: { type: 'string' }, n: { type: 'integr' } } } }),
      });
      assert.equal(badVariables.status, 400);
      assert.equal(badVariables.body.code, 'invalid_template');
      assert.deepEqual(issuePaths(badVariables.body), ['body.variables']);
      const foreignAsset = await t.request('post', '/v1/templates', {
        body: card('#000000', {
          layers: [{ id: 'logo', kind: 'image', asset: `ast_${'0'.repeat(32)}`, box: { x: 0, y: 0, width: 10, height: 10 } }],
        }),
      });
      assert.equal(foreignAsset.status, 400);
      assert.equal(foreignAsset.body.code, 'invalid_template');
      assert.deepEqual(issuePaths(foreignAsset.body), ['body.layers.0.asset']);
    });

    test('a version renders the same bytes after the template is updated twice; @n pins it, the bare id follows the latest', async () => {
      const { id } = await create(card('#1e3a8a'));
      const first = await render(id, { params: { title: 'Launch' } });
      assert.equal(first.status, 200, first.text);
      assert.equal(first.headers['content-type'], 'image/png');
      const recipe = JSON.parse(Buffer.from(first.headers['x-service-recipe'], 'base64url').toString('utf8'));
      assert.equal(recipe.generator, id);
      assert.equal(recipe.version, '1');
      assert.deepEqual(recipe.size, { width: 120, height: 63, pixelRatio: 1 }, "a recipe without a size renders at the template's");
      assert.deepEqual(recipe.assets, {});
      const recipeUrl = `/v1/render/${first.headers['x-service-recipe-hash']}?r=${first.headers['x-service-recipe']}`;

      for (const background of ['#7c2d12', '#14532d']) {
        const res = await t.request('put', `/v1/templates/${id}`, { body: card(background) });
        assert.equal(res.status, 200, res.text);
      }
      const latest = await t.request('get', `/v1/templates/${id}`);
      assert.equal(latest.body.version, 3);
      assert.deepEqual(
        latest.body.versions.map((v: { version: number }) => v.version),
        [1, 2, 3],
      );
      const again = await render(`${id}@1`, { params: { title: 'Launch' } });
      assert.equal(again.status, 200);
      assert.ok(Buffer.from(again.body).equals(Buffer.from(first.body)), 'version 1 gives the same bytes');
      assert.equal(again.headers['x-service-recipe-hash'], first.headers['x-service-recipe-hash']);
      const viaUrl = await t.request('get', recipeUrl);
      assert.equal(viaUrl.status, 200, viaUrl.text);
      assert.ok(Buffer.from(viaUrl.body).equals(Buffer.from(first.body)), 'its recipe URL too');
      const now = await render(id, { params: { title: 'Launch' } });
      assert.equal(JSON.parse(Buffer.from(now.headers['x-service-recipe'], 'base64url').toString('utf8')).version, '3');
      assert.ok(!Buffer.from(now.body).equals(Buffer.from(first.body)), 'the latest version is another picture');
    });

    test('a generator layer draws with the version it pins: the current one, stored when none is given; a superseded one its own picture', async () => {
      const layer = (version?: string) => ({ id: 'shape', kind: 'generator', slug: 'blob', ...(version ? { version } : {}) });
      const pinnedNow = await create(card('#111827', { layers: [layer()] }));
      const stored = await t.request('get', `/v1/templates/${pinnedNow.id}/versions/1`);
      assert.equal(stored.status, 200, stored.text);
      const current = (await t.request('get', '/v1/generators/blob')).body.version;
      assert.deepEqual(stored.body.layers, [{ ...layer(), version: current }]);
      const old = await create(card('#111827', { layers: [layer('1.0.0')] }));
      const [now, then] = await Promise.all([render(pinnedNow.id, {}), render(old.id, {})]);
      assert.equal(then.status, 200, then.text);
      assert.ok(!Buffer.from(then.body).equals(Buffer.from(now.body)), 'blob 1.0.0 draws its own picture');
      const unknown = await t.request('post', '/v1/templates', { body: card('#111827', { layers: [layer('9.9.9')] }) });
      assert.equal(unknown.status, 400);
      assert.deepEqual(issuePaths(unknown.body), ['body.layers.0.version']);
    });

    test('variables are checked against the template schema; the size must keep its aspect ratio', async () => {
      const { id } = await create();
      const long = await render(id, { params: { title: 'x'.repeat(81) } });
      assert.equal(long.status, 400);
      assert.equal(long.body.code, 'invalid_params');
      assert.deepEqual(issuePaths(long.body), ['body.params.title']);
      const squashed = await render(id, { size: { width: 120, height: 120 } });
      assert.equal(squashed.status, 400);
      assert.deepEqual(issuePaths(squashed.body), ['body.size']);
      const half = await render(id, { size: { width: 60, height: 32 } });
      assert.equal(half.status, 200, half.text);
    });

    test("another workspace's credentials: 404 template_not_found on every path, as for a missing template", async () => {
      const { id } = await create();
      const mine = await render(id);
      assert.equal(mine.status, 200);
      const theirs = await render(id, {}, bearer(otherSecret));
      assert.equal(theirs.status, 404);
      assert.equal(theirs.body.code, 'template_not_found');
      const url = `/v1/render/${mine.headers['x-service-recipe-hash']}?r=${mine.headers['x-service-recipe']}`;
      const theirUrl = await t.request('get', url, { headers: bearer(otherSecret), auth: false });
      assert.equal(theirUrl.status, 404);
      assert.equal(theirUrl.body.code, 'template_not_found');
      for (const path of [`/v1/templates/${id}`, `/v1/templates/${id}/versions/1`]) {
        const res = await t.request('get', path, { headers: bearer(otherSecret), auth: false });
        assert.equal(res.status, 404);
        assert.equal(res.body.code, 'template_not_found');
      }
      const missing = await render('tpl_doesnotexist');
      assert.equal(missing.status, 404);
      assert.equal(missing.body.code, 'template_not_found');
      const job = await t.request('post', '/v1/jobs', { body: { slug: id, format: 'png' }, headers: bearer(otherSecret), auth: false });
      assert.equal(job.status, 404);
    });

    test('a signed URL renders the template without credentials; a batch item, an export job and a preset render it too', async () => {
      const { id } = await create(card('#312e81'));
      const direct = await render(id, { params: { title: 'Signed' } });
      const key = await t.request('post', '/v1/url-signing-keys', { body: { label: 'embeds' } });
      assert.equal(key.status, 201);
      const signed = await t.request('post', `/v1/url-signing-keys/${key.body.id}/sign`, {
        body: { slug: id, params: { title: 'Signed' }, format: 'png' },
      });
      assert.equal(signed.status, 200, signed.text);
      assert.equal(signed.body.recipeHash, direct.headers['x-service-recipe-hash']);
      const target = new URL(signed.body.url);
      const anonymous = await t.request('get', `${target.pathname}${target.search}`, { auth: false });
      assert.equal(anonymous.status, 200, anonymous.text);
      assert.ok(Buffer.from(anonymous.body).equals(Buffer.from(direct.body)));

      const batch = await t.request('post', '/v1/batch', {
        body: {
          items: [
            { slug: id, params: { title: 'Signed' }, format: 'png' },
            { slug: 'tpl_missing', format: 'png' },
          ],
        },
      });
      assert.equal(batch.status, 200, batch.text);
      const [ok, missing] = batch.body.results;
      assert.equal(ok.ok, true);
      assert.equal(ok.hash, direct.headers['x-service-recipe-hash']);
      assert.equal(missing.ok, false);
      assert.equal(missing.code, 'template_not_found');

      const job = await t.request('post', '/v1/jobs', { body: { slug: id, params: { title: 'Signed' }, format: 'png' } });
      assert.equal(job.status, 202, job.text);
      const done = await waitForJob(t, job.body.id, ['completed', 'failed']);
      assert.equal(done.status, 'completed', JSON.stringify(done));
      const result = await t.request('get', `/v1/jobs/${job.body.id}/result`);
      assert.equal(result.status, 200);
      assert.ok(Buffer.from(result.body).equals(Buffer.from(direct.body)));

      const preset = await t.request('post', '/v1/presets', {
        body: { name: 'card', recipe: { slug: id, params: { title: 'Signed' }, format: 'png' } },
      });
      assert.equal(preset.status, 201, preset.text);
      assert.equal(preset.body.recipeHash, direct.headers['x-service-recipe-hash']);
      const viaPreset = await t.request('get', `/v1/presets/${preset.body.id}/render`);
      assert.equal(viaPreset.status, 200);
      assert.ok(Buffer.from(viaPreset.body).equals(Buffer.from(direct.body)));
    });

    test('uploaded assets: the recipe pins each one it draws (a fixed logo, a photo from a variable, a font); deleting or uploading again changes nothing', async () => {
      const upload = async (bytes: Buffer, contentType: string) => {
        const res = await t.request('post', '/v1/assets', { raw: bytes, headers: { 'Content-Type': contentType } });
        assert.ok(res.status === 201 || res.status === 200, res.text);
        return res.body as { id: string; sha256: string };
      };
      const logo = await upload(await images.png(), 'image/png');
      const photo = await upload(await images.webp(), 'image/webp');
      const font = await upload(await fonts.ttf(), 'font/ttf');
      const spec = {
        name: 'Branded',
        size: { width: 240, height: 126 },
        variables: {
          type: 'object',
          required: ['title'],
          properties: { title: { type: 'string', maxLength: 200 }, photo: { type: 'string' } },
        },
        layers: [
          { id: 'background', kind: 'generator', slug: 'mesh-gradient', seed: 7 },
          { id: 'logo', kind: 'image', asset: logo.id, box: { x: 12, y: 12, width: 32, height: 24 }, fit: 'contain' },
          { id: 'photo', kind: 'image', asset: '{{photo}}', box: { x: 196, y: 82, width: 32, height: 32 }, radius: 16 },
          {
            id: 'title',
            kind: 'text',
            text: '{{title}}',
            box: { x: 12, y: 44, width: 216, height: 36 },
            font: { asset: font.id },
            color: '#ffffff',
            fit: { max: 28, min: 12, maxLines: 2, overflow: 'error' },
          },
        ],
      };
      const created = await t.request('post', '/v1/templates', { body: spec });
      assert.equal(created.status, 201, created.text);
      const id = created.body.id as string;
      const body = { params: { title: 'Brand new', photo: photo.id } };
      const first = await render(id, body);
      assert.equal(first.status, 200, first.text);
      const recipe = JSON.parse(Buffer.from(first.headers['x-service-recipe'], 'base64url').toString('utf8'));
      assert.deepEqual(recipe.assets, { [logo.id]: logo.sha256, [photo.id]: photo.sha256, [font.id]: font.sha256 });

      // A photo variable must name one of the workspace's images; a title that cannot fit is refused, named.
      const notAnImage = await render(id, { params: { title: 'x', photo: font.id } });
      assert.equal(notAnImage.status, 400);
      assert.deepEqual(issuePaths(notAnImage.body), ['body.params.photo']);
      const tooLong = await render(id, {
        params: { title: 'A title far too long to fit two lines of this small box at twelve pixels, however it breaks', photo: photo.id },
      });
      assert.equal(tooLong.status, 400, tooLong.text);
      assert.equal(tooLong.body.code, 'invalid_params');
      assert.deepEqual(issuePaths(tooLong.body), ['body.params.title']);

      // Deleted, the logo cannot go into a new template, and the version that draws it renders the same bytes.
      assert.equal((await t.request('delete', `/v1/assets/${logo.id}`)).status, 204);
      const refused = await t.request('post', '/v1/templates', { body: spec });
      assert.equal(refused.status, 400);
      assert.deepEqual(issuePaths(refused.body), ['body.layers.1.asset']);
      const url = `/v1/render/${first.headers['x-service-recipe-hash']}?r=${first.headers['x-service-recipe']}`;
      const after = await t.request('get', url);
      assert.equal(after.status, 200, after.text);
      assert.ok(Buffer.from(after.body).equals(Buffer.from(first.body)));
      // Uploaded again, the same bytes are the same asset.
      const again = await upload(await images.png(), 'image/png');
      assert.equal(again.id, logo.id);
      const rendered = await render(id, body);
      assert.ok(Buffer.from(rendered.body).equals(Buffer.from(first.body)));
    });

    test('the starters go into a workspace as their files are: 201 each; the blog og:image renders with the sample assets uploaded', async () => {
      const upload = async (file: string, contentType: string) => {
        const res = await t.request('post', '/v1/assets', {
          raw: readFileSync(new URL(`assets/${file}`, STARTERS)),
          headers: { 'Content-Type': contentType },
        });
        assert.ok(res.status === 201 || res.status === 200, res.text);
        return (res.body as { id: string }).id;
      };
      const listed = await t.request('get', '/v1/template-starters');
      assert.equal(listed.status, 200, listed.text);
      assert.deepEqual(
        listed.body.map((s: { id: string }) => `${s.id}.json`).sort(),
        readdirSync(STARTERS)
          .filter((f) => f.endsWith('.json'))
          .sort(),
      );
      for (const starter of listed.body as { id: string; template: unknown }[])
        assert.deepEqual(
          starter.template,
          JSON.parse(readFileSync(new URL(`${starter.id}.json`, STARTERS), 'utf8')),
          'each as its file is',
        );
      const logo = await upload('logo.png', 'image/png');
      const photo = await upload('author.jpg', 'image/jpeg');
      await upload('product.webp', 'image/webp');
      const created = new Map<string, string>();
      const files = readdirSync(STARTERS).filter((f) => f.endsWith('.json'));
      assert.equal(files.length, 4);
      for (const file of files) {
        const res = await t.request('post', '/v1/templates', {
          raw: readFileSync(new URL(file, STARTERS), 'utf8'), // the file's text, sent as it is
          headers: { 'Content-Type': 'application/json' },
        });
        assert.equal(res.status, 201, `${file}: ${res.text}`);
        created.set(file, res.body.id);
      }
      const card = await render(created.get('blog-og-image.json')!, {
        params: { title: 'Starters, unchanged', author: 'Maya Lindqvist', logo, photo },
        size: { width: 240, height: 126 },
      });
      assert.equal(card.status, 200, card.text);
      assert.equal(card.headers['content-type'], 'image/png');
      const recipe = JSON.parse(Buffer.from(card.headers['x-service-recipe'], 'base64url').toString('utf8'));
      assert.deepEqual(Object.keys(recipe.assets).sort(), [logo, photo].sort());
    });

    test('previewTemplate: a draft draws what its saved version renders, free and unkept, with its text fits; refused as a save or a render would be', async () => {
      const draft = card('#1e3a8a');
      const preview = (body: Record<string, unknown>) => t.request('post', '/v1/templates/preview', { body: { template: draft, ...body } });
      const shown = await preview({ params: { title: 'Launch' }, format: 'png' });
      assert.equal(shown.status, 200, shown.text);
      assert.equal(shown.headers['content-type'], 'image/png');
      assert.equal(shown.headers['x-service-credits'], '0');
      assert.equal(shown.headers['cache-control'], 'no-store');
      assert.equal(shown.headers.etag, undefined, 'a preview is no recipe');
      assert.equal(shown.headers['x-service-recipe'], undefined);
      assert.match(shown.headers['x-service-text-fit'], /^"title";size=16;lines=1$/);
      const { id } = await create(draft);
      const saved = await render(id, { params: { title: 'Launch' } });
      const pixels = async (bytes: unknown) =>
        sharp(Buffer.from(bytes as Uint8Array))
          .raw()
          .toBuffer();
      assert.ok((await pixels(shown.body)).equals(await pixels(saved.body)), 'the same pixels as the saved version');
      const { services } = t.runtime.deps;
      const { resolved } = await services.recipes.resolveDraft(LOCAL_WORKSPACE_ID, draft as unknown as TemplateInput, {
        params: { title: 'Launch' },
        format: 'png',
      });
      assert.equal(await services.render.cached(resolved), undefined, 'nothing kept in the render cache');

      const long = await preview({
        params: { title: 'A title far too long for so small a box, cut at the smallest size' },
        format: 'webp',
      });
      assert.equal(long.status, 200, long.text);
      assert.equal(long.headers['content-type'], 'image/webp');
      assert.match(long.headers['x-service-text-fit'], /^"title";size=8;lines=\d+;overflow$/);
      const strict = await t.request('post', '/v1/templates/preview', {
        body: {
          template: {
            ...draft,
            layers: draft.layers.map((l) => (l.id === 'title' ? { ...l, fit: { max: 16, min: 8, overflow: 'error' } } : l)),
          },
          params: { title: 'A title far too long for so small a box, refused at the smallest size' },
        },
      });
      assert.equal(strict.status, 400);
      assert.equal(strict.body.code, 'invalid_params');
      assert.deepEqual(issuePaths(strict.body), ['body.params.title']);
      const foreign = await preview({
        template: {
          ...draft,
          layers: [{ id: 'logo', kind: 'image', asset: `ast_${'0'.repeat(32)}`, box: { x: 0, y: 0, width: 9, height: 9 } }],
        },
      });
      assert.equal(foreign.status, 400);
      assert.equal(foreign.body.code, 'invalid_template');
      assert.deepEqual(issuePaths(foreign.body), ['body.template.layers.0.asset']);
      const large = await preview({ size: { width: 1200, height: 630, pixelRatio: 2 } });
      assert.equal(large.status, 400);
      assert.equal(large.body.code, 'validation_failed');
      assert.deepEqual(issuePaths(large.body), ['body.size']);
      const gif = await preview({ format: 'gif' });
      assert.equal(gif.status, 400, 'a preview is a still');
      assert.deepEqual(issuePaths(gif.body), ['body.format']);
    });

    test(`409 conflict past ${MAX_TEMPLATES} templates; concurrent creates cannot overshoot`, async () => {
      const ws = 'ws_templates_limit';
      await t.runtime.deps.services.workspaces.ensure({ id: ws, name: 'Limit', kind: 'personal', createdAt: Date.now() });
      const { secret } = await t.runtime.deps.services.keys.create(ws, 'limit');
      const templates = t.runtime.deps.services.templates;
      const body = card('#000000');
      for (let i = 0; i < MAX_TEMPLATES - 2; i++) await templates.create(ws, { ...body, name: `t${i}` } as never);
      const racing = await Promise.all(
        Array.from({ length: 5 }, () => t.request('post', '/v1/templates', { body, headers: bearer(secret), auth: false })),
      );
      assert.deepEqual(racing.map((r) => r.status).sort(), [201, 201, 409, 409, 409]);
      assert.equal(racing.find((r) => r.status === 409)!.body.code, 'conflict');
    });

    test('listTemplates pages newest first; deleteTemplate makes the template and its recipes 404', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await create(card('#000000', { name: `page ${i}` }))).id);
      const first = await t.request('get', '/v1/templates?limit=2');
      assert.equal(first.status, 200);
      assert.deepEqual(
        first.body.map((x: { id: string }) => x.id),
        [ids[2], ids[1]],
      );
      const next = /<([^>]+)>; rel="next"/.exec(first.headers.link)![1]!;
      const second = await t.request('get', next);
      assert.equal(second.body[0].id, ids[0]);

      const rendered = await render(ids[0]!);
      const url = `/v1/render/${rendered.headers['x-service-recipe-hash']}?r=${rendered.headers['x-service-recipe']}`;
      const del = await t.request('delete', `/v1/templates/${ids[0]}`);
      assert.equal(del.status, 204);
      assert.equal((await t.request('delete', `/v1/templates/${ids[0]}`)).status, 404);
      assert.equal((await t.request('get', `/v1/templates/${ids[0]}`)).status, 404);
      assert.equal((await render(ids[0]!)).status, 404);
      const gone = await t.request('get', url);
      assert.equal(gone.status, 404);
      assert.equal(gone.body.code, 'template_not_found');
      const listed = await t.request('get', '/v1/templates?limit=100');
      assert.ok(!listed.body.some((x: { id: string }) => x.id === ids[0]));
    });
  });
}
