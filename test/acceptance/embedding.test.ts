// Signed public recipe URLs where they are meant to be used (docs/embedding.md), black-box: the
// real service process in local mode, URLs created and signed through its HTTP API, then fetched
// the way the outside world fetches them: <img> tags on a page of another site in a real Chromium,
// link-preview crawlers (a plain fetch with their User-Agent), and a real caching proxy (nginx) in
// front of the service as a CDN would be. The service's request log (LOG_LEVEL=info, `sig`
// redacted) tells which requests reached it and what it answered.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { freeLoopbackPort, listenOnLoopback } from '../support/black-box/listen.ts';
import { type LogEntry, type LoggedProcess, startLoggedProcess } from '../support/black-box/logged-process.ts';
import { NGINX, startNginxCache } from '../support/black-box/nginx-cache.ts';
import { TEST_LOCAL_KEY } from '../support/black-box/test-keys.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const bearer = { Authorization: `Bearer ${TEST_LOCAL_KEY}`, 'Content-Type': 'application/json' };
const dataDir = mkdtempSync(path.join(tmpdir(), 'render-service-embedding-'));
let service: LoggedProcess;
let base: string;
let keyId: string;
/** mesh-gradient 300×200 png, and social-card 1200×630 png in the path form with `.png` (og:image). */
let meshUrl: string;
let cardUrl: string;

/** The path and query of a URL, as sent. */
const targetOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};
/** A target without its signature: how the request log writes it (`sig` redacted), and the bearer form's prefix. */
const unsignedPart = (target: string) => target.split('&sig=')[0]!;
const unsignedRecipe = (target: string) => target.replace(/&kid=.*$/, '');

type RequestLog = LogEntry & { req: { id: string; url: string; userAgent?: string }; res: { statusCode: number } };
const isRequestLog = (e: LogEntry): e is RequestLog => typeof e.req === 'object' && e.req !== null && typeof e.res === 'object';
const requestLogs = () => service.entries.filter(isRequestLog);
/** The log entry of a request the service answered with this X-Request-Id (logged once the response is sent). */
const logOf = (res: Response) => {
  const id = res.headers.get('x-request-id');
  assert.ok(id, 'the service answers with X-Request-Id');
  return service.waitForLog((e) => (e as RequestLog).req?.id === id, `the log line of request ${id}`) as Promise<RequestLog>;
};
/** Requests the service logged for this signed target (any signature). */
const loggedFor = (target: string) => requestLogs().filter((e) => unsignedPart(e.req.url) === unsignedPart(target));

async function sign(body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${base}/v1/url-signing-keys/${keyId}/sign`, { method: 'POST', headers: bearer, body: JSON.stringify(body) });
  const json = (await res.json()) as { url: string };
  assert.equal(res.status, 200, JSON.stringify(json));
  return json.url;
}

/** Whether the recipe behind a target was rendered before: its bearer (unsigned) form answers HIT, else MISS (and renders it now). */
async function renderedBefore(target: string): Promise<boolean> {
  const res = await fetch(`${base}${unsignedRecipe(target)}`, { headers: bearer });
  assert.equal(res.status, 200);
  await res.arrayBuffer();
  return res.headers.get('x-service-cache') === 'HIT';
}

/** Width and height from a PNG's IHDR. */
const pngSize = (bytes: Buffer) => {
  assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
};

before(async () => {
  // A known port, so the URLs the service signs (on its public URL, http://127.0.0.1:PORT in local mode) are usable as returned.
  const port = await freeLoopbackPort();
  service = startLoggedProcess('src/main.ts', { DATA_DIR: dataDir, API_KEYS: TEST_LOCAL_KEY, PORT: String(port) });
  base = (await service.waitForLog((e) => e.msg === 'listening', 'the service listening')).url as string;
  assert.equal(base, `http://127.0.0.1:${port}`);
  const created = await fetch(`${base}/v1/url-signing-keys`, {
    method: 'POST',
    headers: bearer,
    body: JSON.stringify({ label: 'embedding test', maxAgeSeconds: 600 }),
  });
  assert.equal(created.status, 201);
  keyId = ((await created.json()) as { id: string }).id;
  meshUrl = await sign({ slug: 'mesh-gradient', seed: 11, size: { width: 300, height: 200 }, format: 'png' });
  cardUrl = await sign({
    slug: 'social-card',
    size: { width: 1200, height: 630 },
    params: { title: 'Signed URLs, end to end' },
    format: 'png',
    extension: true,
  });
  assert.match(targetOf(cardUrl), /^\/v1\/render\/[0-9a-f]{64}\.png\?r=[A-Za-z0-9_-]+&kid=usk_[^&]+&sig=[A-Za-z0-9_-]{43}$/);
});

