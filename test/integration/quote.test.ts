// POST /v1/quote prices a render, a batch or a job by the rule the real call charges by, without
// rendering, reserving or charging. In hosted mode (Postgres, where credits are real): over the whole
// catalogue — every generator in every format it offers — a quote's credits are the X-Service-Credits
// the render then charges, and a quote after it says `cached: true` at the hit's price; a batch's quote
// is what the batch takes from the balance, a job's what its submission holds; a template quotes as a
// generator does; and quoting leaves the ledger and the render cache as they were. In local mode
// (SQLite; credits are 0 there, the rest is the same code): the problems are the real call's, named
// under body.render / body.batch / body.job, and `fitsSyncBudget` false is a real 504.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CreditsRepository } from '../../db/repositories/credits.repository.ts';
import { isMotionFormat, type OutputFormat } from '../../src/lib/formats.ts';
import { renderCost } from '../../src/services/pricing.ts';
import { HOSTED_ENV, startTestApp, type TestApp, workspaceKey } from '../support/harness.ts';

interface Generator {
  slug: string;
  formats: OutputFormat[];
}
type Body = Record<string, unknown>;

const issuePaths = (body: { issues?: { path: string }[] }) => (body.issues ?? []).map((i) => i.path);

/** Counts the renders the app's pool starts, and its render cache's writes, while `run` runs. */
async function renderedDuring(t: TestApp, run: () => Promise<void>): Promise<{ renders: number; cacheWrites: number }> {
  const pool = t.runtime.deps.services.render as unknown as { pool: { render: (...args: unknown[]) => unknown } };
  const cache = t.runtime.deps.services.render as unknown as { cache: { put: (...args: unknown[]) => unknown } };
  const counts = { renders: 0, cacheWrites: 0 };
  const render = pool.pool.render;
  const put = cache.cache.put;
  pool.pool.render = function (this: unknown, ...args: unknown[]) {
    counts.renders++;
    return render.apply(this, args);
  };
  cache.cache.put = function (this: unknown, ...args: unknown[]) {
    counts.cacheWrites++;
    return put.apply(this, args);
  };
  try {
    await run();
  } finally {
    pool.pool.render = render;
    cache.cache.put = put;
  }
  return counts;
}

