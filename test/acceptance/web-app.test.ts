// The web app at / driven in a real Chromium (playwright-core + the system's chromium binary),
// against the real service process in local mode: the local gateway authenticates the page.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { runService, type ServerProcess } from '../support/server-process.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const dataDir = mkdtempSync(path.join(tmpdir(), 'render-service-web-'));
let server: ServerProcess;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

before(async () => {
  if (!existsSync(CHROMIUM)) {
    assert.fail(`No Chromium at ${CHROMIUM}. Install it (apt-get install -y chromium) or set CHROMIUM_PATH; .ci/run installs it.`);
  }
  server = await runService({ DATA_DIR: dataDir });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const context = await browser.newContext({ acceptDownloads: true });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (err) => pageErrors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy|Refused to/i.test(msg.text())) pageErrors.push(`console: ${msg.text()}`);
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
  const asset = await fetch(`${server.url}/js/app.js`);
  assert.equal(asset.status, 200);
  assert.match(asset.headers.get('content-type') ?? '', /javascript/);
  const missing = await fetch(`${server.url}/v1/no-such-route`);
  assert.equal(missing.status, 404);
  assert.match(missing.headers.get('content-type') ?? '', /^application\/problem\+json/);
});

test('gallery: one card per generator, each with a loaded blob: thumbnail', async () => {
  const generators = (await (await fetch(`${server.url}/v1/generators`)).json()) as { slug: string }[];
  await page.goto(`${server.url}/`);
  await page.waitForFunction((n) => document.querySelectorAll('#gallery .card').length === n, generators.length);
  for (const g of generators) assert.equal(await page.locator(`.card[data-slug="${g.slug}"] a`, { hasText: 'Open in playground' }).count(), 1, g.slug);
  await page.waitForFunction(
    () => [...document.querySelectorAll<HTMLImageElement>('#gallery img.thumb')].every((img) => img.complete && img.naturalWidth > 0),
    undefined,
    { timeout: 30_000 },
  );
  const srcs = await page.$$eval('#gallery img.thumb', (imgs) => imgs.map((i) => (i as HTMLImageElement).src));
  assert.equal(srcs.length, generators.length);
  for (const src of srcs) assert.match(src, /^blob:/);
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

  await page.fill('#size-width', '640');
  await widthError.waitFor({ state: 'hidden' });
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
  assert.deepEqual(pageErrors, []);
});

test('hosted mode without a session: the sign-in page posts the provider and follows the returned url', async () => {
  const context = await browser.newContext();
  const hosted = await context.newPage();
  try {
    await hosted.route('**/v1/auth-config', (route) =>
      route.fulfill({
        json: {
          mode: 'hosted',
          session: null,
          providers: [
            { id: 'github', name: 'GitHub', signInUrl: '/v1/auth/sign-in/social' },
            { id: 'google', name: 'Google', signInUrl: '/v1/auth/sign-in/social' },
          ],
        },
      }),
    );
    let posted: { headers: Record<string, string>; body: unknown } | undefined;
    await hosted.route('**/v1/auth/sign-in/social', (route) => {
      posted = { headers: route.request().headers(), body: route.request().postDataJSON() };
      return route.fulfill({ json: { url: `${server.url}/#/signed-in-elsewhere`, redirect: true } });
    });
    await hosted.goto(`${server.url}/#/account`);
    await hosted.locator('#sign-in').waitFor();
    assert.equal(await hosted.locator('button[data-provider]').count(), 2);
    await hosted.click('button[data-provider="github"]');
    await hosted.waitForURL(/#\/signed-in-elsewhere$/);
    assert.deepEqual(posted?.body, { provider: 'github', callbackURL: `${server.url}/` });
    assert.match(posted?.headers['content-type'] ?? '', /^application\/json/);
  } finally {
    await context.close();
  }
});
