// The web app at / driven in a real Chromium (playwright-core + Debian's chromium-headless-shell: test/support/black-box/browser.ts),
// against the real service process in local mode: the local gateway authenticates the page.
// What runs here is what needs a browser: layout, accessibility, and the flows through the service
// (render, download, export, sign-in, keys, the offline banner). The app's logic — URL state, file
// names, sizes and pixel ratios, estimates, form values, sweeps and variations, job rows, copy text —
// is unit-tested in Node (test/unit/web-*.test.ts); docs/tests.md, "The browser test", says which is where.
// Screenshots of every page land in test-results/screenshots (CI keeps them as artifacts).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page, Route } from 'playwright-core';
import { launchChromium } from '../support/black-box/browser.ts';
import { ROOT, runService, type ServerProcess } from '../support/black-box/server-process.ts';
import { freeLoopbackPort } from '../support/black-box/listen.ts';
import { servedContract, type ServedContract } from '../support/black-box/served-contract.ts';

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
/** Chromium, launched while the service starts. */
let launching: Promise<Browser> | undefined;
let page: Page;
const pageErrors: string[] = [];
/** True while a test cuts the page off the service on purpose: the browser then logs each refused request. */
let offline = false;
const SCREENSHOTS = path.join(ROOT, 'test-results', 'screenshots');

/**
 * Saves a screenshot as a test artifact: the whole page, or only the viewport (a page as tall as the
 * API reference). In CSS pixels: a 2x phone's whole gallery in device pixels took seconds to encode.
 */
async function screenshot(target: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await target.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage, scale: 'css' });
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
  // Chromium starts while the service does.
  launching = launchChromium();
  // A known port: the URLs the service signs are on its public URL (http://127.0.0.1:PORT in local mode).
  // Renders get minutes, not the default 30 s: on a loaded machine a preview must arrive late, never as a 504.
  // The workspace's and the key's rate limits (600 and 300 a minute) are out of the way: these tests
  // click through the whole app far faster than a person: in runs on 2026-11-30 the templates test met
  // 429 rate_limited on the starters, the workspace's 600 requests of that minute used up.
  // The limits themselves are test/integration/rate-limits.test.ts's.
  server = await runService({
    DATA_DIR: dataDir,
    PORT: String(await freeLoopbackPort()),
    RENDER_TIMEOUT_MS: '300000',
    ANIMATION_BUDGET_MS: '300000',
    RATE_LIMIT_WORKSPACE_PER_MINUTE: '1000000',
    RATE_LIMIT_KEY_PER_MINUTE: '1000000',
  });
  contract = await servedContract(server.url);
  browser = await launching;
  const context = await browser.newContext({ acceptDownloads: true });
  // Waits end on events; the timeout is only a backstop, long enough for a loaded machine.
  context.setDefaultTimeout(120_000);
  page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(`pageerror: ${err.message}`));
  // Every console error counts, except the browser's own note on an HTTP error status: the tests
  // provoke those on purpose (a 400 shown beside its field), and the page handles them.
  page.on('console', (msg) => {
    if (msg.type() !== 'error' || /^Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text())) return;
    if (offline && /^Failed to load resource: net::ERR_CONNECTION_REFUSED/.test(msg.text())) return;
    pageErrors.push(`console: ${msg.text()}`);
  });
});

after(async () => {
  await (browser ?? (await launching?.catch(() => undefined)))?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Opens an address of the app and waits until its page is built: after an in-page navigation the
 * page left stays on screen (aria-busy) until then, and must not be read as the new one.
 */
async function open(address: string): Promise<void> {
  await page.goto(`${server.url}${address}`);
  const built = new URL(address, server.url).hash;
  await page.waitForFunction((hash) => {
    const view = document.querySelector<HTMLElement>('#view');
    return view?.getAttribute('aria-busy') !== 'true' && view?.dataset.route === hash;
  }, built);
}

/** Clicks a copy button and returns what it put on the clipboard (once its toast says so). */
async function copiedBy(target: Page, button: string, toast: string): Promise<string> {
  await target.evaluate(() => (document.getElementById('toast')!.textContent = ''));
  await target.click(button);
  await target.waitForFunction((text) => document.getElementById('toast')?.textContent === text, toast);
  return target.evaluate(() => navigator.clipboard.readText());
}

/** Waits until the playground shows a rendered recipe hash other than `previous`; returns it. */
async function renderedHash(target: Page, previous: string | null = null): Promise<string> {
  const handle = await target.waitForFunction((prev) => {
    // While the view is busy, the page on screen is the one being left (and its hash, that page's).
    if (document.querySelector('#view')?.getAttribute('aria-busy') === 'true') return null;
    const text = document.querySelector('#meta-hash')?.textContent ?? '';
    return text !== prev && /^[0-9a-f]{64}$/.test(text) && !document.querySelector('#preview')?.classList.contains('loading') ? text : null;
  }, previous);
  return (await handle.jsonValue()) as string;
}

/**
 * Waits until the playground shows the render of a recipe with these `seed` and `params` (after a few
 * quick edits, an earlier one may have rendered in between); returns its hash.
 */
async function renderedRecipe(target: Page, expected: { seed?: number; params?: Record<string, unknown> }): Promise<string> {
  const handle = await target.waitForFunction(({ seed, params = {} }) => {
    if (document.querySelector('#preview')?.classList.contains('loading')) return null;
    if (document.querySelector('#view')?.getAttribute('aria-busy') === 'true') return null;
    try {
      const encoded = (document.querySelector('#meta-recipe')?.textContent ?? '').replace(/-/g, '+').replace(/_/g, '/');
      const shown = JSON.parse(atob(encoded)) as { seed: number; params: Record<string, unknown> };
      const same =
        (seed === undefined || shown.seed === seed) &&
        Object.entries(params).every(([k, v]) => JSON.stringify(shown.params[k]) === JSON.stringify(v));
      return same ? document.querySelector('#meta-hash')?.textContent : null;
    } catch {
      return null;
    }
  }, expected);
  return (await handle.jsonValue()) as string;
}

/** The recipe the playground's URL carries (`#/playground/<slug>?r=<base64url JSON>`). */
function recipeInUrl(url: string): {
  params: Record<string, unknown>;
  seed: number;
  size: { width: number; height: number };
  format: string;
} {
  const r = new URL(url).hash.split('?r=')[1] ?? '';
  return JSON.parse(Buffer.from(r, 'base64url').toString('utf8'));
}

/** The local workspace's API key, for requests made outside the browser. */
const localKey = () => readFileSync(path.join(dataDir, 'local-api-key'), 'utf8').trim();

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

test('gallery: one card per generator, each with a loaded blob: thumbnail; Tab reaches a card link and Enter opens the playground', async () => {
  const generators = (await (await fetch(`${server.url}/v1/generators`)).json()) as { slug: string; name: string }[];
  await page.goto(`${server.url}/`);
  await page.waitForFunction((n) => document.querySelectorAll('#gallery .card').length === n, generators.length);
  // Each card's link says which generator it opens (20 links, 20 names), and its picture links there too.
  for (const g of generators) {
    const href = `#/playground/${encodeURIComponent(g.slug)}`;
    const link = page.getByRole('link', { name: `Open ${g.name} in the playground`, exact: true });
    assert.equal(await link.count(), 1, g.slug);
    assert.equal(await link.getAttribute('href'), href);
    assert.equal(await page.locator(`.card[data-slug="${g.slug}"] a.thumb-link:has(img.thumb)`).getAttribute('href'), href);
  }
  const names = await page.$$eval('#gallery a:not([aria-hidden])', (links) => links.map((a) => a.textContent));
  assert.equal(new Set(names).size, generators.length, `distinct link names: ${names.join(', ')}`);
  await page.waitForFunction(
    () => [...document.querySelectorAll<HTMLImageElement>('#gallery img.thumb')].every((img) => img.complete && img.naturalWidth > 0),
    undefined,
    { timeout: 120_000 },
  );
  const srcs = await page.$$eval('#gallery img.thumb', (imgs) => imgs.map((i) => (i as HTMLImageElement).src));
  assert.equal(srcs.length, generators.length);
  for (const src of srcs) assert.match(src, /^blob:/);
  await screenshot(page, 'gallery');

  // The keyboard: Tab reaches a card link, Enter opens the playground, whose every control is labelled
  // (the other pages' controls: the accessibility test).
  let reached = false;
  for (let i = 0; i < 30 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => /^Open .+ in the playground$/.test(document.activeElement?.textContent ?? ''));
  }
  assert.ok(reached, 'a card link is reachable with Tab');
  await page.keyboard.press('Enter');
  await page.waitForURL(/#\/playground\//);
  await renderedHash(page);
  assert.deepEqual(await unlabelledControls(page), []);
});

test('a skip link is the first Tab stop, shown while it has focus; Enter moves focus to the view and keeps the route', async () => {
  // A fresh load: Tab starts from the top of the document.
  await open(`/#/export`);
  await page.reload();
  await page.locator('main h1').first().waitFor();
  const skip = page.locator('a.skip-link');
  assert.equal(await skip.textContent(), 'Skip to content');
  const hidden = (await skip.boundingBox())!;
  assert.ok(hidden.y + hidden.height <= 0, 'out of sight without focus');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.className), 'skip-link', 'the first Tab stop');
  const shown = (await skip.boundingBox())!;
  assert.ok(shown.y >= 0 && shown.height > 0, 'in sight with focus');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.id === 'view');
  assert.match(page.url(), /#\/export$/, 'the route stays');
  // The next Tab goes on from the view (not back to the header).
  await page.keyboard.press('Tab');
  assert.ok(await page.evaluate(() => document.getElementById('view')!.contains(document.activeElement)));
});