describe('quotes in hosted mode (postgres): the quote is the charge', () => {
  let t: TestApp;
  let secret: string;
  const ws = 'ws_quotes';
  const auth = () => ({ auth: false as const, headers: { Authorization: `Bearer ${secret}` } });
  const quote = (body: Body) => t.request('post', '/v1/quote', { ...auth(), body });
  const available = async () => (await t.request('get', '/v1/me', auth())).body.balance.available as number;

  before(async () => {
    // No synchronous budget to race: the catalogue's animations render directly at any load (at load 25 a
    // 128×128 particle-flow gif passed the default 20 s); the budget's own test is below, in local mode.
    t = await startTestApp('postgres', { env: { ...HOSTED_ENV, ANIMATION_BUDGET_MS: '600000', RENDER_TIMEOUT_MS: '600000' } });
    secret = await workspaceKey(t, { id: ws, name: 'Quotes' }, 'quotes');
    await t.runtime.deps.services.credits.add({
      workspaceId: ws,
      amount: 100_000,
      kind: 'grant',
      id: 'grant_quotes',
      reference: 'test',
      description: 'grant',
    });
  });
  after(async () => t?.close());

  test('over the whole catalogue, every generator in every format: the quote is what the render charges, then a hit at 0', async () => {
    const generators = (await t.request('get', '/v1/generators', { auth: false })).body as Generator[];
    assert.ok(generators.length >= 20, `${generators.length} generators`);
    let seed = 1;
    let quoted = 0;
    let first: { slug: string; body: Body } | undefined;
    const start = await available();
    for (const gen of generators) {
      for (const format of gen.formats) {
        // Past one million pixel-frames, so a price is more than the minimum: png 1040×1040 device
        // pixels, animations 128×128 × their default frames (gif counted like mp4: every frame drawn).
        // The other stills price by the same pixels as png: small, they cost the suite less.
        const size = isMotionFormat(format)
          ? { width: 128, height: 128 }
          : format === 'png'
            ? { width: 520, height: 520, pixelRatio: 2 }
            : { width: 96, height: 64 };
        const body = { seed: seed++, size, format };
        first ??= { slug: gen.slug, body };
        const what = `${gen.slug} ${format}`;
        const q = await quote({ render: { slug: gen.slug, ...body } });
        assert.equal(q.status, 200, `${what}: ${q.text}`);
        assert.equal(q.headers['cache-control'], 'no-store');
        assert.equal(q.body.cached, false, what);
        const rendered = await t.request('post', `/v1/generate/${gen.slug}`, { ...auth(), body });
        assert.equal(rendered.status, 200, `${what}: ${rendered.text}`);
        assert.equal(rendered.headers['x-service-cache'], 'MISS', what);
        assert.equal(q.body.credits, Number(rendered.headers['x-service-credits']), what);
        assert.equal(q.body.hash, rendered.headers['x-service-recipe-hash'], what);
        const resolved = t.runtime.deps.services.render.resolve(gen.slug, body);
        assert.equal(q.body.credits, renderCost(resolved), what);
        if (resolved.frames > 1) assert.equal(q.body.frames, resolved.frames, what);
        else assert.equal(q.body.frames, undefined, what);
        assert.equal(q.body.pixels, resolved.deviceWidth * resolved.deviceHeight * resolved.frames, what);
        assert.ok(q.body.estimatedMs > 0, what);
        // Rendered now: a hit, at the price of a hit.
        const again = await quote({ render: { slug: gen.slug, ...body } });
        assert.deepEqual(
          [again.body.cached, again.body.credits, again.body.estimatedMs, again.body.fitsSyncBudget],
          [true, 0, 0, true],
          what,
        );
        quoted += q.body.credits;
      }
    }
    const hit = await t.request('post', `/v1/generate/${first!.slug}`, { ...auth(), body: first!.body });
    assert.deepEqual([hit.headers['x-service-cache'], hit.headers['x-service-credits']], ['HIT', '0']);
    assert.ok(quoted > generators.length, `${quoted} credits: more than one a render somewhere`);
    assert.equal(start - (await available()), quoted, 'the balance went down by the quotes, exactly');
  });

  test('quoting renders, reserves and charges nothing: the ledger and the render cache are as they were', async () => {
    const ledger = new CreditsRepository(t.runtime.db);
    const entries = (await ledger.entries(ws)).length;
    const balance = await available();
    const recipe = { slug: 'plasma', seed: 77, size: { width: 320, height: 180 }, format: 'mp4', params: { duration: 2, fps: 12 } };
    const counts = await renderedDuring(t, async () => {
      assert.equal((await quote({ render: recipe })).status, 200);
      assert.equal((await quote({ job: recipe })).status, 200);
      assert.equal((await quote({ batch: { items: [recipe, { ...recipe, format: 'gif' }] } })).status, 200);
    });
    assert.deepEqual(counts, { renders: 0, cacheWrites: 0 });
    const { slug, ...input } = recipe;
    const resolved = t.runtime.deps.services.render.resolve(slug, input as Body);
    assert.equal(await t.runtime.deps.services.render.cached(resolved), undefined, 'nothing in the render cache');
    assert.equal((await ledger.entries(ws)).length, entries, 'no ledger entry');
    assert.equal(await available(), balance);
  });

  test('a batch: each distinct item priced once, failures as the batch reports them; the batch then takes exactly that', async () => {
    const item = (seed: number, format = 'png') => ({ slug: 'mesh-gradient', seed, size: { width: 1280, height: 1000 }, format });
    // A duplicate (rendered once), an svg (one credit), a bad item and an unknown generator.
    const items = [
      item(5001),
      item(5002, 'webp'),
      item(5001),
      item(5003, 'svg'),
      { slug: 'blob', seed: -1 },
      { slug: 'no-such-generator' },
    ];
    const q = await quote({ batch: { items } });
    assert.equal(q.status, 200, q.text);
    const [first, second, duplicate, svg, bad, unknown] = q.body.items;
    assert.deepEqual([first.credits, second.credits, duplicate.credits, svg.credits], [2, 2, 0, 1]);
    assert.equal(duplicate.duplicateOf, 0);
    assert.equal(duplicate.hash, first.hash);
    assert.equal(q.body.credits, 5);
    assert.equal(q.body.pixels, 3 * 1280 * 1000, 'distinct items, counted once');
    assert.deepEqual([bad.ok, bad.code, issuePaths(bad)], [false, 'validation_failed', ['body.batch.items.4.seed']]);
    assert.deepEqual([unknown.ok, unknown.code], [false, 'generator_not_found']);

    const start = await available();
    const batch = await t.request('post', '/v1/batch', { ...auth(), body: { items } });
    assert.equal(batch.status, 200, batch.text);
    assert.equal(start - (await available()), q.body.credits, 'the batch took what its quote said');
    for (const [i, result] of batch.body.results.entries()) {
      assert.equal(result.ok, q.body.items[i].ok, `item ${i}`);
      if (result.ok) assert.equal(result.hash, q.body.items[i].hash, `item ${i}`);
      else assert.equal(result.code, q.body.items[i].code, `item ${i}`);
    }
    assert.deepEqual(issuePaths(batch.body.results[4]), ['body.items.4.seed']);
    // All rendered now: the same batch is free.
    const again = await quote({ batch: { items } });
    assert.deepEqual([again.body.credits, again.body.cached], [0, true]);
  });

  test('a job: the quote is what its submission holds (and then charges); a cached result quotes 0', async () => {
    const job = { slug: 'plasma', seed: 9, size: { width: 256, height: 144 }, format: 'mp4', params: { duration: 2, fps: 24 } };
    const q = await quote({ job });
    assert.equal(q.status, 200, q.text);
    assert.equal(q.body.credits, 2);
    assert.equal(q.body.frames, 48);
    const start = await available();
    const created = await t.request('post', '/v1/jobs', { ...auth(), body: job });
    assert.equal(created.status, 202, created.text);
    assert.equal(created.body.recipeHash, q.body.hash);
    // Held at submission, committed when it completes: either way gone from what is available.
    assert.equal(start - (await available()), q.body.credits);
    // Rendered by the batch above: an export of it holds nothing.
    const cached = await quote({ job: { generator: 'mesh-gradient', seed: 5001, size: { width: 1280, height: 1000 }, format: 'png' } });
    assert.deepEqual([cached.status, cached.body.credits, cached.body.cached], [200, 0, true]);
  });

  test('a template (tpl_…) quotes as a generator does, and another workspace’s is 404 as its render is', async () => {
    const created = await t.request('post', '/v1/templates', {
      ...auth(),
      body: {
        name: 'Quoted card',
        size: { width: 1200, height: 1000 },
        layers: [
          { id: 'background', kind: 'fill', color: '#1e3a8a' },
          { id: 'dot', kind: 'shape', shape: 'ellipse', box: { x: 100, y: 100, width: 300, height: 300 }, fill: '#ffffff' },
        ],
      },
    });
    assert.equal(created.status, 201, created.text);
    const id = created.body.id as string;
    const q = await quote({ render: { slug: id, format: 'png' } });
    assert.equal(q.status, 200, q.text);
    assert.equal(q.body.credits, 2);
    const rendered = await t.request('post', `/v1/generate/${id}`, { ...auth(), body: { format: 'png' } });
    assert.equal(rendered.status, 200, rendered.text);
    assert.equal(rendered.headers['x-service-credits'], String(q.body.credits));
    assert.equal(rendered.headers['x-service-recipe-hash'], q.body.hash);
    const job = await quote({ job: { slug: `${id}@1`, format: 'webp' } });
    assert.deepEqual([job.status, job.body.credits], [200, 2]);

    const other = await workspaceKey(t, { id: 'ws_quotes_other', name: 'Other' }, 'other');
    const foreign = await t.request('post', '/v1/quote', {
      auth: false,
      headers: { Authorization: `Bearer ${other}` },
      body: { render: { slug: id } },
    });
    assert.deepEqual([foreign.status, foreign.body.code], [404, 'template_not_found']);
  });
});

