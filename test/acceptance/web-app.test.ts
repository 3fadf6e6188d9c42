// The web app at / driven in a real Chromium (playwright-core + the system's chromium binary),
// against the real service process in local mode: the local gateway authenticates the page.
// Screenshots of every page land in test-results/screenshots (CI keeps them as artifacts).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser, type Page, type Route } from 'playwright-core';
import { ROOT, runService, type ServerProcess } from '../support/black-box/server-process.ts';
import { servedContract, type ServedContract } from '../support/black-box/served-contract.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const dataDir = mkdtempSync(path.join(tmpdir(), 'render-service-web-'));
let server: ServerProcess;
/** The served openapi.json: every stand-in answer below is checked against it before the page gets it. */
let contract: ServedContract;

/** Answers a routed request with `json`, once it is a valid `status` answer of that operation in the contract. */
function fulfillPerContract(route: Route, json: unknown, status = 200): Promise<void> {
  const request = route.request();
  contract.assertResponse(request.method(), request.url(), status, json);
  return route.fulfill({ status, json });
}
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];
const SCREENSHOTS = path.join(ROOT, 'test-results', 'screenshots');

/** Saves a screenshot as a test artifact: the whole page, or only the viewport (a page as tall as the API reference). */
async function screenshot(target: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await target.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage });
}

/** Every visible form control on the page has an accessible name (a label or aria-label). */
async function unlabelledControls(target: Page): Promise<string[]> {
  return target.$$eval('input, select, textarea', (els) =>
    els
      .filter((el) => (el as HTMLElement).offsetParent !== null && (el as HTMLInputElement).type !== 'hidden')
      .filter((el) => !((el as HTMLInputElement).labels?.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')))
      .map((el) => el.outerHTML.slice(0, 120)),
  );
}

before(async () => {
  if (!existsSync(CHROMIUM)) {
    assert.fail(`No Chromium at ${CHROMIUM}. Install it (apt-get install -y chromium) or set CHROMIUM_PATH; .ci/run installs it.`);
  }
  server = await runService({ DATA_DIR: dataDir });
  contract = await servedContract(server.url);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const context = await browser.newContext({ acceptDownloads: true });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (err) => pageErrors.push(`pageerror: ${err.message}`));
  // Every console error counts, except the browser's own note on an HTTP error status: the tests
  // provoke those on purpose (a 400 shown beside its field), and the page handles them.
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text()))
      pageErrors.push(`console: ${msg.text()}`);
  });
});