test('playground: preview, MISS then HIT, a param changes the hash, API errors sit next to the field', async () => {
  await open(`/#/playground/blob`);
  const cache = page.locator('#meta-cache');
  await page.waitForFunction(
    () =>
      document.querySelector('#view')?.getAttribute('aria-busy') !== 'true' &&
      document.querySelector('#meta-cache')?.textContent === 'MISS',
  );
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

test('playground: the seed is a concrete number, so changing a param keeps the composition; Shuffle draws another', async () => {
  const seedOf = (encoded: string | null) =>
    (JSON.parse(Buffer.from(encoded ?? '', 'base64url').toString('utf8')) as { seed: number }).seed;
  // A generator not opened before starts from its defaults: seed 0, derived from the params, as in the gallery.
  await open(`/#/playground/mesh-gradient`);
  const firstHash = await renderedHash(page, '—');
  const seed = await page.inputValue('#seed');
  assert.notEqual(seed, '0');
  assert.equal(seedOf(await page.locator('#meta-recipe').textContent()), Number(seed));
  await page.fill('#params-points', '5');
  const tweakedHash = await renderedHash(page, firstHash);
  // The param changed; the seed did not (with seed 0 the whole composition would have changed).
  assert.equal(await page.inputValue('#seed'), seed);
  assert.equal(seedOf(await page.locator('#meta-recipe').textContent()), Number(seed));
  // Shuffle picks another concrete seed, one curated palette for the colours and a modest grain
  // (what Shuffle draws: test/unit/web-param-values.test.ts).
  await page.click('#shuffle');
  await renderedHash(page, tweakedHash);
  const shuffled = await page.inputValue('#seed');
  assert.notEqual(shuffled, seed);
  assert.equal(seedOf(await page.locator('#meta-recipe').textContent()), Number(shuffled));
  const { params } = recipeInUrl(page.url());
  assert.ok((params.grain as number) <= 0.06, `grain ${params.grain} stays in the lowest fifth of 0–0.3`);
  assert.ok((params.palette as string[]).includes(params.background as string), 'the background comes from the same palette');
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
  // From one playground to another, the page left stays on screen, marked busy, until the new one is
  // built (so its hash is not read as the new page's): the router marks the view before anything else.
  const busyAtNavigation = await page.evaluate(
    () =>
      new Promise<string | null>((resolve) => {
        // Registered after the app's own listener, so it runs once the router has begun.
        window.addEventListener('hashchange', () => resolve(document.querySelector('#view')!.getAttribute('aria-busy')), { once: true });
        location.hash = '#/playground/voronoi';
      }),
  );
  assert.equal(busyAtNavigation, 'true');
  await page.waitForFunction(
    () =>
      document.querySelector('#view')?.getAttribute('aria-busy') !== 'true' &&
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
  const key = localKey();
  const api = await fetch(`${server.url}/v1/render/${hash}?r=${recipe}`, { headers: { Authorization: `Bearer ${key}` } });
  assert.equal(api.status, 200);
  const apiBytes = Buffer.from(await api.arrayBuffer());
  assert.equal(createHash('sha256').update(apiBytes).digest('hex'), createHash('sha256').update(previewBytes).digest('hex'));
  // The preview is a light webp at the screen's pixel ratio (1 here) while the form's format is png;
  // the image on screen decodes from those bytes at the recipe's device size.
  const shownRecipe = JSON.parse(Buffer.from(recipe, 'base64url').toString('utf8')) as {
    format: string;
    size: { width: number; height: number; pixelRatio: number };
  };
  assert.equal(shownRecipe.format, 'webp');
  assert.equal(await page.inputValue('#format'), 'png');
  assert.equal(apiBytes.subarray(8, 12).toString('latin1'), 'WEBP');
  const { width, height, pixelRatio } = shownRecipe.size;
  assert.deepEqual(onScreen, [Math.round(width * pixelRatio), Math.round(height * pixelRatio)]);
  // voronoi's cells (3–2000) slide on a log scale: the number field follows the slider and the slider
  // the field (the scale itself: test/unit/web-param-values.test.ts).
  const slider = page.locator('.field[data-field="params.cells"] input[type=range]');
  await slider.fill('500');
  assert.equal(await page.inputValue('#params-cells'), '77');
  assert.equal(await slider.getAttribute('aria-valuetext'), '77');
  await page.fill('#params-cells', '2000');
  assert.equal(await slider.inputValue(), '1000');
  await renderedHash(page, hash);
});

test('playground layout: settings on top, sticky preview, size presets and ratio lock, details disclosure, Download, Reset', async () => {
  await page.setViewportSize({ width: 1280, height: 600 });
  try {
    await open(`/#/playground/blob`);
    const hash = await renderedHash(page);
    // Format, size and seed sit above the preview and the params.
    const top = async (sel: string) => (await page.locator(sel).boundingBox())!.y;
    for (const sel of ['#format', '#size-width', '#seed', '#size-preset']) assert.ok((await top(sel)) < (await top('#preview')), sel);
    // Developer details are behind a disclosure.
    assert.equal(await page.locator('#dev-details').getAttribute('open'), null);
    assert.equal(await page.locator('#meta-hash').isVisible(), false);
    await page.click('#dev-details summary');
    await page.locator('#meta-hash').waitFor({ state: 'visible' });
    assert.match((await page.locator('#meta-url').textContent()) ?? '', /\/v1\/render\/[0-9a-f]{64}\?r=/);

    // The preset menu and the ratio lock drive the size fields (their rules: test/unit/web-sizing.test.ts).
    await page.selectOption('#size-preset', '1200x630');
    assert.deepEqual([await page.inputValue('#size-width'), await page.inputValue('#size-height')], ['1200', '630']);
    await page.check('#aspect-lock');
    await page.fill('#size-width', '600');
    assert.equal(await page.inputValue('#size-height'), '315');
    assert.equal(await page.inputValue('#size-preset'), '');
    await page.uncheck('#aspect-lock');
    await page.selectOption('#size-preset', '1200x630');
    await page.waitForFunction(() => document.querySelector('#preview-status')?.textContent?.startsWith('Rendered 1200×630'));
    await renderedHash(page, hash);

    // The preview stays in sight when the page scrolls to its end.
    assert.equal(await page.locator('#preview-panel').evaluate((el) => getComputedStyle(el).position), 'sticky');
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForFunction(() => window.scrollY > 0);
    assert.ok(
      await page
        .locator('#preview')
        .evaluate((el) => el.getBoundingClientRect().bottom > 0 && el.getBoundingClientRect().top < window.innerHeight),
    );
    await screenshot(page, 'playground-scrolled', false);
    await page.evaluate(() => window.scrollTo(0, 0));

    // Download: the chosen format (png) and size, with a real file name.
    const seed = await page.inputValue('#seed');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
    assert.equal(download.suggestedFilename(), `blob-${seed}-1200x630.png`);
    const file = readFileSync((await download.path())!);
    assert.equal(file.subarray(1, 4).toString('latin1'), 'PNG');
    assert.deepEqual([file.readUInt32BE(16), file.readUInt32BE(20)], [1200, 630]);

    // Reset: back to the generator's defaults, right after a keystroke (whose scheduled render must not
    // write the edited recipe back over Reset's address).
    const defaults = (await (await fetch(`${server.url}/v1/generators/blob`)).json()) as { defaults: { points: number } };
    await page.fill('#params-points', '12');
    await page.click('#reset');
    await page.waitForFunction(
      (p) => (document.querySelector('#params-points') as HTMLInputElement | null)?.value === String(p),
      defaults.defaults.points,
    );
    assert.equal(await page.inputValue('#size-width'), '640');
    await renderedHash(page, '—');
    assert.notEqual(await page.inputValue('#seed'), '0');
  } finally {
    await page.setViewportSize({ width: 1280, height: 720 });
  }
});

test('playground: the URL carries the recipe (a new tab and a reload show the same picture); the copy buttons agree with it; Save as preset; Export opens it', async () => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const copied = (button: string, toast: string) => copiedBy(page, button, toast);
  const r = Buffer.from(JSON.stringify({ params: {}, seed: 77, size: { width: 300, height: 200, pixelRatio: 2 }, format: 'png' })).toString(
    'base64url',
  );
  await open(`/#/`);
  await open(`/#/playground/blob?r=${r}`);
  const opened = await renderedHash(page);
  // Every edit rewrites the URL (the encoding itself: test/unit/web-recipe.test.ts).
  await page.fill('#params-points', '9');
  await page.fill('#seed', '12345');
  const hash = await renderedRecipe(page, { seed: 12345, params: { points: 9 } });
  assert.notEqual(hash, opened);
  const url = page.url();
  assert.match(url, /#\/playground\/blob\?r=[A-Za-z0-9_-]+$/);
  const inUrl = recipeInUrl(url);
  assert.equal(inUrl.params.points, 9);
  assert.equal(inUrl.seed, 12345);

  // The copy buttons: the recipe URL gives what the curl command gives (the chosen png at pixel ratio
  // 2, not the webp preview), the bytes the service renders for both.
  await page.click('#dev-details summary');
  const key = localKey();
  const sha = (bytes: ArrayBuffer) => createHash('sha256').update(Buffer.from(bytes)).digest('hex');
  const recipeUrl = await copied('#copy-recipe-url', 'Recipe URL copied to the clipboard');
  assert.match(recipeUrl, /&format=png/, 'the preview is webp; the URL asks for the chosen png');
  assert.match(recipeUrl, /&pr=2(&|$)/);
  const curl = await copied('#copy-curl', 'curl command copied to the clipboard');
  const body = /-d '([^']+)'/.exec(curl)![1]!;
  const viaUrl = await fetch(recipeUrl, { headers: { Authorization: `Bearer ${key}` } });
  const viaCurl = await fetch(`${server.url}/v1/generate/blob`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body,
  });
  assert.deepEqual([viaUrl.status, viaUrl.headers.get('content-type')], [200, 'image/png']);
  assert.equal(viaUrl.headers.get('x-service-recipe-hash'), viaCurl.headers.get('x-service-recipe-hash'));
  assert.equal(sha(await viaUrl.arrayBuffer()), sha(await viaCurl.arrayBuffer()));

  // The playground link is the page's URL; a fresh tab (no session storage) restores the recipe from it alone, a reload too.
  const link = await copied('#copy-playground-link', 'Playground link copied to the clipboard');
  assert.equal(link, url);
  const other = await page.context().newPage();
  try {
    await other.goto(link);
    assert.equal(await renderedHash(other), hash);
    assert.equal(await other.inputValue('#params-points'), '9');
    assert.equal(await other.inputValue('#seed'), '12345');
    await other.reload();
    assert.equal(await renderedHash(other), hash);
  } finally {
    await other.close();
  }

  // "Save as preset" is named inline (no dialog) and saves the recipe Download renders.
  await page.fill('#preset-name', 'blob at seed 12345, 2x');
  await page.click('#save-preset');
  await page.waitForFunction(() => document.getElementById('toast')?.textContent === 'Saved preset "blob at seed 12345, 2x"');
  const presets = (await (await fetch(`${server.url}/v1/presets`, { headers: { Authorization: `Bearer ${key}` } })).json()) as {
    id: string;
    name: string;
    recipe: { slug: string; seed: number; size: unknown; format: string };
  }[];
  const saved = presets.find((p) => p.name === 'blob at seed 12345, 2x');
  assert.ok(saved, 'the preset is listed');
  assert.deepEqual(
    [saved.recipe.slug, saved.recipe.seed, saved.recipe.size, saved.recipe.format],
    ['blob', 12345, { width: 300, height: 200, pixelRatio: 2 }, 'png'],
  );

  // The Export page opens its recipe in the playground: the same route.
  await page.click('#to-export');
  const edit = page.locator('#export-edit');
  await edit.waitFor();
  assert.equal(await edit.getAttribute('href'), new URL(url).hash);

  // The Account page lists the preset with its picture (once near the window): the recipe at the size
  // it is shown, its 48×27 box at 1x (300×200 fitted: 40×27).
  const thumbs: { size?: unknown; seed?: number }[] = [];
  const watch = (req: import('playwright-core').Request) => {
    if (req.method() === 'POST' && req.url().endsWith('/v1/generate/blob'))
      thumbs.push(req.postDataJSON() as { size?: unknown; seed?: number });
  };
  page.on('request', watch);
  await open(`/#/account`);
  await page.locator(`#preset-list tr[data-preset="${saved.id}"]`).scrollIntoViewIfNeeded();
  await page.waitForFunction((id) => {
    const img = document.querySelector<HTMLImageElement>(`#preset-list img[data-thumb="${id}"]`);
    return img !== null && img.complete && img.naturalWidth > 0;
  }, saved.id);
  page.off('request', watch);
  assert.ok(
    thumbs.some((b) => b.seed === 12345 && JSON.stringify(b.size) === JSON.stringify({ width: 40, height: 27, pixelRatio: 1 })),
    JSON.stringify(thumbs),
  );
});

test('text fields: a multi-line title is a textarea (dir=auto) where Shift+Enter breaks the line; a counter counts code points', async () => {
  const generators = (await (await fetch(`${server.url}/v1/generators`)).json()) as {
    slug: string;
    paramSchema: { properties: Record<string, { 'x-multiline'?: boolean; maxLength?: number }> };
  }[];
  const title = generators.find((g) => g.slug === 'social-card')!.paramSchema.properties.title;
  assert.equal(title['x-multiline'], true, 'social-card marks its title "x-multiline" in its paramSchema');
  await open(`/#/playground/social-card`);
  await renderedHash(page);
  const field = page.locator('#params-title');
  assert.equal(await field.evaluate((el) => el.tagName), 'TEXTAREA');
  assert.equal(await field.getAttribute('dir'), 'auto');
  // A single-line string param stays an input, also typed in either direction.
  assert.equal(await page.locator('#params-label').evaluate((el) => `${el.tagName} ${el.getAttribute('dir')}`), 'INPUT auto');
  const twoLines = 'Hello\nworld 👋';
  const sent = page.waitForRequest((r) => r.url().endsWith('/v1/generate/social-card') && r.postDataJSON()?.params?.title === twoLines);
  await field.fill('Hello');
  await field.press('Shift+Enter');
  await field.pressSequentially('world 👋');
  await sent;
  assert.equal(await field.inputValue(), twoLines);
  assert.equal(recipeInUrl(page.url()).params.title, twoLines);
  // 13 code points (the emoji is one, as maxLength counts it), described to assistive technology.
  const counter = page.locator('#params-title-count');
  assert.equal(await counter.textContent(), `13 / ${title.maxLength}`);
  assert.equal(await counter.getAttribute('aria-live'), 'polite');
  assert.match((await field.getAttribute('aria-describedby')) ?? '', /\bparams-title-count\b/);
  // Help text shows `code` spans as code, never raw backticks.
  assert.equal(await page.locator('.hint', { hasText: '`' }).count(), 0);
});

test('previews at the size they are shown: a light webp whose pixels never exceed the pixels on screen; a resize asks for fewer; Download keeps png @1x', async () => {
  // At deviceScaleFactor 2; the ratio's rule itself, and webp at exactly 2x where a recipe is shown at
  // its own size: test/unit/web-sizing.test.ts. The gallery's thumbnails at 2x: the phone test.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2 });
  context.setDefaultTimeout(120_000);
  const retina = await context.newPage();
  retina.on('console', (msg) => msg.type() === 'error' && !/status of 4\d\d/.test(msg.text()) && pageErrors.push(`retina: ${msg.text()}`));
  const asked: { format: string; size: { width: number; height: number; pixelRatio: number } }[] = [];
  retina.on('request', (r) => r.url().endsWith('/v1/generate/mesh-gradient') && asked.push(r.postDataJSON()));
  /** The preview's last request against the image on screen (CSS size × deviceScaleFactor 2). */
  const check = async () => {
    const { format, size } = asked.at(-1)!;
    assert.equal(format, 'webp', 'a light webp while the form says png');
    assert.deepEqual([size.width, size.height], [1200, 630], 'the recipe keeps its own size');
    const box = await retina.locator('#preview-media').evaluate((img) => img.getBoundingClientRect().toJSON() as DOMRect);
    assert.ok(size.width * size.pixelRatio <= box.width * 2 + 0.5, `${size.width}@${size.pixelRatio} vs ${box.width} CSS px`);
    assert.ok(size.height * size.pixelRatio <= box.height * 2 + 0.5, `${size.height}@${size.pixelRatio} vs ${box.height} CSS px`);
    // Not blurrier than a step (0.05) below what is shown.
    assert.ok(size.width * (size.pixelRatio + 0.05) > box.width * 2, `${size.pixelRatio} is sharp enough for ${box.width} CSS px`);
    return size.pixelRatio;
  };
  try {
    const r = Buffer.from(
      JSON.stringify({ params: {}, seed: 3, size: { width: 1200, height: 630, pixelRatio: 1 }, format: 'png' }),
    ).toString('base64url');
    await retina.goto(`${server.url}/#/playground/mesh-gradient?r=${r}`);
    const hash = await renderedHash(retina);
    assert.equal(await retina.inputValue('#format'), 'png');
    const wide = await check();
    assert.ok(wide < 2, `a 1200 px recipe shown narrower than 1200 CSS px is not asked for at 2x (${wide})`);
    // Narrower: the page asks for the fewer pixels it now shows.
    await retina.setViewportSize({ width: 1000, height: 800 });
    await renderedHash(retina, hash);
    assert.ok((await check()) < wide);
    // Download keeps the recipe's own format and pixel ratio.
    const [download] = await Promise.all([retina.waitForEvent('download'), retina.click('#download')]);
    assert.equal(download.suggestedFilename(), 'mesh-gradient-3-1200x630.png');
    const downloaded = asked.at(-1)!;
    assert.deepEqual([downloaded.format, downloaded.size], ['png', { width: 1200, height: 630, pixelRatio: 1 }]);
  } finally {
    await context.close();
  }
});