after(async () => {
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('another site: <img> of a signed URL loads in Chromium with no key and no cookie; a tampered one is broken, 401, nothing rendered', async () => {
  assert.ok(existsSync(CHROMIUM), `No Chromium at ${CHROMIUM} (set CHROMIUM_PATH; .ci/run installs it).`);
  const target = targetOf(meshUrl);
  // Another parameter in the signed part (a wider image): the signature no longer matches.
  const tampered = meshUrl.replace('&kid=', '&w=301&kid=');
  // A page of another site: served by its own server, opened as http://localhost:<port> (the service
  // is http://127.0.0.1:<port>: another origin and another site). It requires CORP of everything it
  // embeds (Cross-Origin-Embedder-Policy), so the image loads only because the service says cross-origin.
  const html = `<!doctype html><title>A blog</title><h1>Post</h1><img id=ok src="${meshUrl}" alt=""><img id=bad src="${tampered}" alt="">`;
  const site = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cross-Origin-Embedder-Policy': 'require-corp' });
    res.end(html.replace(/&/g, '&amp;'));
  });
  const sitePort = await listenOnLoopback(site);
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(120_000);
    await page.goto(`http://localhost:${sitePort}/`);
    // Both images settled (load or error); no function declared inside (tsx would name it with a helper the page lacks).
    const sizes = await page.evaluate(async () => {
      await Promise.all(
        [...document.images].map(
          (img) =>
            img.complete ||
            new Promise((resolve) => {
              img.addEventListener('load', resolve);
              img.addEventListener('error', resolve);
            }),
        ),
      );
      return Object.fromEntries([...document.images].map((img) => [img.id, [img.naturalWidth, img.naturalHeight]]));
    });
    assert.deepEqual(sizes, { ok: [300, 200], bad: [0, 0] });
    assert.deepEqual(await context.cookies(), [], 'no cookie anywhere');
  } finally {
    await browser.close();
    await new Promise((resolve) => site.close(resolve));
  }
  // The service's log: the signed image rendered (200) for the browser; the tampered one was refused with 401.
  const okLog = await service.waitForLog((e) => isRequestLog(e) && unsignedPart(e.req.url) === unsignedPart(target), 'the image request');
  const badLog = await service.waitForLog(
    (e) => isRequestLog(e) && unsignedPart(e.req.url) === unsignedPart(targetOf(tampered)),
    'the tampered request',
  );
  assert.equal((okLog as RequestLog).res.statusCode, 200);
  assert.match((okLog as RequestLog).req.userAgent ?? '', /Chrome/);
  assert.equal((badLog as RequestLog).res.statusCode, 401);
  assert.ok(!JSON.stringify(service.entries).includes(new URL(meshUrl).searchParams.get('sig')!), 'no signature reaches the log');
  assert.equal(loggedFor(target).length, 1);
  assert.equal(loggedFor(targetOf(tampered)).length, 1);
  // Nothing was rendered for it: its recipe (the one with w=301) is a cache miss now, its first render; the good one is a hit.
  assert.equal(await renderedBefore(targetOf(tampered)), false, 'the tampered URL rendered nothing');
  assert.equal(await renderedBefore(target), true);
});

test('link-preview crawlers: the og:image URL answers 200 image/png, public and immutable, cross-origin, with an ETag', async () => {
  for (const userAgent of ['facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)', 'Twitterbot/1.0']) {
    const res = await fetch(cardUrl, { headers: { 'User-Agent': userAgent } });
    assert.equal(res.status, 200, userAgent);
    assert.equal(res.headers.get('content-type'), 'image/png');
    const cacheControl = res.headers.get('cache-control') ?? '';
    assert.match(cacheControl, /\bpublic\b/);
    assert.match(cacheControl, /\bmax-age=\d+/);
    assert.doesNotMatch(cacheControl, /private|no-store/);
    assert.equal(res.headers.get('cross-origin-resource-policy'), 'cross-origin');
    const etag = res.headers.get('etag');
    assert.match(etag ?? '', /^"[0-9a-f]{64}"$/);
    assert.deepEqual(pngSize(Buffer.from(await res.arrayBuffer())), [1200, 630]);
    // A crawler revalidating what it holds gets a 304.
    const again = await fetch(cardUrl, { headers: { 'User-Agent': userAgent, 'If-None-Match': etag! } });
    assert.equal(again.status, 304);
    assert.equal((await logOf(res)).req.userAgent, userAgent);
  }
});

test('a caching proxy (nginx) in front: the signed URL is a MISS then a HIT with the same bytes, and reached the service once; a bearer render is never cached', async (t) => {
  assert.ok(existsSync(NGINX) || NGINX === 'nginx', `No nginx at ${NGINX} (apt-get install -y nginx; .ci/run installs it).`);
  const proxy = await startNginxCache(base);
  t.after(() => proxy.stop());
  // A recipe of this test alone, so every request the service logs for it came through the proxy.
  const target = targetOf(await sign({ slug: 'mesh-gradient', seed: 4242, size: { width: 320, height: 180 }, format: 'png' }));
  const first = await fetch(`${proxy.url}${target}`);
  assert.equal(first.status, 200, proxy.errors());
  assert.equal(first.headers.get('x-cache-status'), 'MISS');
  assert.match(first.headers.get('cache-control') ?? '', /^public, max-age=600, immutable$/);
  const firstBytes = Buffer.from(await first.arrayBuffer());
  await logOf(first);
  const second = await fetch(`${proxy.url}${target}`);
  assert.equal(second.status, 200);
  assert.equal(second.headers.get('x-cache-status'), 'HIT');
  assert.ok(Buffer.from(await second.arrayBuffer()).equals(firstBytes), 'the same bytes');
  assert.deepEqual(pngSize(firstBytes), [320, 180]);
  // A request logged after both: had the proxy forwarded the second one, it would be in the log by now.
  await logOf(await fetch(`${base}/v1/url-signing-keys`, { headers: bearer }));
  assert.deepEqual(
    loggedFor(target).map((e) => e.res.statusCode),
    [200],
    'the service saw the signed URL once',
  );

  // The bearer form of the same recipe answers `Cache-Control: private`: the proxy passes every request on.
  const unsigned = unsignedRecipe(target);
  for (const _ of [1, 2]) {
    const res = await fetch(`${proxy.url}${unsigned}`, { headers: { Authorization: bearer.Authorization } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('cache-control') ?? '', /^private\b/);
    assert.notEqual(res.headers.get('x-cache-status'), 'HIT');
    await res.arrayBuffer();
    await logOf(res);
  }
  assert.equal(requestLogs().filter((e) => e.req.url === unsigned).length, 2, 'both bearer requests reached the service');
});