after(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('/ serves the app with a strict CSP; the API keeps problem+json 404s', async () => {
  const home = await fetch(`${server.url}/`);
  assert.equal(home.status, 200);
  assert.match(home.headers.get('content-type') ?? '', /^text\/html/);
  const csp = home.headers.get('content-security-policy') ?? '';
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /img-src 'self' blob: data:/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
  assert.equal(home.headers.get('cache-control'), 'no-cache');
  // The page names the built bundles (content-hashed, cached for a year); the sources are not served.
  const html = await home.text();
  const script = /<script type="module" src="(\/app-[A-Z0-9]{8}\.js)">/.exec(html)?.[1];
  const style = /<link rel="stylesheet" href="(\/styles-[A-Z0-9]{8}\.css)"\s*\/?>/.exec(html)?.[1];
  assert.ok(script && style, html);
  for (const [url, type] of [
    [script, /javascript/],
    [style, /css/],
  ] as const) {
    const asset = await fetch(`${server.url}${url}`);
    assert.equal(asset.status, 200);
    assert.match(asset.headers.get('content-type') ?? '', type);
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  }
  assert.equal((await fetch(`${server.url}/js/app.js`)).status, 404);
  const missing = await fetch(`${server.url}/v1/no-such-route`);
  assert.equal(missing.status, 404);
  assert.match(missing.headers.get('content-type') ?? '', /^application\/problem\+json/);
});

test('gallery: one card per generator, each with a loaded blob: thumbnail', async () => {
  const generators = (await (await fetch(`${server.url}/v1/generators`)).json()) as { slug: string }[];
  await page.goto(`${server.url}/`);
  await page.waitForFunction((n) => document.querySelectorAll('#gallery .card').length === n, generators.length);
  for (const g of generators)
    assert.equal(await page.locator(`.card[data-slug="${g.slug}"] a`, { hasText: 'Open in playground' }).count(), 1, g.slug);
  await page.waitForFunction(
    () => [...document.querySelectorAll<HTMLImageElement>('#gallery img.thumb')].every((img) => img.complete && img.naturalWidth > 0),
    undefined,
    { timeout: 30_000 },
  );
  const srcs = await page.$$eval('#gallery img.thumb', (imgs) => imgs.map((i) => (i as HTMLImageElement).src));
  assert.equal(srcs.length, generators.length);
  for (const src of srcs) assert.match(src, /^blob:/);
  await screenshot(page, 'gallery');
});

test('playground: preview, MISS then HIT, a param changes the hash, API errors sit next to the field', async () => {
  await page.goto(`${server.url}/#/playground/blob`);
  const cache = page.locator('#meta-cache');
  await page.waitForFunction(() => document.querySelector('#meta-cache')?.textContent === 'MISS');
  const firstHash = await page.locator('#meta-hash').textContent();
  assert.match(firstHash ?? '', /^[0-9a-f]{64}$/);
  assert.ok((await page.locator('#meta-recipe').textContent())?.length);
  const preview = page.locator('#preview-media');
  assert.match((await preview.getAttribute('src')) ?? '', /^blob:/);
  assert.ok(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth > 0));

  await page.click('#rerender');
  await page.waitForFunction(() => document.querySelector('#meta-cache')?.textContent === 'HIT');
  assert.equal(await page.locator('#meta-hash').textContent(), firstHash);

  await page.fill('#params-points', '11');
  await page.waitForFunction((h) => {
    const text = document.querySelector('#meta-hash')?.textContent;
    return text !== h && /^[0-9a-f]{64}$/.test(text ?? '');
  }, firstHash);
  assert.equal(await cache.textContent(), 'MISS');

  await page.fill('#size-width', '5');
  const widthError = page.locator('[data-error-for="size.width"]');
  await widthError.waitFor({ state: 'visible' });
  assert.match((await widthError.textContent()) ?? '', /16/);
  assert.ok(await page.locator('.field[data-field="size.width"]').evaluate((el) => el.classList.contains('invalid')));
  // The old picture is dimmed, the reason is beside it, and the refused recipe's URL is not offered.
  await page.waitForFunction(() => document.querySelector('#preview')?.classList.contains('stale'));
  assert.match((await page.locator('#preview-status').textContent()) ?? '', /^Render failed: .+ last recipe that rendered/);
  assert.ok(await page.locator('#copy-recipe-url').isDisabled());

  await page.fill('#size-width', '640');
  await widthError.waitFor({ state: 'hidden' });
  await page.waitForFunction(() => !document.querySelector('#preview')?.classList.contains('stale'));
  assert.ok(await page.locator('#copy-recipe-url').isEnabled());
  await screenshot(page, 'playground');
});

test('playground: the seed is a concrete number, so changing a param keeps the composition', async () => {
  const seedOf = (encoded: string | null) =>
    (JSON.parse(Buffer.from(encoded ?? '', 'base64url').toString('utf8')) as { seed: number }).seed;
  const rendered = (hash: string | null) =>
    page.waitForFunction((previous) => {
      const text = document.querySelector('#meta-hash')?.textContent ?? '';
      return text !== previous && /^[0-9a-f]{64}$/.test(text);
    }, hash);
  // A generator not opened before starts from its defaults: seed 0, derived from the params, as in the gallery.
  await page.goto(`${server.url}/#/playground/mesh-gradient`);
  await rendered('—');
  const seed = await page.inputValue('#seed');
  assert.notEqual(seed, '0');
  assert.equal(seedOf(await page.locator('#meta-recipe').textContent()), Number(seed));
  const firstHash = await page.locator('#meta-hash').textContent();
  await page.fill('#params-points', '5');
  await rendered(firstHash);
  // The param changed; the seed did not (with seed 0 the whole composition would have changed).
  assert.equal(await page.inputValue('#seed'), seed);
  assert.equal(seedOf(await page.locator('#meta-recipe').textContent()), Number(seed));
  // Shuffle picks another concrete seed.
  const tweakedHash = await page.locator('#meta-hash').textContent();
  await page.click('#shuffle');
  await rendered(tweakedHash);
  const shuffled = await page.inputValue('#seed');
  assert.notEqual(shuffled, seed);
  assert.equal(seedOf(await page.locator('#meta-recipe').textContent()), Number(shuffled));
});