test('a rendered file, chosen or dropped on the playground, reopens its recipe; an old version says so; a file without one changes nothing', async () => {
  // Every format's recipe read from its bytes (png, webp, gif, mp4, svg, css): test/unit/web-recipe-file.test.ts.
  const key = localKey();
  const files = [
    { slug: 'blob', format: 'png', size: { width: 120, height: 80, pixelRatio: 2 }, params: { points: 9 } },
    { slug: 'waves', format: 'svg', size: { width: 300, height: 150, pixelRatio: 1 }, params: { layers: 4 } },
  ];
  await open(`/#/playground/blob`);
  await renderedHash(page);
  for (const [i, f] of files.entries()) {
    const res = await fetch(`${server.url}/v1/generate/${f.slug}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ params: f.params, seed: 4242 + i, size: f.size, format: f.format }),
    });
    assert.equal(res.status, 200, f.format);
    const recipe = JSON.parse(Buffer.from(res.headers.get('x-service-recipe')!, 'base64url').toString('utf8')) as {
      generator: string;
      params: Record<string, unknown>;
      seed: number;
      size: unknown;
      format: string;
    };
    const bytes = Buffer.from(await res.arrayBuffer());
    const name = `picture.${f.format}`;
    if (f.format === 'png') {
      // The file input…
      await page.setInputFiles('#open-file', { name, mimeType: 'image/png', buffer: bytes });
    } else {
      // …or a drop on the page.
      await page.evaluate(
        ({ b64, name }) => {
          const file = new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name);
          const data = new DataTransfer();
          data.items.add(file);
          document.getElementById('preview')!.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
        },
        { b64: bytes.toString('base64'), name },
      );
    }
    await page.waitForURL((url) => url.hash.startsWith(`#/playground/${f.slug}?`) && recipeInUrl(url.href).seed === 4242 + i);
    assert.deepEqual(
      recipeInUrl(page.url()),
      { params: recipe.params, seed: recipe.seed, size: recipe.size, format: recipe.format },
      f.format,
    );
    await page.waitForFunction((format) => (document.getElementById('format') as HTMLSelectElement | null)?.value === format, f.format);
    assert.equal(await page.inputValue('#seed'), String(4242 + i));
    assert.equal(await page.textContent('#toast'), `Opened the recipe of ${name}`);
  }
  // A file rendered by a superseded generator version opens its recipe in the playground, which edits
  // the current version, and says so (a recipe URL pinning the old one still renders the old picture).
  const generators = (await (await fetch(`${server.url}/v1/generators`)).json()) as { slug: string; version: string }[];
  const current = generators.find((g) => g.slug === 'linear-gradient')!.version;
  const res = await fetch(`${server.url}/v1/generate/linear-gradient`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ params: { angle: 30 }, seed: 77, size: { width: 160, height: 90 }, format: 'css' }),
  });
  const css = await res.text();
  const encoded = /"recipe":"([A-Za-z0-9_-]+)"/.exec(css)![1]!;
  const old = { ...JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')), version: '1.0.0' } as { version: string };
  assert.notEqual(current, old.version);
  const oldCss = css.replace(encoded, Buffer.from(JSON.stringify(old)).toString('base64url'));
  await page.setInputFiles('#open-file', { name: 'old.css', mimeType: 'text/css', buffer: Buffer.from(oldCss) });
  await page.waitForURL((url) => url.hash.startsWith('#/playground/linear-gradient?') && recipeInUrl(url.href).seed === 77);
  await page.waitForFunction(() =>
    /^old\.css was rendered by linear-gradient 1\.0\.0/.test(document.getElementById('toast')?.textContent ?? ''),
  );
  assert.match(
    (await page.textContent('#toast')) ?? '',
    new RegExp(`the current version, ${current.replaceAll('.', '\\.')}, whose output differs`),
  );

  // A file without a recipe says so and changes nothing.
  const before = page.url();
  await page.setInputFiles('#open-file', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await page.waitForFunction(() => /^No recipe in notes\.txt/.test(document.getElementById('toast')?.textContent ?? ''));
  assert.equal(page.url(), before);
});

test('animations preview as a small mp4 with the same params (quick); Download renders the chosen gif at full size, or asks first when it may be big', async () => {
  const bodies: { format?: string; size?: { width?: number; height?: number }; params?: Record<string, unknown> }[] = [];
  const onRequest = (r: import('playwright-core').Request) => r.url().includes('/v1/generate/') && bodies.push(r.postDataJSON());
  page.on('request', onRequest);
  try {
    const r = Buffer.from(
      JSON.stringify({ params: { duration: 1, fps: 10 }, seed: 5, size: { width: 640, height: 360, pixelRatio: 1 }, format: 'gif' }),
    ).toString('base64url');
    await open(`/#/playground/plasma?r=${r}`);
    await page.waitForSelector('#preview video#preview-media');
    const shown = bodies.at(-1)!;
    assert.deepEqual([shown.format, shown.size?.width, shown.size?.height], ['mp4', 480, 270]);
    assert.deepEqual([shown.params?.duration, shown.params?.fps], [1, 10], 'the same params as the recipe');
    assert.match((await page.textContent('#preview-status')) ?? '', /480×270 \(a quick preview/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
    assert.match(download.suggestedFilename(), /^plasma-5-640x360\.gif$/);
    assert.deepEqual([bodies.at(-1)!.format, bodies.at(-1)!.size?.width], ['gif', 640]);

    // A gif that may pass ~5 MB (here 1920×1080; the estimate: test/unit/web-estimate.test.ts) asks
    // first and points to mp4; declining renders nothing.
    const gifs = () => bodies.filter((b) => b.format === 'gif').length;
    const requested = gifs();
    let asked = '';
    page.once('dialog', (d) => {
      asked = d.message();
      void d.dismiss();
    });
    await page.fill('#size-width', '1920');
    await page.fill('#size-height', '1080');
    await page.click('#download');
    assert.match(asked, /up to \d+ MB.*mp4/);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'format');
    assert.equal(gifs(), requested, 'nothing rendered');
    await page.waitForSelector('#preview:not(.loading) video#preview-media');
  } finally {
    page.off('request', onRequest);
  }
});

test('designer tools: seed variations, palette presets and hex paste, locks kept by Shuffle, a live css swatch', async () => {
  // The rules behind them (variations, colours pasted as text, presets, Shuffle's draws):
  // test/unit/web-explore.test.ts and web-param-values.test.ts. Here: the controls, and that a
  // variation is the picture the preview then shows.
  await open(`/#/playground/blob`);
  let hash = await renderedHash(page);
  // Variations: small previews of other seeds; a click picks one.
  await page.click('#variations-btn');
  // Each tile keeps its picture's place while it renders: nothing under the tiles moves as they come in.
  const moreLikeTops = () => page.$$eval('#variations .more-like', (els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
  const whileLoading = await moreLikeTops();
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll<HTMLImageElement>('#variations .variation img')].filter((i) => i.complete && i.naturalWidth > 0)
        .length === 6,
  );
  assert.deepEqual(await moreLikeTops(), whileLoading);
  const third = page.locator('#variations .variation').nth(2);
  const picked = (await third.getAttribute('data-seed'))!;
  // A variation is the recipe with another seed (the same size, params and format)…
  const main = recipeInUrl(page.url());
  const variation = JSON.parse((await third.getAttribute('data-recipe'))!) as ReturnType<typeof recipeInUrl>;
  assert.deepEqual({ ...variation, seed: main.seed }, main);
  assert.notEqual(variation.seed, main.seed);
  // Tiles large enough to judge a picture (two a row beside the params).
  assert.ok(
    (await page.$$eval('#variations .variation', (els) => els.map((e) => e.getBoundingClientRect().width))).every((w) => w >= 140),
    'variation tiles are at least 140 px wide',
  );
  await third.click();
  hash = await renderedHash(page, hash);
  assert.equal(await page.inputValue('#seed'), picked);
  // The chosen tile stays marked once the focus has left it (aria-pressed and its border); the others are not.
  await page.focus('#seed');
  assert.deepEqual(await page.$$eval('#variations .variation', (els) => els.map((e) => e.getAttribute('aria-pressed'))), [
    'false',
    'false',
    'true',
    'false',
    'false',
    'false',
  ]);
  const borders = await page.$$eval('#variations .variation', (els) => els.map((e) => getComputedStyle(e).borderTopWidth));
  assert.ok(parseFloat(borders[2]) > parseFloat(borders[0]), `the chosen tile's border stands out: ${borders.join(', ')}`);
  assert.equal(recipeInUrl(page.url()).seed, Number(picked));
  // …and the same picture: its recipe at the preview's pixel ratio is the recipe the preview now shows.
  const shownRecipe = JSON.parse(Buffer.from((await page.locator('#meta-recipe').textContent())!, 'base64url').toString('utf8')) as {
    format: string;
    size: { pixelRatio: number };
  };
  const again = await fetch(`${server.url}/v1/generate/blob`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${localKey()}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      ...variation,
      format: shownRecipe.format,
      size: { ...variation.size, pixelRatio: shownRecipe.size.pixelRatio },
    }),
  });
  assert.equal(again.status, 200);
  await again.arrayBuffer();
  assert.equal(again.headers.get('x-service-recipe-hash'), hash);
  await screenshot(page, 'playground-variations');
  // An edit that makes the recipe another one takes the mark away.
  await page.click('#new-seed');
  await page.waitForFunction(() => !document.querySelector('#variations .variation[aria-pressed="true"]'));
  // More like this: six tiles of that seed (their numbers nudged); a click makes one the recipe.
  await page.locator('#variations .more-like').nth(1).click();
  const nearSeed = await page.locator('#variations .variation').nth(1).getAttribute('data-seed');
  // Every tile there and its picture in (a tile keeps its place as its picture comes in, but a click
  // is judged on the tiles as they end).
  await page.waitForFunction(
    (seed) =>
      [...document.querySelectorAll<HTMLElement>('#variations .variation')].every(
        (b) => b.dataset.seed === seed && !b.classList.contains('loading'),
      ),
    nearSeed,
  );
  const near = JSON.parse((await page.locator('#variations .variation').nth(4).getAttribute('data-recipe'))!) as ReturnType<
    typeof recipeInUrl
  >;
  await page.locator('#variations .variation').nth(4).click();
  assert.deepEqual(recipeInUrl(page.url()), near);
  assert.equal(await page.locator('#variations .variation[aria-pressed="true"]').getAttribute('data-recipe'), JSON.stringify(near));

  // Colours: paste hex into the palette's text field; pick a preset; paste into a single colour's
  // field. Each edit is the recipe at once (the URL; the render follows).
  await page.getByLabel(/^Palette \(hex list/).fill('#ff0000, #00ff00 0000ff');
  assert.deepEqual(await page.$$eval('#params-palette input[type=color]', (els) => els.map((e) => (e as HTMLInputElement).value)), [
    '#ff0000',
    '#00ff00',
    '#0000ff',
  ]);
  assert.deepEqual(recipeInUrl(page.url()).params.palette, ['#ff0000', '#00ff00', '#0000ff']);
  await page.getByLabel('Palette palette preset').selectOption('Ocean');
  assert.deepEqual(recipeInUrl(page.url()).params.palette, ['#03045e', '#0077b6', '#00b4d8']);
  await page.getByLabel('Background (hex)').fill('#123456');
  assert.equal(await page.inputValue('#params-background'), '#123456');
  assert.equal(recipeInUrl(page.url()).params.background, '#123456');

  // Shuffle: new seed and new unlocked params; a locked param keeps its value.
  await page.check('#lock-points');
  await page.check('#lock-background');
  const before = recipeInUrl(page.url());
  await page.click('#shuffle');
  const after = recipeInUrl(page.url());
  assert.notEqual(after.seed, before.seed);
  assert.equal(after.params.points, before.params.points);
  assert.equal(after.params.background, '#123456');
  assert.ok(
    Object.keys(before.params).some((k) => JSON.stringify(before.params[k]) !== JSON.stringify(after.params[k])),
    'an unlocked param changed',
  );
  await renderedRecipe(page, { seed: after.seed });

  // css output: the stylesheet applied to a swatch beside its source.
  await open(`/#/playground/linear-gradient`);
  await page.waitForFunction(() => document.querySelector<HTMLSelectElement>('#generator')?.value === 'linear-gradient');
  await renderedHash(page);
  await page.selectOption('#format', 'css');
  await page.locator('#css-swatch').waitFor();
  await page.locator('#preview-css').waitFor();
  const background = await page
    .locator('#css-swatch')
    .evaluate((host) => getComputedStyle(host.shadowRoot!.querySelector('div')!).backgroundImage);
  assert.match(background, /gradient/);
  await screenshot(page, 'playground-css');
});