describe('quotes in local mode (sqlite): the real call’s problems, and the budget', () => {
  let t: TestApp;
  const quote = (body: unknown) => t.request('post', '/v1/quote', { body });

  // A synchronous animation may take 150 ms here, so that `fitsSyncBudget: false` is cheap to prove.
  before(async () => (t = await startTestApp('sqlite', { env: { ANIMATION_BUDGET_MS: '150' } })));
  after(async () => t?.close());

  test('a render quote in local mode: credits 0 (nothing is charged), the recipe’s pixels, frames and hash', async () => {
    const gif = { seed: 3, size: { width: 64, height: 36, pixelRatio: 2 }, format: 'gif', params: { duration: 1, fps: 10 } };
    const animated = await quote({ render: { slug: 'plasma', ...gif } });
    assert.equal(animated.status, 200, animated.text);
    assert.deepEqual(
      { credits: animated.body.credits, pixels: animated.body.pixels, frames: animated.body.frames, cached: animated.body.cached },
      { credits: 0, pixels: 128 * 72 * 10, frames: 10, cached: false },
    );
    // A still, rendered: this app's 150 ms animation budget is for the test below.
    const recipe = { seed: 3, size: { width: 64, height: 36, pixelRatio: 2 }, format: 'png' };
    const q = await quote({ render: { slug: 'plasma', ...recipe } });
    assert.deepEqual([q.body.credits, q.body.pixels, q.body.frames], [0, 128 * 72, undefined]);
    const rendered = await t.request('post', '/v1/generate/plasma', { body: recipe });
    assert.equal(rendered.status, 200, rendered.text);
    assert.equal(rendered.headers['x-service-credits'], '0');
    assert.equal(rendered.headers['x-service-recipe-hash'], q.body.hash);
    assert.equal((await quote({ render: { slug: 'plasma', ...recipe } })).body.cached, true);
  });

  test('fitsSyncBudget false when the estimate passes the animation budget, and the render indeed answers 504; a job of it is fine', async () => {
    const long = { seed: 1, format: 'mp4', size: { width: 640, height: 360 }, params: { duration: 10, fps: 30 } };
    const q = await quote({ render: { slug: 'plasma', ...long } });
    assert.equal(q.status, 200, q.text);
    assert.equal(q.body.fitsSyncBudget, false);
    assert.ok(q.body.estimatedMs > 150, `${q.body.estimatedMs} ms`);
    const res = await t.request('post', '/v1/generate/plasma', { body: long });
    assert.deepEqual([res.status, res.body.code], [504, 'animation_budget_exceeded']);
    // A still is held to RENDER_TIMEOUT_MS (30 s), which its estimate fits.
    const still = await quote({ render: { slug: 'plasma', seed: 1, format: 'png', size: { width: 640, height: 360 } } });
    assert.deepEqual([still.body.fitsSyncBudget, still.body.frames], [true, undefined]);
    const job = await quote({ job: { generator: 'plasma', ...long } });
    assert.deepEqual([job.status, job.body.fitsSyncBudget], [200, false]);
  });

  test('400s are the real call’s, naming the field under body.render, body.job or body.batch', async () => {
    const cases: [Body, string, string, string][] = [
      // [the quote's body, the real call's path, its body, the path the quote names]
      [{ render: { slug: 'blob', seed: -1 } }, '/v1/generate/blob', 'body.seed', 'body.render.seed'],
      [
        { render: { slug: 'mesh-gradient', params: { points: 99 } } },
        '/v1/generate/mesh-gradient',
        'body.params.points',
        'body.render.params.points',
      ],
      [{ render: { slug: 'mesh-gradient', format: 'gif' } }, '/v1/generate/mesh-gradient', 'body.format', 'body.render.format'],
      [{ job: { slug: 'blob', size: { width: 15, height: 20 } } }, '/v1/jobs', 'body.size.width', 'body.job.size.width'],
      [{ job: { slug: 'blob', generator: 'plasma' } }, '/v1/jobs', 'body.generator', 'body.job.generator'],
    ];
    for (const [body, path, realPath, quotedPath] of cases) {
      const what = JSON.stringify(body);
      const call = (body.render ?? body.job) as Body;
      const realBody = path === '/v1/jobs' ? call : { ...call, slug: undefined };
      const real = await t.request('post', path, { body: JSON.parse(JSON.stringify(realBody)) });
      const q = await quote(body);
      assert.equal(q.status, 400, `${what}: ${q.text}`);
      assert.equal(q.status, real.status, what);
      assert.equal(q.body.code, real.body.code, what);
      assert.ok(issuePaths(real.body).includes(realPath), `${what}: ${JSON.stringify(real.body.issues)}`);
      assert.ok(issuePaths(q.body).includes(quotedPath), `${what}: ${JSON.stringify(q.body.issues)}`);
    }
    for (const body of [{}, { render: { slug: 'blob' }, job: { slug: 'blob' } }, { quote: { slug: 'blob' } }, { batch: { items: [] } }]) {
      const res = await quote(body);
      assert.deepEqual([res.status, res.body.code], [400, 'validation_failed'], JSON.stringify(body));
    }
  });

  test('404 for an unknown generator or template, 413 for a render too large, as the real calls answer', async () => {
    const unknown = await quote({ render: { slug: 'no-such-generator' } });
    assert.deepEqual([unknown.status, unknown.body.code], [404, 'generator_not_found']);
    assert.equal((await t.request('post', '/v1/generate/no-such-generator', { body: {} })).status, 404);
    const template = await quote({ job: { slug: 'tpl_missing' } });
    assert.deepEqual([template.status, template.body.code], [404, 'template_not_found']);
    const huge = { slug: 'blob', size: { width: 4096, height: 4096, pixelRatio: 3 } };
    const tooLarge = await quote({ render: huge });
    assert.deepEqual([tooLarge.status, tooLarge.body.code], [413, 'render_too_large']);
    assert.equal((await t.request('post', '/v1/jobs', { body: huge })).status, 413);
  });

  test('401 without credentials', async () => {
    const res = await t.request('post', '/v1/quote', { auth: false, body: { render: { slug: 'blob' } } });
    assert.equal(res.status, 401);
  });
});