test('playground: the preview shows exactly the bytes the API returns for the recipe URL it displays', async () => {
  // The page's CSP keeps even its own blob: URLs out of fetch(), so the bytes are taken on their way
  // in: the responses pass through the test unchanged, and the one that counts carries the shown hash
  // (a debounced preview may abort an earlier request).
  const received: { hash: string; body: Buffer }[] = [];
  await page.route('**/v1/generate/voronoi', async (route) => {
    const response = await route.fetch();
    received.push({ hash: response.headers()['x-service-recipe-hash'] ?? '', body: await response.body() });
    await route.fulfill({ response });
  });
  await page.goto(`${server.url}/#/playground/voronoi`);
  await page.waitForFunction(
    () =>
      /^blob:/.test(document.querySelector<HTMLImageElement>('#preview-media')?.src ?? '') &&
      /^[0-9a-f]{64}$/.test(document.querySelector('#meta-hash')?.textContent ?? ''),
  );
  await page.unroute('**/v1/generate/voronoi');
  const hash = (await page.locator('#meta-hash').textContent())!;
  const shown = received.find((r) => r.hash === hash);
  assert.ok(shown, 'the page received the preview it shows');
  const previewBytes = shown.body;
  const recipe = (await page.locator('#meta-recipe').textContent())!;
  const onScreen = await page.locator('#preview-media').evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
  // The recipe URL the page shows, fetched outside the browser with the local API key.
  const key = readFileSync(path.join(dataDir, 'local-api-key'), 'utf8').trim();
  const api = await fetch(`${server.url}/v1/render/${hash}?r=${recipe}`, { headers: { Authorization: `Bearer ${key}` } });
  assert.equal(api.status, 200);
  const apiBytes = Buffer.from(await api.arrayBuffer());
  assert.equal(createHash('sha256').update(apiBytes).digest('hex'), createHash('sha256').update(previewBytes).digest('hex'));
  // And the image on screen decodes from those bytes (PNG: width and height at offsets 16 and 20).
  assert.deepEqual(onScreen, [apiBytes.readUInt32BE(16), apiBytes.readUInt32BE(20)]);
});

test('export: an animated gif job streams progress to 100% and offers a download', async () => {
  await page.goto(`${server.url}/#/playground/plasma`);
  await page.waitForFunction(() => /^[0-9a-f]{64}$/.test(document.querySelector('#meta-hash')?.textContent ?? ''));
  await page.fill('#size-width', '64');
  await page.fill('#size-height', '64');
  await page.waitForFunction(() => document.querySelector('#preview-status')?.textContent?.includes('64×64'));
  await page.click('#to-export');
  await page.locator('#export-start').waitFor();
  await page.selectOption('#export-format', 'gif');
  await page.click('#export-start');
  await page.waitForFunction(() => document.querySelector('#export-status')?.textContent === 'completed', undefined, { timeout: 30_000 });
  assert.equal(await page.locator('#export-progress').evaluate((p: HTMLProgressElement) => p.value), 100);
  assert.equal(await page.locator('#export-percent').textContent(), '100%');
  const link = page.locator('#export-download');
  await link.waitFor();
  assert.match((await link.getAttribute('href')) ?? '', /^blob:/);
  assert.match((await link.getAttribute('download')) ?? '', /\.gif$/);
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  assert.match(download.suggestedFilename(), /\.gif$/);
  await page.locator('#history tr[data-job] .status-completed').first().waitFor();
  await screenshot(page, 'export');
});

test('account: a new key is shown once and listed; revoking marks it revoked', async () => {
  await page.goto(`${server.url}/#/account`);
  await page.locator('#me-auth').waitFor();
  assert.match((await page.locator('#me-auth').textContent()) ?? '', /local/);
  await page.fill('#key-label', 'web-app-test');
  await page.click('#key-create button[type=submit]');
  const secret = (await page.locator('#key-secret').textContent()) ?? '';
  assert.match(secret, /^svc_local_[A-Za-z0-9]{32}$/);
  const row = page.locator('#key-list tr', { hasText: 'web-app-test' });
  await row.waitFor();
  assert.equal(await row.getAttribute('data-revoked'), 'false');
  assert.equal((await fetch(`${server.url}/v1/me`, { headers: { Authorization: `Bearer ${secret}` } })).status, 200);

  await row.locator('button.revoke').click();
  await page.locator('#confirm-dialog').waitFor();
  await page.click('#confirm-ok');
  await page.waitForFunction(() => document.querySelector('#key-list tr[data-revoked="true"]')?.textContent?.includes('web-app-test'));
  assert.equal((await fetch(`${server.url}/v1/me`, { headers: { Authorization: `Bearer ${secret}` } })).status, 401);

  await page.goto(`${server.url}/#/`);
  await page.goto(`${server.url}/#/account`);
  await page.locator('#key-list tr', { hasText: 'web-app-test' }).waitFor();
  assert.equal(await page.locator('#key-secret').count(), 0, 'the secret is shown only once');
  assert.equal(await page.locator('#credits').isHidden(), true, 'local mode meters no credits');
  await screenshot(page, 'account');
  assert.deepEqual(pageErrors, []);
});