test('sweep sheet: "Sweep…" opens one param across a range in columns without an orphan, each cell a loaded picture that opens large with its recipe\'s link to the playground', async () => {
  // The sheet from its link alone (values, seed grids, log scales, defaults): test/unit/web-explore.test.ts.
  type Recipe = ReturnType<typeof recipeInUrl>;
  await open(`/#/playground/blob`);
  // The defaults' seed 0 becomes the seed they derive once the sharp picture is in (playground.js);
  // until the page's chunk has loaded, the previous test's playground (and its hash) is still shown.
  await page.waitForFunction(() => {
    const r = new URLSearchParams(location.hash.split('?')[1] ?? '').get('r');
    try {
      return r !== null && (JSON.parse(atob(r.replace(/-/g, '+').replace(/_/g, '/'))) as { seed: number }).seed > 0;
    } catch {
      return false;
    }
  });
  await renderedHash(page);
  const base = recipeInUrl(page.url());
  // From the playground: Sweep… offers the numeric params (and seed), prefilled with the schema's range.
  await page.click('#sweep-form summary');
  await page.selectOption('#sweep-param', 'points');
  assert.deepEqual(await Promise.all(['#sweep-from', '#sweep-to', '#sweep-n'].map((sel) => page.inputValue(sel))), ['3', '16', '8']);
  await page.fill('#sweep-to', '10');
  await page.click('#sweep-open');
  await page.waitForURL(/#\/sweep\/blob\?r=[\w-]+&param=points&from=3&to=10&n=8$/);
  // The cells once every picture has loaded: each one's value and the recipe its link opens.
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('#sweep .sweep-cell')].filter((a) => {
        const img = a.querySelector('img');
        return !a.classList.contains('loading') && img?.complete && img.naturalWidth > 0;
      }).length === 8,
  );
  const cells = await page.$$eval('#sweep .sweep-cell', (els) =>
    els.map((a) => [a.getAttribute('data-value'), a.getAttribute('data-href')]),
  );
  const points: { value: number; recipe: Recipe }[] = cells.map(([value, href]) => ({
    value: Number(value),
    recipe: recipeInUrl(new URL(href!, server.url).href),
  }));
  assert.deepEqual(
    points.map((c) => c.value),
    [3, 4, 5, 6, 7, 8, 9, 10],
  );
  for (const { value, recipe } of points) assert.deepEqual(recipe, { ...base, params: { ...base.params, points: value } });
  // 8 cells in 2 rows of 4 (no orphan in a 7-column grid), each wider than 165 px on this 1280 px page.
  const grid = await page.$eval('#sweep', (el) => ({
    columns: getComputedStyle(el).gridTemplateColumns.split(' ').map(parseFloat),
    rows: new Set([...el.children].map((c) => Math.round(c.getBoundingClientRect().top))).size,
  }));
  assert.equal(grid.columns.length, 4, `columns: ${grid.columns.join(', ')}`);
  assert.equal(grid.rows, 2);
  assert.ok(
    grid.columns.every((w) => w > 165),
    `columns: ${grid.columns.join(', ')}`,
  );
  // Each cell asked for the pixels it shows: its picture's pixels are those of its box on this 1x screen.
  const fits = await page.$$eval('#sweep .sweep-cell img', (imgs) =>
    imgs.map((i) => (i as HTMLImageElement).naturalWidth <= Math.ceil(i.getBoundingClientRect().width)),
  );
  assert.deepEqual(fits, Array(8).fill(true));
  await screenshot(page, 'sweep-points');
  // Enter on a cell opens it large in a dialog (a sharper picture than the cell's); Escape closes it, back on the cell.
  await page.locator('#sweep .sweep-cell').nth(2).focus();
  await page.keyboard.press('Enter');
  const zoom = page.locator('#sweep-zoom');
  await zoom.waitFor();
  assert.equal(await page.locator('#sweep-zoom-title').textContent(), 'points 5');
  await page.waitForFunction(() => {
    const img = document.querySelector<HTMLImageElement>('#sweep-zoom-img');
    const cell = document.querySelectorAll<HTMLImageElement>('#sweep .sweep-cell img')[2];
    return img?.dataset.sharp === 'true' && img.complete && img.naturalWidth > cell.naturalWidth;
  });
  await screenshot(page, 'sweep-zoom', false);
  await page.keyboard.press('Escape');
  await zoom.waitFor({ state: 'detached' });
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-value')), '5');
  // A click opens it too; its link opens that cell's recipe in the playground.
  await page.locator('#sweep .sweep-cell').nth(2).click();
  await page.click('#sweep-zoom-open');
  await page.waitForURL(/#\/playground\/blob\?r=/);
  await renderedHash(page);
  assert.equal(await page.inputValue('#params-points'), '5');
  assert.deepEqual(recipeInUrl(page.url()), points[2].recipe);
});

test('export: an animated gif job streams progress to 100% and offers a download', async () => {
  await open(`/#/playground/plasma`);
  await renderedHash(page);
  await page.fill('#size-width', '64');
  await page.fill('#size-height', '64');
  await page.waitForFunction(() => document.querySelector('#preview-status')?.textContent?.includes('64×64'));
  await page.click('#to-export');
  await page.locator('#export-start').waitFor();
  await page.selectOption('#export-format', 'gif');
  // Nothing runs yet: no bar, no 0 % "idle".
  assert.equal(await page.locator('#export-progress').isVisible(), false);
  assert.equal(await page.getByText('idle', { exact: true }).count(), 0);
  await page.click('#export-start');
  await page.waitForFunction(() => document.querySelector('#export-status')?.textContent === 'completed', undefined, { timeout: 120_000 });
  assert.ok(await page.locator('#export-progress').isVisible());
  assert.equal(await page.locator('#export-progress').evaluate((p: HTMLProgressElement) => p.value), 100);
  assert.equal(await page.locator('#export-percent').textContent(), '100%');
  const link = page.locator('#export-download');
  await link.waitFor();
  assert.match((await link.getAttribute('href')) ?? '', /^blob:/);
  assert.match((await link.getAttribute('download')) ?? '', /\.gif$/);
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  assert.match(download.suggestedFilename(), /\.gif$/);
  await page.locator('#history tr[data-job] .status-completed').first().waitFor();
  // The completed job's row shows its thumbnail (GET /v1/jobs/{id}/thumbnail through a blob: URL).
  await page.waitForFunction(() => {
    const img = document.querySelector<HTMLImageElement>('#history tr[data-job] img.job-thumb');
    return img !== null && img.src.startsWith('blob:') && img.complete && img.naturalWidth > 0;
  });
  await screenshot(page, 'export');
});

test('export page: re-attaches to a running job, polls when the event stream breaks, says "encoding…", Cancel and Retry in history', async () => {
  // The gif job of the previous test, stood in as still running at 95 % in the listing and the job
  // itself, with a broken event stream (429 too_many_streams): the page must follow it by polling.
  const key = localKey();
  const auth = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  const listed = (await (await fetch(`${server.url}/v1/jobs?limit=20`, { headers: auth })).json()) as Record<string, unknown>[];
  const real = listed.find((j) => j.status === 'completed' && j.format === 'gif')!;
  assert.ok(real, 'the gif job of the previous test');
  const { resultUrl: _u, expiresAt: _e, contentType: _c, ...rest } = real;
  const running = { ...rest, status: 'running', finished: false, progress: 0.95, resultReady: false };
  let stillRunning = true;
  await page.route('**/v1/jobs?limit=20', async (route) => {
    // Playwright's fetch carries no fetch metadata, so the local gateway wants the key.
    const response = await route.fetch({ headers: { ...route.request().headers(), authorization: `Bearer ${key}` } });
    const jobs = (await response.json()) as Record<string, unknown>[];
    return fulfillPerContract(route, stillRunning ? jobs.map((j) => (j.id === real.id ? running : j)) : jobs);
  });
  await page.route(`**/v1/jobs/${real.id}/events`, (route) =>
    route.fulfill({
      status: 429,
      headers: { 'Retry-After': '1' },
      contentType: 'application/problem+json',
      body: JSON.stringify({
        type: '/v1/reference#problem-too_many_streams',
        title: 'Too many streams',
        status: 429,
        code: 'too_many_streams',
      }),
    }),
  );
  let cancelled: string | undefined;
  await page.route(`**/v1/jobs/${real.id}/cancel`, (route) => {
    cancelled = real.id as string;
    return fulfillPerContract(route, { ...running, cancelled: true });
  });
  let polled = 0;
  await page.route(`**/v1/jobs/${real.id}`, async (route) => {
    polled++;
    if (stillRunning) return fulfillPerContract(route, running);
    return route.fulfill({ response: await route.fetch({ headers: { ...route.request().headers(), authorization: `Bearer ${key}` } }) });
  });
  try {
    await open(`/#/`);
    await open(`/#/export`);
    // The previous test's export page showed this job too: only the page built since counts.
    await page.waitForFunction(
      (id) =>
        document.querySelector('#view')?.getAttribute('aria-busy') !== 'true' &&
        (document.querySelector('#export-job') as HTMLElement | null)?.dataset.job === id,
      real.id,
    );
    await page.waitForFunction(() => document.querySelector('#export-stage')?.textContent === 'encoding…');
    await page.waitForFunction(() => document.querySelector('#export-status')?.textContent === 'running');
    const row = page.locator(`#history tr[data-job="${real.id}"]`);
    assert.match((await row.locator('.job-output').textContent()) ?? '', /^gif · 64×64/);
    assert.match((await row.locator('a.open-recipe').getAttribute('href')) ?? '', /^#\/playground\/plasma\?r=/);
    await screenshot(page, 'export-encoding');
    await row.locator('button.cancel').click();
    await page.waitForFunction(() => document.querySelector('#export-stage')?.textContent === 'cancelling…');
    assert.equal(cancelled, real.id);
    // The service answers for real again: polling sees the job completed.
    stillRunning = false;
    await page.waitForFunction(() => document.querySelector('#export-status')?.textContent === 'completed');
    await page.locator('#export-download').waitFor();
    assert.ok(polled >= 2, `polled ${polled} times`);
  } finally {
    // A stand-in may still be on its way (a history refresh): it is dropped, not an error.
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  }

  // Retry: the same job, stood in as failed in the listing, is submitted again with its recipe.
  await page.route('**/v1/jobs?limit=20', async (route) => {
    const response = await route.fetch({ headers: { ...route.request().headers(), authorization: `Bearer ${key}` } });
    const jobs = (await response.json()) as Record<string, unknown>[];
    const failed = { ...rest, status: 'failed', progress: 0.5, resultReady: false, error: 'the encoder exited with code 1' };
    return fulfillPerContract(
      route,
      jobs.map((j) => (j.id === real.id ? failed : j)),
    );
  });
  try {
    await open(`/#/`);
    await open(`/#/export`);
    const row = page.locator(`#history tr[data-job="${real.id}"]`);
    await row.locator('button.retry').waitFor();
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith('/v1/jobs') && r.method() === 'POST'),
      row.locator('button.retry').click(),
    ]);
    const body = request.postDataJSON() as { slug: string; size: unknown; format: string; seed: number };
    const original = JSON.parse(Buffer.from(real.recipe as string, 'base64url').toString('utf8')) as { seed: number };
    assert.deepEqual(
      [body.slug, body.size, body.format, body.seed],
      ['plasma', { width: 64, height: 64, pixelRatio: 1 }, 'gif', original.seed],
    );
  } finally {
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  }
  await page.waitForFunction((id) => {
    const job = (document.querySelector('#export-job') as HTMLElement | null)?.dataset.job;
    return job && job !== id && document.querySelector('#export-status')?.textContent === 'completed';
  }, real.id as string);
});

test('export owns its settings: a history row re-exported with another format, size and timing; a download too long to render directly goes to Export', async () => {
  await open(`/#/`);
  await open(`/#/export`);
  const gifRow = page
    .locator('#history tr[data-job]')
    .filter({ has: page.locator('.status-completed') })
    .filter({ hasText: /gif · 64×64/ });
  await gifRow.first().waitFor();
  const id = (await gifRow.first().getAttribute('data-job'))!;
  await page.locator(`#history tr[data-job="${id}"] button.re-export`).click();
  await page.waitForFunction((job) => document.querySelector('#export-source')?.textContent?.startsWith(`Job ${job}`), id);
  assert.deepEqual(await Promise.all(['#export-format', '#export-width', '#export-height'].map((sel) => page.inputValue(sel))), [
    'gif',
    '64',
    '64',
  ]);
  await page.selectOption('#export-format', 'mp4');
  await page.fill('#export-width', '96');
  await page.fill('#export-duration', '1');
  await page.fill('#export-fps', '12');
  const [request] = await Promise.all([
    page.waitForRequest((r) => r.url().endsWith('/v1/jobs') && r.method() === 'POST'),
    page.click('#export-start'),
  ]);
  const key = localKey();
  const job = (await (await fetch(`${server.url}/v1/jobs/${id}`, { headers: { Authorization: `Bearer ${key}` } })).json()) as {
    recipe: string;
  };
  const original = JSON.parse(Buffer.from(job.recipe, 'base64url').toString('utf8')) as { params: Record<string, unknown>; seed: number };
  assert.deepEqual(request.postDataJSON(), {
    slug: 'plasma',
    params: { ...original.params, duration: 1, fps: 12 },
    seed: original.seed,
    size: { width: 96, height: 64, pixelRatio: 1 },
    format: 'mp4',
  });
  await page.waitForFunction((old) => {
    const job = (document.querySelector('#export-job') as HTMLElement | null)?.dataset.job;
    return job && job !== old && document.querySelector('#export-status')?.textContent === 'completed';
  }, id);
  // One file-name rule for Download and Export.
  const link = page.locator('#export-download');
  await link.waitFor();
  assert.equal(await link.getAttribute('download'), `plasma-${original.seed}-96x64.mp4`);

  // Download asks the service whether the recipe fits its synchronous budget (POST /v1/quote, whose
  // render-time model is the service's; this one runs with ANIMATION_BUDGET_MS 300 s): 10 s of 1080p
  // at 30 fps is within it, so Download renders at once.
  const recipeParam = (size: { width: number; height: number; pixelRatio: number }) =>
    Buffer.from(JSON.stringify({ params: { duration: 10, fps: 30 }, seed: 8, size, format: 'mp4' })).toString('base64url');
  await open(`/#/playground/plasma?r=${recipeParam({ width: 1920, height: 1080, pixelRatio: 1 })}`);
  await page.locator('#download').waitFor();
  let asked = '';
  const ask = (d: import('playwright-core').Dialog) => {
    asked = d.message();
    void d.accept();
  };
  page.on('dialog', ask);
  const direct = page.waitForRequest((req) => {
    if (!req.url().endsWith('/v1/generate/plasma') || req.method() !== 'POST') return false;
    const body = req.postDataJSON() as { format?: string; size?: { width?: number } };
    return body.format === 'mp4' && body.size?.width === 1920;
  });
  await page.click('#download');
  await direct;
  assert.equal(asked, '', "a download within the service's budget is not sent to Export");
  // Leave the page, so the download's request is dropped and the service stops rendering it.
  await page.goto('about:blank');

  // A download the quote says the budget cannot meet asks first, then goes to Export. No recipe within
  // the engine's limits takes 300 s by the model, so the quote is a stand-in (checked against the
  // contract): what is under test is the page's answer to `fitsSyncBudget: false`.
  const quoted: unknown[] = [];
  await page.route('**/v1/quote', (route) => {
    quoted.push(route.request().postDataJSON());
    return fulfillPerContract(route, {
      credits: 0,
      pixels: 497_664_000,
      frames: 240,
      fitsSyncBudget: false,
      estimatedMs: 330_000,
      cached: false,
    });
  });
  const recipe = { width: 1920, height: 1080, pixelRatio: 1 };
  const slow = Buffer.from(JSON.stringify({ params: { duration: 10, fps: 24 }, seed: 8, size: recipe, format: 'mp4' })).toString(
    'base64url',
  );
  await open(`/#/playground/plasma?r=${slow}`);
  await page.locator('#download').waitFor();
  // Decided before any render starts: no full-size render is asked for, only the quote.
  const fullSize: string[] = [];
  const watchRenders = (req: import('playwright-core').Request) => {
    if (req.url().endsWith('/v1/generate/plasma') && (req.postDataJSON() as { size?: { width?: number } }).size?.width === 1920)
      fullSize.push(req.url());
  };
  page.on('request', watchRenders);
  await page.click('#download');
  await page.waitForURL(/#\/export$/);
  page.off('request', watchRenders);
  page.off('dialog', ask);
  await page.unroute('**/v1/quote');
  assert.deepEqual(fullSize, [], 'no render started for a download the quote says would not fit');
  assert.match(asked, /about 330 s to render, longer than a direct download allows \(300 s\)\. Export it as a job/);
  const quotedRender = (
    quoted.at(-1) as { render: { slug: string; params: Record<string, unknown>; seed: number; size: unknown; format: string } }
  ).render;
  assert.deepEqual(
    [quotedRender.slug, quotedRender.params.duration, quotedRender.params.fps, quotedRender.seed, quotedRender.size, quotedRender.format],
    ['plasma', 10, 24, 8, recipe, 'mp4'],
  );
  await page.locator('#export-source').waitFor();
  assert.match((await page.locator('#export-source').textContent()) ?? '', /^Current recipe: .* seed 8/);
  assert.deepEqual(
    await Promise.all(['#export-format', '#export-width', '#export-duration', '#export-fps'].map((sel) => page.inputValue(sel))),
    ['mp4', '1920', '10', '24'],
  );
});

test('a download the quote let through that still fails with 504 animation_budget_exceeded offers Export at once, one click away', async () => {
  // The service under load: the quote says the recipe fits, the render passes the budget anyway.
  // Both are stand-ins (checked against the contract); what is under test is the page's answer.
  await page.route('**/v1/quote', (route) =>
    fulfillPerContract(route, { credits: 0, pixels: 124_416_000, frames: 60, fitsSyncBudget: true, estimatedMs: 15_000, cached: false }),
  );
  await page.route('**/v1/generate/plasma', (route) => {
    const body = route.request().postDataJSON() as { size?: { width?: number }; format?: string };
    if (body.format !== 'mp4' || body.size?.width !== 1920) return route.fallback();
    const problem = {
      type: '/v1/reference#problem-animation_budget_exceeded',
      status: 504,
      code: 'animation_budget_exceeded',
      title: 'The animation exceeds the synchronous budget',
      detail: 'The render took longer than the 300 s a direct render may take: export it as a job.',
    };
    contract.assertResponse('POST', route.request().url(), 504, problem);
    return route.fulfill({ status: 504, contentType: 'application/problem+json', body: JSON.stringify(problem) });
  });
  const recipe = { params: { duration: 2.5, fps: 24 }, seed: 9, size: { width: 1920, height: 1080, pixelRatio: 1 }, format: 'mp4' };
  await open(`/#/playground/plasma?r=${Buffer.from(JSON.stringify(recipe)).toString('base64url')}`);
  await renderedHash(page);
  // The browser notes the 504 this test provokes on purpose: not a page error (dropped below).
  const noted = page.waitForEvent('console', (msg) => /status of 504/.test(msg.text()));
  await page.click('#download');
  const offer = page.locator('#download-too-long');
  await offer.waitFor();
  await noted;
  pageErrors.splice(0, pageErrors.length, ...pageErrors.filter((e) => !/status of 504/.test(e)));
  assert.match((await offer.textContent()) ?? '', /Too long to render directly \(the service allows 300 s\).*export it as a job/);
  // The offer has the focus: one click (or Enter) and the export page holds the recipe.
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'download-export');
  await page.unroute('**/v1/generate/plasma');
  await page.unroute('**/v1/quote');
  await page.click('#download-export');
  await page.waitForURL(/#\/export$/);
  await page.locator('#export-source').waitFor();
  assert.match((await page.locator('#export-source').textContent()) ?? '', /^Current recipe: .* seed 9/);
  assert.deepEqual(
    await Promise.all(['#export-format', '#export-width', '#export-duration', '#export-fps'].map((sel) => page.inputValue(sel))),
    ['mp4', '1920', '2.5', '24'],
  );
});

test('accessibility: axe-core finds no WCAG 2.1 A/AA violation (contrast included) on any page, in the light and the dark scheme; every control is labelled', async () => {
  const axe = readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
  // A completed job, so the Export page's history shows its status chips (the export tests' jobs, or one of its own).
  const key = localKey();
  const auth = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  const jobs = (await (await fetch(`${server.url}/v1/jobs?limit=20`, { headers: auth })).json()) as { status: string }[];
  if (!jobs.some((j) => j.status === 'completed')) {
    const { id } = (await (
      await fetch(`${server.url}/v1/jobs`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ slug: 'blob', size: { width: 64, height: 64 } }),
      })
    ).json()) as { id: string };
    // Its event stream ends the wait (it opens with the job's current status), no polling.
    const events = (await fetch(`${server.url}/v1/jobs/${id}/events`, { headers: auth })).body!.getReader();
    for (let seen = ''; !seen.includes('"status":"completed"');) {
      const { value, done } = await events.read();
      assert.ok(!done, `the job's events ended before it completed: ${seen}`);
      seen += Buffer.from(value).toString('utf8');
    }
    await events.cancel();
  }
  // A URL signing key, so the Share panel shows its key, expiry and measured formats (revoked at the end: the signed-URL test starts without one).
  const signingKey = (await (
    await fetch(`${server.url}/v1/url-signing-keys`, { method: 'POST', headers: auth, body: JSON.stringify({ label: 'axe' }) })
  ).json()) as { id: string };
  const found: string[] = [];
  // axe is injected as an inline script, which the page's CSP (rightly) refuses: bypassed here only.
  // Each page is loaded once and checked in both schemes (prefers-color-scheme switched in place).
  const context = await browser.newContext({ colorScheme: 'light', bypassCSP: true });
  context.setDefaultTimeout(120_000);
  const target = await context.newPage();
  /** Every visible control labelled, and axe in both schemes, of the page as it is now. */
  const audit = async (route: string) => {
    // Every visible control has an accessible name (a label or aria-label).
    found.push(...(await unlabelledControls(target)).map((c) => `#/${route}: unlabelled ${c}`));
    for (const colorScheme of ['light', 'dark'] as const) {
      await target.emulateMedia({ colorScheme });
      // A colour that transitions (a toggle's track) is checked once it has arrived.
      await target.waitForFunction(() => !document.getAnimations().some((a) => a instanceof CSSTransition));
      // The dark scheme changes colours only: its pass runs the rules that read them. Both run
      // empty-table-header too (a best-practice rule, outside the WCAG tags): a column of buttons has a heading.
      const options =
        colorScheme === 'light'
          ? {
              runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
              rules: { 'empty-table-header': { enabled: true } },
            }
          : { runOnly: { type: 'rule', values: ['color-contrast', 'link-in-text-block', 'empty-table-header'] } };
      const { violations, headers } = await target.evaluate(async (opts) => {
        type Result = { id: string; nodes: { target: string[]; failureSummary?: string }[] };
        const axeRun = (
          window as unknown as { axe: { run: (ctx: unknown, options: unknown) => Promise<{ violations: Result[]; passes: Result[] }> } }
        ).axe.run;
        const result = await axeRun(document, opts);
        return {
          violations: result.violations.map(
            (v) =>
              `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} (${n.failureSummary?.split('\n').slice(1).join(' ').trim()})`).join('; ')}`,
          ),
          headers: result.passes.find((p) => p.id === 'empty-table-header')?.nodes.length ?? 0,
        };
      }, options);
      found.push(...violations.map((v) => `#/${route} ${colorScheme}: ${v}`));
      // The pages with tables: the rule found their headings and passed them.
      if (route === 'export' || route === 'account') assert.ok(headers > 0, `#/${route} ${colorScheme}: no table heading checked`);
    }
    await target.emulateMedia({ colorScheme: 'light' });
  };
  try {
    for (const route of ['', 'playground/mesh-gradient', 'sweep/blob?param=points&n=4', 'export', 'account']) {
      await target.goto(`${server.url}/#/${route}`);
      await target.locator('main h1').first().waitFor();
      await target.waitForLoadState('networkidle');
      if (route === 'export') await target.locator('#history tr[data-job] .status-completed').first().waitFor();
      if (route.startsWith('sweep')) await target.waitForFunction(() => document.querySelectorAll('#sweep img').length === 4);
      if (route.startsWith('playground')) {
        await renderedHash(target);
        await target.click('#dev-details summary');
        await target.click('#variations-btn');
        await target.waitForFunction(() => document.querySelectorAll('#variations .variation img').length === 6);
      }
      await target.addScriptTag({ content: axe });
      await audit(route);
      if (route.startsWith('playground')) {
        // The Share panel, open (from the keyboard), its formats measured.
        await target.focus('#share');
        await target.keyboard.press('Enter');
        await target.waitForFunction(() => {
          const options = [...document.querySelectorAll('#share-dialog #share-format option')];
          return options.length > 0 && options.every((o) => /\d (B|KB|MB)$/.test(o.textContent ?? ''));
        });
        await audit(`${route} (Share panel open)`);
        await target.keyboard.press('Escape');
        await target.locator('#share-dialog').waitFor({ state: 'detached' });
      }
    }
  } finally {
    await context.close();
    await fetch(`${server.url}/v1/url-signing-keys/${signingKey.id}`, { method: 'DELETE', headers: auth });
  }
  assert.deepEqual(found, []);
});

test('account: a new key is shown once and listed; revoking marks it revoked', async () => {
  await open(`/#/account`);
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

  await open(`/#/`);
  await open(`/#/account`);
  await page.locator('#key-list tr', { hasText: 'web-app-test' }).waitFor();
  assert.equal(await page.locator('#key-secret').count(), 0, 'the secret is shown only once');
  assert.equal(await page.locator('#credits').isHidden(), true, 'local mode meters no credits');
  await screenshot(page, 'account');
  assert.deepEqual(pageErrors, []);
});