test('keyboard: Tab reaches a card link and Enter opens the playground; every control is labelled', async () => {
  await page.goto(`${server.url}/`);
  await page.locator('#gallery .card').first().waitFor();
  let reached = false;
  for (let i = 0; i < 30 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => document.activeElement?.textContent === 'Open in playground');
  }
  assert.ok(reached, 'a card link is reachable with Tab');
  await page.keyboard.press('Enter');
  await page.waitForURL(/#\/playground\//);
  await page.waitForFunction(() => /^[0-9a-f]{64}$/.test(document.querySelector('#meta-hash')?.textContent ?? ''));
  assert.deepEqual(await unlabelledControls(page), []);
  for (const route of ['export', 'account']) {
    await page.goto(`${server.url}/#/${route}`);
    await page.locator('main h1').first().waitFor();
    await page.waitForLoadState('networkidle');
    assert.deepEqual(await unlabelledControls(page), [], route);
  }
});

test('phone width (390 px): no page scrolls sideways', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const phone = await context.newPage();
  try {
    for (const route of ['', 'playground/mesh-gradient', 'export', 'account']) {
      await phone.goto(`${server.url}/#/${route}`);
      await phone.locator('main h1, #gallery .card').first().waitFor();
      await phone.waitForLoadState('networkidle');
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 1, `#/${route} is ${overflow} px wider than the screen`);
      await screenshot(phone, `phone-${route.split('/')[0] || 'gallery'}`);
    }
  } finally {
    await context.close();
  }
});