test('account: preset pictures render at the size they are shown, only near the window, never more than 3 at once', async () => {
  const auth = { Authorization: `Bearer ${localKey()}`, 'Content-Type': 'application/json' };
  // Twenty 4096×4096 presets: a picture of the whole preset at pixel ratio 0.5 was 2048×2048 (5 credits in hosted mode).
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) {
    const body = { name: `big ${i}`, recipe: { slug: 'mesh-gradient', seed: 100 + i, size: { width: 4096, height: 4096 }, format: 'png' } };
    const res = await fetch(`${server.url}/v1/presets`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
    assert.equal(res.status, 201, await res.clone().text());
    ids.push(((await res.json()) as { id: string }).id);
  }
  // Every render the page asks for, answered by the service through the test: a request counts as in
  // flight until just before its answer is handed back, so a fourth one arriving while three are
  // counted was sent with three unanswered (the page frees a place only once an answer is in).
  const asked: { size: { width: number; height: number; pixelRatio?: number }; format: string; seed: number }[] = [];
  let inFlight = 0;
  let most = 0;
  const answer = async (route: Route) => {
    asked.push(route.request().postDataJSON());
    most = Math.max(most, ++inFlight);
    const response = await route.fetch({ headers: { ...route.request().headers(), authorization: auth.Authorization } });
    inFlight--;
    // A picture the page stopped waiting for (a failed test left the page) may be answered already.
    await route.fulfill({ response }).catch(() => {});
  };
  const viewport = page.viewportSize()!;
  await page.route('**/v1/generate/**', answer);
  try {
    // A short window: the presets run far below it, and their pictures wait until they come near.
    await page.setViewportSize({ width: viewport.width, height: 300 });
    await open(`/#/account`);
    await page.reload(); // the page may be on the Account page already, listed before these presets
    const row = (id: string) => page.locator(`#preset-list tr[data-preset="${id}"]`);
    await row(ids[19]!).waitFor();
    const loaded = (id: string) =>
      page.waitForFunction((i) => {
        const img = document.querySelector<HTMLImageElement>(`#preset-list img[data-thumb="${i}"]`);
        return img !== null && img.src.startsWith('blob:') && img.complete && img.naturalWidth > 0;
      }, id);
    const rows = await page.$$eval('#preset-list tr[data-preset]', (trs) => trs.map((tr) => (tr as HTMLElement).dataset.preset!));
    // The first row at the window's top: the rows 200 px below its bottom are not near yet.
    await row(rows[0]!).evaluate((tr) => tr.scrollIntoView({ block: 'start' }));
    await loaded(rows[0]!);
    const far = await page.$$eval('#preset-list img[data-thumb]', (imgs) =>
      imgs.filter((i) => i.getBoundingClientRect().top > innerHeight + 250).map((i) => (i as HTMLImageElement).dataset.picture),
    );
    assert.ok(far.length > 0, 'some presets are far below the window');
    assert.deepEqual(new Set(far), new Set(['waiting']), 'a picture far from the window is not asked for');
    // Scrolled to, each comes.
    for (const id of rows) {
      await row(id).scrollIntoViewIfNeeded();
      await loaded(id);
    }
    const mine = asked.filter((a) => a.seed >= 100 && a.seed < 120);
    assert.equal(mine.length, 20, 'each picture asked for once');
    for (const a of mine)
      assert.deepEqual([a.size, a.format], [{ width: 27, height: 27, pixelRatio: 1 }, 'webp'], 'the 48×27 box at dpr 1, square');
    // Any preset's picture: no more device pixels than its 48×27 box shows on this 1x screen.
    for (const { size } of asked) {
      const pr = size.pixelRatio ?? 1;
      assert.ok(size.width * pr <= 48 && size.height * pr <= 27, JSON.stringify(size));
    }
    assert.ok(most <= 3, `${most} pictures were asked for at once`);
  } finally {
    await page.unroute('**/v1/generate/**', answer);
    await page.setViewportSize(viewport);
    for (const id of ids) await fetch(`${server.url}/v1/presets/${id}`, { method: 'DELETE', headers: auth });
  }
});

test('account: a key with chosen scopes and a monthly limit is created from the keyboard, listed, and refused outside its scopes', async () => {
  await open(`/#/account`);
  await page.locator('#key-full-access').waitFor();
  // Full access is the default: the scope boxes wait until it is unticked.
  assert.equal(await page.locator('#key-full-access').isChecked(), true);
  assert.equal(await page.locator('#key-scope-render').isDisabled(), true);
  await page.fill('#key-label', 'scoped-web-test');
  await page.fill('#key-limit', '10');
  await page.focus('#key-full-access');
  await page.keyboard.press('Space');
  // Nothing chosen: the form says what to fix and sends nothing.
  await page.click('#key-create button[type=submit]');
  await page
    .locator('#key-create ~ .field-error')
    .filter({ hasText: /at least one scope/ })
    .waitFor();
  await page.focus('#key-scope-render');
  await page.keyboard.press('Space');
  await page.click('#key-create button[type=submit]');
  const secret = (await page.locator('#key-secret').textContent()) ?? '';
  assert.match(secret, /^svc_local_/);
  const row = page.locator('#key-list tr', { hasText: 'scoped-web-test' });
  await row.waitFor();
  assert.equal(await row.locator('.key-scopes-cell').textContent(), 'render');
  assert.equal(await row.locator('.key-spending').textContent(), '0 of 10');
  const me = await fetch(`${server.url}/v1/me`, { headers: { Authorization: `Bearer ${secret}` } });
  assert.equal(me.status, 403);
  assert.equal(((await me.json()) as { requiredScope: string }).requiredScope, 'account:read');
  assert.deepEqual(pageErrors, []);
});

test('signed URLs: a URL signing key made on the Account page (secret shown once); Share, beside Download and on a preset, copies a URL, an <img> tag and og:image tags that render with no credentials and expire when chosen', async () => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const copied = (button: string, toast: string) => copiedBy(page, button, toast);
  const openPlayground = async () => {
    await open(`/#/`);
    await open(`/#/playground/mesh-gradient`);
    await renderedHash(page);
  };
  /** Opens the Share panel from the keyboard: its button focused, Enter. */
  const openShare = async (button: string) => {
    await page.focus(button);
    await page.keyboard.press('Enter');
    await page.locator('#share-dialog').waitFor();
  };
  // Share sits beside Download, in the first screen (the og:image copy it replaced was about 1,400 px
  // down, in a closed disclosure). No signing key yet: its copy buttons are off and it says where to
  // make one; Escape closes it and gives the focus back.
  await openPlayground();
  const [share, download] = await Promise.all(['#share', '#download'].map((sel) => page.locator(sel).boundingBox()));
  assert.equal(share!.y, download!.y, 'beside Download');
  assert.ok(share!.y + share!.height <= 800, `within a 1280×800 screen without scrolling: ${share!.y + share!.height} px down`);
  await openShare('#share');
  await page.locator('#no-signing-key').waitFor();
  assert.equal(await page.locator('#no-signing-key a').getAttribute('href'), '#/account');
  assert.ok(await page.locator('#share-og').isDisabled());
  await page.keyboard.press('Escape');
  await page.locator('#share-dialog').waitFor({ state: 'detached' });
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'share');

  await open(`/#/account`);
  await page.fill('#usk-label', 'web-app embeds');
  await page.fill('#usk-limit', '500');
  await page.fill('#usk-max-age', '3600');
  await page.click('#usk-create button[type=submit]');
  assert.match((await page.locator('#usk-secret').textContent()) ?? '', /^svc_sign_[A-Za-z0-9_-]{43}$/);
  assert.match((await page.locator('#usk-secret-box .warning').textContent()) ?? '', /shown only once/);
  const row = page.locator('#usk-list tr', { hasText: 'web-app embeds' });
  await row.waitFor();
  const keyId = (await row.getAttribute('data-usk'))!;
  assert.match(keyId, /^usk_/);
  assert.equal(await row.getAttribute('data-revoked'), 'false');
  assert.deepEqual(await row.locator('td').evaluateAll((cells) => cells.slice(3, 6).map((c) => c.textContent)), ['500', '0', '3600 s']);
  await screenshot(page, 'account-signing-keys');

  // The playground shares the recipe Download renders (size and pixel ratio 2, not the webp preview's).
  await openPlayground();
  await page.fill('#size-width', '300');
  await page.fill('#size-height', '200');
  await page.fill('#size-pixelRatio', '2');
  await page.waitForFunction(() => document.querySelector('#preview-status')?.textContent?.includes('300×200'));
  await openShare('#share');
  await page.locator('#share-key').waitFor();
  assert.equal(await page.inputValue('#share-key'), keyId);
  await page.selectOption('#share-key', keyId);
  assert.equal(await page.evaluate(() => localStorage.getItem('render-service.signing-key')), keyId);
  // Formats: jpeg, png and webp, each with its size (a HEAD of its recipe URL), and first the smallest of
  // jpeg and png (every link preview takes those; not all take webp). The rule: test/unit/web-share.test.ts.
  await page.waitForFunction(() =>
    [...document.querySelectorAll('#share-format option')].every((o) => /\d (B|KB|MB)$/.test(o.textContent ?? '')),
  );
  const offered = await page
    .locator('#share-format option')
    .evaluateAll((options) => options.map((o) => [(o as HTMLOptionElement).value, o.textContent ?? '']));
  assert.deepEqual(
    offered.map(([f]) => f),
    ['jpeg', 'png', 'webp'],
  );
  const bytes = (text: string) => {
    const m = /([\d.]+) (B|KB|MB)$/.exec(text)!;
    return Number(m[1]) * { B: 1, KB: 1024, MB: 1024 * 1024 }[m[2] as 'B' | 'KB' | 'MB'];
  };
  const [jpegSize, pngSize] = [bytes(offered[0]![1]), bytes(offered[1]![1])];
  const ogFormat = jpegSize <= pngSize ? 'jpeg' : 'png';
  assert.equal(await page.inputValue('#share-format'), ogFormat);

  // 30 days: the og:image tags' URL carries an `exp` 30 days on, and answers the image with no credentials.
  assert.equal(await page.inputValue('#share-expiry'), String(365 * 86400), 'a year, first');
  await page.selectOption('#share-expiry', '2592000');
  const signedAt = Math.floor(Date.now() / 1000);
  const og = await copied('#share-og', 'og:image tags copied to the clipboard');
  assert.match((await page.locator('#share-status').textContent()) ?? '', /^og:image tags copied: expires /);
  const tags = Object.fromEntries(
    [...og.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g)].map((m) => [m[1], m[2]!.replace(/&amp;/g, '&')]),
  );
  assert.equal(og.split('\n').length, 6, og);
  assert.deepEqual(
    { ...tags, 'og:image': undefined, 'twitter:image': undefined },
    {
      'og:image': undefined,
      'og:image:width': '600',
      'og:image:height': '400',
      'og:image:type': `image/${ogFormat}`,
      'twitter:card': 'summary_large_image',
      'twitter:image': undefined,
    },
  );
  assert.equal(tags['twitter:image'], tags['og:image']);
  const extension = ogFormat === 'jpeg' ? 'jpg' : 'png';
  assert.match(
    tags['og:image']!,
    new RegExp(`^${server.url}/v1/render/[0-9a-f]{64}\\.${extension}\\?r=[A-Za-z0-9_-]+&kid=${keyId}&exp=\\d+&sig=[A-Za-z0-9_-]{43}$`),
    'the path form with the extension',
  );
  const exp = Number(new URL(tags['og:image']!).searchParams.get('exp'));
  assert.ok(Math.abs(exp - (signedAt + 2592000)) <= 120, `exp ${exp}, signed at ${signedAt}`);
  const card = await fetch(tags['og:image']!, { headers: { 'User-Agent': 'facebookexternalhit/1.1' } });
  assert.equal(card.status, 200);
  assert.equal(card.headers.get('content-type'), `image/${ogFormat}`);
  assert.match(card.headers.get('cache-control') ?? '', /^public, max-age=3600/, "the key's max-age, sooner than the expiry");
  assert.ok((await card.arrayBuffer()).byteLength > 0);

  // No expiry, png: the URL has no `exp`; fetched with no key and no cookie it is the png Download gives.
  await page.selectOption('#share-expiry', '0');
  await page.selectOption('#share-format', 'png');
  const url = await copied('#share-url', 'URL copied to the clipboard');
  assert.match(url, new RegExp(`^${server.url}/v1/render/[0-9a-f]{64}\\.png\\?r=[A-Za-z0-9_-]+&kid=${keyId}&sig=[A-Za-z0-9_-]{43}$`));
  assert.match((await page.locator('#share-status').textContent()) ?? '', /never expires/);
  const res = await fetch(url);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/png');
  const png = Buffer.from(await res.arrayBuffer());
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [600, 400]);

  const name = ((await (await fetch(`${server.url}/v1/generators/mesh-gradient`)).json()) as { name: string }).name;
  const img = await copied('#share-img', '<img> tag copied to the clipboard');
  const imgSrc = /^<img src="([^"]+)" width="300" height="200" alt="([^"]*)">$/.exec(img);
  assert.ok(imgSrc, img);
  assert.equal(imgSrc[2], name);
  assert.equal(imgSrc[1]!.replace(/&amp;/g, '&'), url, 'the same signature: no expiry, the same recipe and key');
  await screenshot(page, 'share-panel', false);
  await page.keyboard.press('Escape');

  // A preset has the same Share (the blob preset saved by the playground test: 300×200 at pixel ratio 2, png).
  await open(`/#/account`);
  const preset = page.locator('#preset-list tr', { hasText: 'blob at seed 12345, 2x' });
  const presetId = (await preset.getAttribute('data-preset'))!;
  // Its picture rendered (once near the window): the panel measures the formats by that render's recipe URL.
  await preset.scrollIntoViewIfNeeded();
  await page.waitForFunction((id) => {
    const thumb = document.querySelector<HTMLImageElement>(`#preset-list img[data-thumb="${id}"]`);
    return thumb !== null && thumb.complete && thumb.naturalWidth > 0;
  }, presetId);
  await openShare(`#preset-list button[data-share="${presetId}"]`);
  assert.equal(
    await page.locator('#share-title').textContent(),
    `Share ${(await (await fetch(`${server.url}/v1/generators/blob`)).json()).name}`,
  );
  await page.waitForFunction(() => {
    const options = [...document.querySelectorAll('#share-format option')];
    return options.length === 3 && options.every((o) => /\d (B|KB|MB)$/.test(o.textContent ?? ''));
  });
  await page.selectOption('#share-format', 'png');
  const presetUrl = await copied('#share-url', 'URL copied to the clipboard');
  assert.match(presetUrl, /\/v1\/render\/[0-9a-f]{64}\.png\?r=[A-Za-z0-9_-]+&kid=.+&exp=\d+&sig=/, 'a year, by default');
  const presetPng = await fetch(presetUrl);
  assert.equal(presetPng.status, 200);
  const presetBytes = Buffer.from(await presetPng.arrayBuffer());
  assert.deepEqual([presetBytes.readUInt32BE(16), presetBytes.readUInt32BE(20)], [600, 400]);

  // Revoked (here through the API): the panel says the service refused.
  const key = localKey();
  assert.equal(
    (await fetch(`${server.url}/v1/url-signing-keys/${keyId}`, { method: 'DELETE', headers: { Authorization: `Bearer ${key}` } })).status,
    200,
  );
  await page.click('#share-url');
  await page.waitForFunction(() => /^Could not sign: 409 /.test(document.getElementById('share-status')?.textContent ?? ''));
  assert.equal((await fetch(url)).status, 401);
  await page.click('#share-dialog button[value=""]');
  await page.locator('#share-dialog').waitFor({ state: 'detached' });
  assert.deepEqual(pageErrors, []);
});

test('service unreachable: one banner that polls /v1/health and goes away by itself; creating a key meanwhile fails once, not sent again', async () => {
  // Which requests are sent again once the service is back: test/unit/web-jobs.test.ts.
  await open(`/#/`);
  await page.locator('#gallery .card').first().waitFor();
  const posts: string[] = [];
  const onRequest = (r: import('playwright-core').Request) => r.method() === 'POST' && r.url().endsWith('/v1/keys') && posts.push(r.url());
  page.on('request', onRequest);
  offline = true;
  await page.route('**/v1/**', (route) => route.abort('connectionrefused'));
  try {
    await page.evaluate(() => (location.hash = '#/account'));
    const banner = page.locator('#offline-banner');
    await banner.waitFor();
    assert.equal(await banner.textContent(), 'Service unreachable — retrying…');
    await screenshot(page, 'offline', false);
    assert.equal(await page.locator('#offline-banner').count(), 1);
    assert.equal(await page.locator('main .error:visible, main .field-error:visible').count(), 0, 'no error in the panels');
    // Creating a key may reach the service before the connection breaks: it fails, with the banner up.
    await page.fill('#key-label', 'made while offline');
    await page.click('#key-create button[type=submit]');
    await page.locator('#key-create ~ .field-error').filter({ hasText: /\S/ }).waitFor();
    assert.equal(await page.locator('#offline-banner').count(), 1);
    // It polls /v1/health (refused while cut off), and goes once the service answers.
    await page.waitForRequest((r) => r.url().endsWith('/v1/health'));
    // The key list's GET waited for the service with every other request that may be sent again (api.js
    // serviceBack): once its answer is in, a POST sent again would have gone out with it. (Not "network
    // idle": at load 25 the page's other requests overlapped for over two minutes.)
    const keysReloaded = page.waitForResponse((r) => r.url().endsWith('/v1/keys') && r.request().method() === 'GET');
    await page.unroute('**/v1/**');
    offline = false;
    await banner.waitFor({ state: 'detached' });
    // The panels fill in once the service answers.
    await page.locator('#me-auth').waitFor();
    assert.equal(await page.locator('main .error:visible').count(), 0);
    await keysReloaded;
    assert.equal(posts.length, 1, 'POST /v1/keys was sent once, not again after the service came back');
    assert.equal(await page.locator('#key-list tr', { hasText: 'made while offline' }).count(), 0);
  } finally {
    page.off('request', onRequest);
    await page.unroute('**/v1/**');
    offline = false;
  }
});

test('phone width (390 px, 2x): with data in every table, no page scrolls sideways; the preview comes before the params; thumbnails at 2x', async () => {
  // Data first: an export job with an error-free row, a key with a long label, a preset, usage.
  const key = localKey();
  const auth = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  const job = (await (
    await fetch(`${server.url}/v1/jobs`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ slug: 'mesh-gradient', size: { width: 1920, height: 1080, pixelRatio: 1 }, format: 'webp' }),
    })
  ).json()) as { id: string };
  assert.ok(job.id);
  assert.equal(
    (
      await fetch(`${server.url}/v1/keys`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ label: 'a rather long key label for the phone layout check' }),
      })
    ).status,
    201,
  );
  assert.equal(
    (
      await fetch(`${server.url}/v1/presets`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          name: 'a preset with a rather long name for the phone layout check',
          recipe: { slug: 'mesh-gradient', seed: 3, size: { width: 1200, height: 630 }, format: 'png' },
        }),
      })
    ).status,
    201,
  );
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  context.setDefaultTimeout(120_000);
  const phone = await context.newPage();
  phone.on('console', (msg) => msg.type() === 'error' && !/status of 4\d\d/.test(msg.text()) && pageErrors.push(`phone: ${msg.text()}`));
  const thumbs: { url: string; body: { format?: string; size?: { pixelRatio?: number } } }[] = [];
  phone.on('request', (r) => r.url().includes('/v1/generate/') && thumbs.push({ url: r.url(), body: r.postDataJSON() }));
  try {
    for (const route of ['', 'playground/mesh-gradient', 'sweep/mesh-gradient?param=seed&n=4', 'export', 'account']) {
      await phone.goto(`${server.url}/#/${route}`);
      await phone.locator('main h1, #gallery .card').first().waitFor();
      await phone.waitForLoadState('networkidle');
      if (route === 'export') await phone.locator('#history tr[data-job] td[data-label]').first().waitFor();
      if (route.startsWith('sweep')) await phone.waitForFunction(() => document.querySelectorAll('#sweep img').length === 4);
      if (route === 'account') {
        await phone.locator('#key-list tr[data-key]').first().waitFor();
        await phone.locator('#preset-list td[data-label]').first().waitFor();
        await phone.locator('#usage h2').waitFor();
      }
      if (route.startsWith('playground')) {
        await renderedHash(phone);
        const y = async (sel: string) => (await phone.locator(sel).boundingBox())!.y;
        assert.ok((await y('#preview')) < (await y('#params-form')), 'the preview comes before the params');
        // A compact header; while a param is edited, the preview stays in sight above it.
        assert.ok((await phone.locator('.topbar').boundingBox())!.height <= 56, 'the header is one compact line');
        await phone.locator('#params-softness').focus();
        await phone.locator('#params-softness').scrollIntoViewIfNeeded();
        const [stage, input] = await Promise.all(['#preview', '#params-softness'].map((sel) => phone.locator(sel).boundingBox()));
        assert.ok(
          stage!.y >= 0 && stage!.y + stage!.height <= input!.y,
          `the preview (${JSON.stringify(stage)}) sits above the field (${JSON.stringify(input)})`,
        );
        await screenshot(phone, 'phone-playground-editing', false);
        await phone.locator('#params-softness').blur();
      }
      if (route === '') {
        // A 2x screen: the gallery's thumbnails at its pixel ratio, as webp where offered (the rules: test/unit/web-sizing.test.ts).
        const thumb = thumbs.find((b) => b.url.endsWith('/voronoi'));
        assert.deepEqual([thumb?.body.format, thumb?.body.size?.pixelRatio], ['webp', 2]);
      }
      const width = await phone.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 390, `#/${route} is ${width} px wide`);
      await screenshot(phone, `phone-${route.split('/')[0] || 'gallery'}`);
    }
  } finally {
    await context.close();
  }
});