test('hosted mode without a session: the sign-in page posts the provider and follows the returned url', async () => {
  const context = await browser.newContext();
  const hosted = await context.newPage();
  try {
    await hosted.route('**/v1/auth-config', (route) =>
      fulfillPerContract(route, {
        mode: 'hosted',
        session: null,
        providers: [
          { id: 'github', name: 'GitHub', signInUrl: '/v1/auth/sign-in/social' },
          { id: 'google', name: 'Google', signInUrl: '/v1/auth/sign-in/social' },
        ],
      }),
    );
    let posted: { headers: Record<string, string>; body: unknown } | undefined;
    await hosted.route('**/v1/auth/sign-in/social', (route) => {
      posted = { headers: route.request().headers(), body: route.request().postDataJSON() };
      // better-auth's own route, outside the contract (openapi.yaml says so): its answer is the library's.
      return route.fulfill({ json: { url: `${server.url}/#/signed-in-elsewhere`, redirect: true } });
    });
    await hosted.goto(`${server.url}/#/account`);
    await hosted.locator('#sign-in').waitFor();
    await screenshot(hosted, 'sign-in');
    assert.equal(await hosted.locator('button[data-provider]').count(), 2);
    await hosted.click('button[data-provider="github"]');
    await hosted.waitForURL(/#\/signed-in-elsewhere$/);
    assert.deepEqual(posted?.body, { provider: 'github', callbackURL: `${server.url}/` });
    assert.match(posted?.headers['content-type'] ?? '', /^application\/json/);
  } finally {
    await context.close();
  }
});

// The hosted answers of /v1/auth-config, /v1/me, /v1/billing and the checkout are fulfilled here (a
// real hosted session needs an identity provider; billing's API side runs against the Stripe
// stand-in in test/integration/billing.test.ts). What is under test is the page.
test('hosted mode with a session: the balance, a pack bought through the checkout redirect, the return notice', async () => {
  const context = await browser.newContext();
  const hosted = await context.newPage();
  try {
    const balance = { credits: 120, reserved: 20, available: 100 };
    await hosted.route('**/v1/auth-config', (route) =>
      fulfillPerContract(route, {
        mode: 'hosted',
        session: { user: { id: 'u1', name: 'Ada', email: 'ada@example.test' }, expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
        providers: [],
      }),
    );
    await hosted.route('**/v1/me', (route) =>
      fulfillPerContract(route, {
        authMethod: 'session',
        user: { id: 'u1', name: 'Ada', email: 'ada@example.test' },
        workspace: { id: 'ws_1', name: 'Ada', kind: 'personal', createdAt: new Date().toISOString() },
        balance,
      }),
    );
    await hosted.route('**/v1/billing', (route) =>
      fulfillPerContract(route, {
        balance,
        packs: [
          { id: 'pack_1000', name: 'Starter', credits: 1000, amount: 1000, currency: 'usd' },
          { id: 'pack_10000', name: 'Studio', credits: 10000, amount: 8000, currency: 'usd' },
        ],
        purchases: [
          {
            id: 'pur_1',
            packId: 'pack_1000',
            credits: 1000,
            amount: 1000,
            currency: 'usd',
            status: 'completed',
            createdAt: new Date().toISOString(),
          },
        ],
      }),
    );
    let checkoutBody: unknown;
    await hosted.route('**/v1/billing/checkout', (route) => {
      checkoutBody = route.request().postDataJSON();
      return fulfillPerContract(route, { id: 'cs_test_1', url: `${server.url}/#/account?checkout=success` }, 201);
    });
    await hosted.goto(`${server.url}/#/account`);
    await hosted.locator('#credit-balance').waitFor();
    assert.match((await hosted.locator('#credit-balance').textContent()) ?? '', /^100 credits available/);
    assert.equal(await hosted.locator('#credit-packs button').count(), 2);
    assert.equal(await hosted.locator('#purchases tbody tr').count(), 1);
    assert.doesNotMatch((await hosted.locator('#credits').textContent()) ?? '', /null|undefined/);
    await screenshot(hosted, 'account-hosted');
    await hosted.click('#credit-packs button[data-pack="pack_10000"]');
    await hosted.waitForURL(/#\/account\?checkout=success$/);
    assert.deepEqual(checkoutBody, { packId: 'pack_10000' });
    await hosted.locator('#credits .notice').waitFor();
    assert.match((await hosted.locator('#credits .notice').textContent()) ?? '', /as soon as the payment is confirmed/);
  } finally {
    await context.close();
  }
});

test('a stand-in answer that drifts from the contract is refused before the page sees it', () => {
  // The checks above would catch a renamed or missing field: here, a balance without `available`.
  assert.throws(
    () => contract.assertResponse('GET', '/v1/billing', 200, { balance: { credits: 1, reserved: 0 }, packs: [], purchases: [] }),
    /getBilling does not match the contract/,
  );
  assert.throws(
    () => contract.assertResponse('POST', '/v1/billing/checkout', 200, { id: 'cs', url: 'https://x.test' }),
    /declares no JSON 200 answer/,
  );
});

test('API reference: rendered from our own assets, without a console error, with a way back to the app', async () => {
  const blocked: string[] = [];
  const onRequest = (request: { url(): string }) => {
    if (!request.url().startsWith(server.url) && !/^(data|blob):/.test(request.url())) blocked.push(request.url());
  };
  page.on('request', onRequest);
  try {
    // A problem's `type`, as the API sends it, opens the reference at that problem's row.
    const problem = await fetch(`${server.url}/v1/generate/no-such-generator`, { method: 'POST' });
    const { type } = (await problem.json()) as { type: string };
    assert.match(type, /^\/v1\/reference#problem-/);
    await page.goto(`${server.url}${type}`);
    const rowId = type.split('#')[1];
    await page.locator(`[id="${rowId}"]`).waitFor();
    await page.waitForFunction((id) => {
      const box = document.getElementById(id)?.getBoundingClientRect();
      return box !== undefined && box.bottom > 0 && box.top < window.innerHeight / 2; // scrolled to the top of the page
    }, rowId);
    await screenshot(page, 'api-reference', false);
    const back = page.getByRole('link', { name: 'Open the web app' });
    assert.equal(await back.getAttribute('href'), '/');
    // The footer's logo is there, inline, not fetched from Redocly's CDN; nothing came from elsewhere.
    assert.match((await page.getByAltText('redocly logo').getAttribute('src')) ?? '', /^data:image\/svg\+xml,/);
    assert.deepEqual(blocked, []);
  } finally {
    page.off('request', onRequest);
  }
});

test('no page threw or logged an error along the way', () => {
  assert.deepEqual(pageErrors, []);
});