// The hosted answers of /v1/auth-config, /v1/me, /v1/billing and the checkout are fulfilled here (a
// real hosted session needs an identity provider; billing's API side runs against the Stripe
// stand-in in test/integration/billing.test.ts). What is under test is the page.
test('hosted mode: without a session, the sign-in page posts the provider and follows the returned url; with one, the balance, a pack bought through the checkout redirect, the return notice, the price beside Download and Export', async () => {
  const context = await browser.newContext();
  context.setDefaultTimeout(120_000);
  const hosted = await context.newPage();
  try {
    let signedIn = false;
    await hosted.route('**/v1/auth-config', (route) =>
      fulfillPerContract(
        route,
        signedIn
          ? {
              mode: 'hosted',
              session: {
                user: { id: 'u1', name: 'Ada', email: 'ada@example.test' },
                expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
              },
              providers: [],
            }
          : {
              mode: 'hosted',
              session: null,
              providers: [
                { id: 'github', name: 'GitHub', signInUrl: '/v1/auth/sign-in/social' },
                { id: 'google', name: 'Google', signInUrl: '/v1/auth/sign-in/social' },
              ],
            },
      ),
    );
    let posted: { headers: Record<string, string>; body: unknown } | undefined;
    await hosted.route('**/v1/auth/sign-in/social', (route) => {
      posted = { headers: route.request().headers(), body: route.request().postDataJSON() };
      // better-auth's own route, outside the contract (openapi.yaml says so): its answer is the library's.
      return route.fulfill({ json: { url: `${server.url}/#/signed-in-elsewhere`, redirect: true } });
    });
    const balance = { credits: 120, reserved: 20, available: 100 };
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

    // Without a session: the sign-in page.
    await hosted.goto(`${server.url}/#/account`);
    await hosted.locator('#sign-in').waitFor();
    await screenshot(hosted, 'sign-in');
    assert.equal(await hosted.locator('button[data-provider]').count(), 2);
    await hosted.click('button[data-provider="github"]');
    await hosted.waitForURL(/#\/signed-in-elsewhere$/);
    assert.deepEqual(posted?.body, { provider: 'github', callbackURL: `${server.url}/` });
    assert.match(posted?.headers['content-type'] ?? '', /^application\/json/);

    // With one (the page reads it at start): the credits.
    signedIn = true;
    await hosted.goto(`${server.url}/#/account`);
    await hosted.reload();
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

    // Renders cost credits here: the recipe's price beside Download, and the job's beside Export, as the
    // service quotes them (a stand-in: this service runs in local mode, which charges nothing).
    const quotes: { render?: unknown; job?: unknown; batch?: { items: { slug: string }[] } }[] = [];
    await hosted.route('**/v1/quote', (route) => {
      const body = route.request().postDataJSON() as (typeof quotes)[number];
      quotes.push(body);
      return fulfillPerContract(route, {
        credits: body.job ? 7 : 3,
        pixels: 756_000,
        fitsSyncBudget: true,
        estimatedMs: 151,
        cached: false,
      });
    });
    await hosted.goto(`${server.url}/#/playground/mesh-gradient`);
    await hosted.waitForFunction(() => document.querySelector('#quote')?.textContent === '3 credits');
    await hosted.goto(`${server.url}/#/export`);
    await hosted.waitForFunction(() => document.querySelector('#export-quote')?.textContent === '7 credits');
    assert.ok(quotes.some((q) => q.render) && quotes.some((q) => q.job), JSON.stringify(quotes));

    // A sweep sheet says its price, the service's quote of the batch of its cells, before any cell renders.
    let renders = 0;
    hosted.on('request', (r) => void (r.method() === 'POST' && r.url().includes('/v1/generate/') && renders++));
    await hosted.goto(`${server.url}/#/sweep/blob?param=points&n=8`);
    await hosted.waitForFunction(() => document.querySelector('#sweep-price')?.textContent === '8 cells: 3 credits.');
    const batch = quotes.find((q) => q.batch)?.batch;
    assert.deepEqual(
      batch?.items.map((item) => item.slug),
      Array(8).fill('blob'),
    );
    assert.equal(renders, 0, 'no cell renders before the price is accepted');
    await screenshot(hosted, 'sweep-hosted-price', false);
    await hosted.click('#sweep-render');
    await hosted.waitForFunction(() => document.querySelectorAll('#sweep .sweep-cell img').length === 8);
    assert.equal(renders, 8);
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

test('templates area: cards with loaded thumbnails; Duplicate puts a copy first, Delete (confirmed) removes it; a refused preview is a placeholder; New from a blank canvas or the playground recipe opens the editor; paged, thumbnails near the viewport three at a time; labelled and axe-clean in both schemes', async () => {
  // The bodies the page itself posts (web/js/templates/new-template.js), imported here so this block stays one piece of the file.
  const { blankTemplate, recipeTemplate, starterTemplate } = await import('../../web/js/templates/new-template.js');
  const auth = { Authorization: `Bearer ${localKey()}`, 'Content-Type': 'application/json' };
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${server.url}${url}`, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as Record<string, unknown>) };
  };
  const create = async (body: unknown) => {
    const res = await api('POST', '/v1/templates', body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: string; name: string };
  };
  // Templates other tests left in the workspace count too: the cards are compared with the list's length.
  const listed = async () => ((await api('GET', '/v1/templates?limit=100')).body as unknown as { id: string }[]).length;
  const launch = await create(blankTemplate({ name: 'Launch card', width: 1200, height: 630 }));
  const square = await create(
    recipeTemplate({ slug: 'mesh-gradient', params: { points: 5 }, seed: 31, size: { width: 1080, height: 1080 } }, 'Square mesh'),
  );
  const cards = () => page.locator('#templates .template-card').count();
  /** Waits until a new template is open in the editor (its page replaced the list, so a later route never races its chunk); its id. */
  const openedInEditor = async () => {
    await page.waitForURL((url) => /^#\/templates\/tpl_[A-Za-z0-9]+$/.test(url.hash));
    await page.waitForFunction(() => !document.querySelector('#templates'));
    return new URL(page.url()).hash.split('/')[2]!;
  };
  /** Every card's thumbnail is a loaded blob: picture, or (`placeholders`) that many are neutral placeholders. */
  const thumbnailsDone = (placeholders = 0) =>
    page.waitForFunction((n) => {
      const frames = [...document.querySelectorAll('#templates .template-card .thumb-frame')];
      const shown = frames.filter((f) => {
        const img = f.querySelector<HTMLImageElement>('img.thumb');
        return img && img.src.startsWith('blob:') && img.complete && img.naturalWidth > 0 && !f.classList.contains('loading');
      });
      return frames.length > 0 && shown.length === frames.length - n && document.querySelectorAll('.no-preview').length === n;
    }, placeholders);
  // The thumbnails: drawn by the free preview at the pixels a card's frame shows (here at 1x).
  const previews: { template: { name: string }; size: { width: number; height: number; pixelRatio: number }; params: unknown }[] = [];
  const onRequest = (req: import('playwright-core').Request) => {
    if (req.url().endsWith('/v1/templates/preview')) previews.push(req.postDataJSON());
  };
  page.on('request', onRequest);
  try {
    await open(`/#/templates`);
    const total = await listed();
    await page.waitForFunction((n) => document.querySelectorAll('#templates .template-card').length === n, total);
    await thumbnailsDone();
    // Newest first, each with its size, version and distinct accessible names.
    assert.deepEqual(await page.locator('#templates .template-card h2').evaluateAll((els) => els.slice(0, 2).map((e) => e.textContent)), [
      'Square mesh',
      'Launch card',
    ]);
    assert.equal(await page.getByRole('link', { name: 'Open Launch card' }).getAttribute('href'), `#/templates/${launch.id}`);
    assert.equal(await page.getByRole('link', { name: 'Open Square mesh' }).getAttribute('href'), `#/templates/${square.id}`);
    assert.match((await page.locator(`.template-card[data-id="${square.id}"]`).textContent()) ?? '', /1080×1080 · version 1 · updated/);
    const squarePreview = previews.find((p) => p.template.name === 'Square mesh')!;
    const frameHeight = await page.locator(`.template-card[data-id="${square.id}"] .thumb-frame`).evaluate((f) => f.clientHeight);
    assert.deepEqual(
      squarePreview.size,
      { width: frameHeight, height: frameHeight, pixelRatio: 1 },
      'a square fills its frame’s height, in the pixels shown',
    );
    assert.deepEqual(squarePreview.params, { title: 'Your title here' }, 'the sample params');
    assert.equal(await page.isHidden('#templates-more'), true, 'one page: no "Show more"');
    await screenshot(page, 'templates');

    // Duplicate: a copy named "<name> copy", first, with its own thumbnail; the page stays on the list.
    await page.getByRole('button', { name: 'Duplicate Launch card' }).click();
    await page.waitForFunction((n) => document.querySelectorAll('#templates .template-card').length === n, total + 1);
    assert.equal(await page.locator('#templates .template-card h2').first().textContent(), 'Launch card copy');
    await thumbnailsDone();
    assert.match(page.url(), /#\/templates$/);
    const copyId = (await page.locator('#templates .template-card').first().getAttribute('data-id'))!;
    assert.equal((await api('GET', `/v1/templates/${copyId}`)).body!.name, 'Launch card copy');

    // Delete: a confirmation naming the template and what follows; Cancel keeps it, Delete removes it.
    await page.getByRole('button', { name: 'Delete Launch card copy' }).click();
    const question = page.locator('#template-delete-dialog');
    assert.match((await question.textContent()) ?? '', /Delete “Launch card copy”\?.*answer 404.*Files already rendered are unaffected/s);
    await page.click('#template-delete-cancel');
    await question.waitFor({ state: 'detached' });
    assert.equal(await cards(), total + 1);
    await page.getByRole('button', { name: 'Delete Launch card copy' }).click();
    await page.click('#template-delete-ok');
    await page.waitForFunction((n) => document.querySelectorAll('#templates .template-card').length === n, total);
    assert.equal((await api('GET', `/v1/templates/${copyId}`)).status, 404);

    // A template whose preview is refused (the blog starter's logo and photo need your assets): a placeholder saying why, no error.
    const blog = await create(
      starterTemplate({
        id: 'blog-og-image',
        name: 'Blog',
        template: JSON.parse(readFileSync(path.join(ROOT, 'starters/blog-og-image.json'), 'utf8')),
      }),
    );
    await page.reload();
    await page.waitForFunction((n) => document.querySelectorAll('#templates .template-card').length === n, total + 1);
    await thumbnailsDone(1);
    const reason = await page.locator(`.template-card[data-id="${blog.id}"] .no-preview [title]`).getAttribute('title');
    assert.match(reason ?? '', /^No preview: .+/);
    assert.equal(await page.locator('#view .error').count(), 0);
    assert.equal((await api('DELETE', `/v1/templates/${blog.id}`)).status, 204);

    // A page whose data comes after another page was asked for draws nothing: an editor whose
    // template answers late never covers the list opened meanwhile (web/js/app.js, isCurrent).
    const lateTemplate = `${server.url}/v1/templates/${launch.id}`;
    let asked!: () => void;
    let release!: () => void;
    const wasAsked = new Promise<void>((resolve) => (asked = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(lateTemplate, async (route) => {
      asked();
      await released;
      await route.continue();
    });
    await page.evaluate((hash) => (location.hash = hash), `#/templates/${launch.id}`);
    await wasAsked;
    await open('/#/templates');
    await page.evaluate((route) => {
      (window as unknown as { editorSettled: Promise<void> }).editorSettled = new Promise<void>((resolve) =>
        document.addEventListener('route-settled', (e) => (e as CustomEvent<{ route: string }>).detail.route === route && resolve()),
      );
    }, `#/templates/${launch.id}`);
    release();
    await page.evaluate(() => (window as unknown as { editorSettled: Promise<void> }).editorSettled);
    await page.unroute(lateTemplate);
    assert.equal(await page.locator('#templates').count(), 1, 'the list opened meanwhile stays on screen');
    assert.equal(await page.locator('#view').getAttribute('data-route'), '#/templates');

    // New, from the keyboard: a blank canvas at a preset size with a name; Create opens it in the editor.
    await page.reload();
    await page.focus('#templates-new');
    await page.keyboard.press('Enter');
    await page.locator('#new-template-dialog').waitFor();
    assert.equal(await page.isChecked('#new-kind-blank'), true);
    await page.selectOption('#new-size', '1080x1080');
    await page.fill('#new-name', 'From blank');
    await page.keyboard.press('Enter');
    const made = (await api('GET', `/v1/templates/${await openedInEditor()}`)).body!;
    assert.equal(made.name, 'From blank');
    assert.deepEqual(made.size, { width: 1080, height: 1080 });

    // From a starter (GET /v1/template-starters): its template as it is, though its image variables have no sample yet.
    await open(`/#/templates`);
    await page.click('#templates-new');
    await page.check('#new-kind-starter');
    await page.getByRole('radio', { name: /Blog og:image/ }).check();
    await page.fill('#new-name', 'Our blog card');
    await page.click('#new-create');
    const fromStarter = (await api('GET', `/v1/templates/${await openedInEditor()}`)).body as {
      name: string;
      layers: { id: string }[];
    };
    assert.equal(fromStarter.name, 'Our blog card');
    const blogStarter = JSON.parse(readFileSync(path.join(ROOT, 'starters/blog-og-image.json'), 'utf8')) as { layers: { id: string }[] };
    assert.deepEqual(
      fromStarter.layers.map((l) => l.id),
      blogStarter.layers.map((l) => l.id),
    );

    // From the playground's recipe (the one this tab holds): a generator layer of it at its size, under a title.
    await page.evaluate(() =>
      sessionStorage.setItem(
        'render-service.recipe',
        JSON.stringify({ slug: 'blob', params: { points: 7 }, seed: 99, size: { width: 640, height: 480, pixelRatio: 2 }, format: 'png' }),
      ),
    );
    await open(`/#/templates`);
    await page.reload(); // the app reads the tab's recipe when it starts
    await page.click('#templates-new');
    await page.check('#new-kind-recipe');
    await page.click('#new-create');
    const around = (await api('GET', `/v1/templates/${await openedInEditor()}`)).body as {
      name: string;
      size: unknown;
      layers: Record<string, unknown>[];
    };
    assert.equal(around.name, 'blob template');
    assert.deepEqual(around.size, { width: 640, height: 480 });
    assert.deepEqual(
      { ...around.layers[0], version: undefined },
      { id: 'background', kind: 'generator', slug: 'blob', params: { points: 7 }, seed: 99, version: undefined },
    );
    assert.equal(around.layers[1]!.text, '{{title}}');

    // Paging and lazy thumbnails: with 24 more (small) templates, the first page is 24 cards and "Show more";
    // only the cards near the viewport ask for their thumbnail, never more than three at once.
    const extra: string[] = [];
    for (let i = 0; i < 24; i++) extra.push((await create(blankTemplate({ name: `Small ${i}`, width: 64, height: 64 }))).id);
    let inFlight = 0;
    let mostInFlight = 0;
    const started = (req: import('playwright-core').Request) => {
      if (req.url().endsWith('/v1/templates/preview')) mostInFlight = Math.max(mostInFlight, ++inFlight);
    };
    const ended = (req: import('playwright-core').Request) => {
      if (req.url().endsWith('/v1/templates/preview')) inFlight--;
    };
    page.on('request', started);
    page.on('requestfinished', ended);
    page.on('requestfailed', ended);
    try {
      previews.length = 0;
      await open(`/#/templates`);
      await page.waitForFunction(() => document.querySelectorAll('#templates .template-card').length === 24);
      await page.locator('#templates-more').waitFor();
      await page.waitForFunction(() =>
        [...document.querySelectorAll('#templates .template-card')]
          .filter((c) => c.getBoundingClientRect().top < innerHeight)
          .every((c) => !c.querySelector('.thumb-frame.loading')),
      );
      await page.waitForLoadState('networkidle');
      assert.ok(previews.length > 0 && previews.length < 24, `${previews.length} thumbnails asked for, of 24 cards`);
      await page.click('#templates-more');
      const all = await listed();
      await page.waitForFunction((n) => document.querySelectorAll('#templates .template-card').length === n, all);
      assert.equal(await page.isHidden('#templates-more'), true);
      await page.locator('#templates .template-card').last().scrollIntoViewIfNeeded();
      await page.waitForFunction(() => !document.querySelector('#templates .template-card:last-child .thumb-frame.loading'));
      assert.ok(mostInFlight >= 1 && mostInFlight <= 3, `${mostInFlight} thumbnails asked for at once`);
    } finally {
      page.off('request', started);
      page.off('requestfinished', ended);
      page.off('requestfailed', ended);
      for (const id of extra) await api('DELETE', `/v1/templates/${id}`);
    }
  } finally {
    page.off('request', onRequest);
  }

  // Labelled, and axe in both schemes: the list, then the New dialog open (in a tab with no playground recipe: its choice disabled, saying why).
  const axe = readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
  const context = await browser.newContext({ colorScheme: 'light', bypassCSP: true });
  context.setDefaultTimeout(120_000);
  const target = await context.newPage();
  const found: string[] = [];
  const audit = async (what: string) => {
    found.push(...(await unlabelledControls(target)).map((c) => `${what}: unlabelled ${c}`));
    for (const colorScheme of ['light', 'dark'] as const) {
      await target.emulateMedia({ colorScheme });
      const only =
        colorScheme === 'light'
          ? { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }
          : { type: 'rule', values: ['color-contrast', 'link-in-text-block'] };
      const violations = await target.evaluate(async (runOnly) => {
        const run = (
          window as unknown as {
            axe: { run: (c: unknown, o: unknown) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> };
          }
        ).axe.run;
        return (await run(document, { runOnly })).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`);
      }, only);
      found.push(...violations.map((v) => `${what} ${colorScheme}: ${v}`));
    }
    await target.emulateMedia({ colorScheme: 'light' });
  };
  try {
    await target.goto(`${server.url}/#/templates`);
    await target.waitForFunction(() => {
      const imgs = [...document.querySelectorAll<HTMLImageElement>('#templates img.thumb')];
      return imgs.length > 0 && imgs.every((i) => i.complete && i.naturalWidth > 0);
    });
    await target.addScriptTag({ content: axe });
    await audit('#/templates');
    await target.click('#templates-new');
    await target.click('#new-kind-starter');
    await target.waitForFunction(() => !document.querySelector('#new-template-dialog')?.textContent?.includes('Loading starters…'));
    assert.equal(await target.isDisabled('#new-kind-recipe'), true);
    assert.match((await target.textContent('#new-recipe-why')) ?? '', /no playground recipe/);
    await audit('#/templates (New dialog)');
    await target.keyboard.press('Escape');
    await target.locator('#new-template-dialog').waitFor({ state: 'detached' });
    // No template (a stand-in empty list, checked against the contract): what a template is, and New.
    await target.route(
      (url) => url.pathname === '/v1/templates',
      (route) => fulfillPerContract(route, []),
    );
    await target.reload();
    await target.locator('#templates-empty').waitFor();
    assert.equal(await target.isHidden('#templates-new'), true, 'one New button: the empty state’s');
    await target.addScriptTag({ content: axe });
    await audit('#/templates (empty)');
    await target.click('#templates-new-empty');
    await target.locator('#new-template-dialog').waitFor();
  } finally {
    await context.close();
  }
  assert.deepEqual(found, []);
});

test('no page threw or logged an error along the way', () => {
  assert.deepEqual(pageErrors, []);
});
