// Signed public recipe URLs where they are meant to be used (docs/embedding.md), black-box: the
// real service process in local mode, URLs created and signed through its HTTP API, then fetched
// the way the outside world fetches them: <img> tags on a page of another site in a real Chromium
// (plain, and with crossorigin drawn on a canvas and read back; fetch() of good and failed URLs;
// a site the service lists in ALLOWED_ORIGINS and one it does not), link-preview crawlers (a plain
// fetch with their User-Agent), and a real caching proxy (nginx) in front of the service as a CDN
// would be, asked without an Origin first, then from a listed and an unlisted one. The service's
// request log (LOG_LEVEL=info, `sig` redacted) tells which requests reached it and what it answered.
import assert from 'node:assert/strict';
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/black-box/browser.ts';
import { freeLoopbackPort, listenOnLoopback } from '../support/black-box/listen.ts';
import { type LogEntry, type LoggedProcess, startLoggedProcess } from '../support/black-box/logged-process.ts';
import { NGINX, startNginxCache } from '../support/black-box/nginx-cache.ts';
import { TEST_LOCAL_KEY } from '../support/black-box/test-keys.ts';

const bearer = { Authorization: `Bearer ${TEST_LOCAL_KEY}`, 'Content-Type': 'application/json' };
const dataDir = mkdtempSync(path.join(tmpdir(), 'render-service-embedding-'));
let service: LoggedProcess;
let base: string;
let keyId: string;
let keySecret: string;
/** mesh-gradient 300×200 png, and social-card 1200×630 png in the path form with `.png` (og:image). */
let meshUrl: string;
let cardUrl: string;
/**
 * Another site's pages, by path: served by a server of the test's own, opened as
 * http://localhost:<port> (an origin the service lists in ALLOWED_ORIGINS: a customer's site) or as
 * http://127.0.0.1:<port> (one it does not list). The service is http://127.0.0.1:<its port>: both
 * are other origins and the first another site. Every page requires CORP or CORS of everything it
 * embeds (Cross-Origin-Embedder-Policy), so what loads loads only because the service allows it.
 */
const sitePages = new Map<string, string>();
const site = http.createServer((req, res) => {
  const html = sitePages.get(req.url ?? '');
  res.writeHead(html === undefined ? 404 : 200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cross-Origin-Embedder-Policy': 'require-corp',
  });
  res.end(html ?? '');
});
let siteOrigin: string;
let foreignSiteOrigin: string;

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
/**
 * A request that names its own X-Request-Id: the service logs it under that id even when the answer,
 * public and kept by shared caches, does not carry it back. `log()` waits for that line.
 */
async function traced(url: string, headers: Record<string, string> = {}) {
  const id = `test-${randomUUID()}`;
  const res = await fetch(url, { headers: { ...headers, 'X-Request-Id': id } });
  const log = () => service.waitForLog((e) => (e as RequestLog).req?.id === id, `the log line of request ${id}`) as Promise<RequestLog>;
  return { res, id, log };
}
/** A signed URL of `unsigned` (path and query) computed here, as docs/embedding.md's algorithm says: the service signed none of it. */
function signHere(unsigned: string, exp: number): string {
  const message = `${unsigned}&kid=${keyId}&exp=${exp}`;
  const key = createHash('sha256').update(keySecret).digest();
  return `${base}${message}&sig=${createHmac('sha256', key).update(message).digest('base64url')}`;
}
/** The CORS headers of a public answer: the same whoever asks. */
function assertPublicCors(res: Response, what: string): void {
  assert.equal(res.headers.get('access-control-allow-origin'), '*', what);
  assert.equal(res.headers.get('access-control-allow-credentials'), null, what);
  assert.equal(res.headers.get('vary'), 'Origin', what);
}

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
  const sitePort = await listenOnLoopback(site);
  siteOrigin = `http://localhost:${sitePort}`;
  foreignSiteOrigin = `http://127.0.0.1:${sitePort}`;
  // A known port, so the URLs the service signs (on its public URL, http://127.0.0.1:PORT in local mode) are usable as returned.
  const port = await freeLoopbackPort();
  service = startLoggedProcess('src/main.ts', {
    DATA_DIR: dataDir,
    API_KEYS: TEST_LOCAL_KEY,
    PORT: String(port),
    ALLOWED_ORIGINS: siteOrigin,
  });
  base = (await service.waitForLog((e) => e.msg === 'listening', 'the service listening')).url as string;
  assert.equal(base, `http://127.0.0.1:${port}`);
  const created = await fetch(`${base}/v1/url-signing-keys`, {
    method: 'POST',
    headers: bearer,
    body: JSON.stringify({ label: 'embedding test', maxAgeSeconds: 600 }),
  });
  assert.equal(created.status, 201);
  ({ id: keyId, secret: keySecret } = (await created.json()) as { id: string; secret: string });
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
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
  await service?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('another site in Chromium: <img> of a signed URL loads with no key and no cookie; <img crossorigin> draws on a canvas that reads back; fetch() reads a good and a failed URL; a tampered one is 401, visible to the page, nothing rendered', async () => {
  const target = targetOf(meshUrl);
  // Another parameter in the signed part (a wider image): the signature no longer matches.
  const tampered = meshUrl.replace('&kid=', '&w=301&kid=');
  // Read by scripts: a signed image of its own for <img crossorigin> (a browser keeps CORS and plain
  // image requests apart), fetch() of another, of a tampered one and of one past its exp.
  const drawn = await sign({ slug: 'mesh-gradient', seed: 12, size: { width: 240, height: 160 }, format: 'png' });
  const fetched = await sign({ slug: 'mesh-gradient', seed: 13, size: { width: 64, height: 48 }, format: 'png' });
  const fetchedTampered = fetched.replace('&kid=', '&w=65&kid=');
  const drawnTampered = drawn.replace('&kid=', '&w=241&kid=');
  const expired = signHere(unsignedRecipe(targetOf(fetched)), Math.floor(Date.now() / 1000) - 60);
  const amp = (url: string) => url.replace(/&/g, '&amp;');
  sitePages.set(
    '/',
    `<!doctype html><title>A blog</title><h1>Post</h1><img id=ok src="${amp(meshUrl)}" alt=""><img id=bad src="${amp(tampered)}" alt="">` +
      `<img id=drawn crossorigin="anonymous" src="${amp(drawn)}" alt=""><img id=badcors crossorigin="anonymous" src="${amp(drawnTampered)}" alt="">`,
  );
  sitePages.set(
    '/elsewhere',
    `<!doctype html><title>Someone else</title><img id=drawn crossorigin="anonymous" src="${amp(drawn)}" alt="">`,
  );
  const browser: Browser = await launchChromium();
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(120_000);
    // What the browser did with each request: a failed one (blocked, say) names its error.
    const failed: string[] = [];
    const statuses = new Map<string, number>();
    const consoleLines: string[] = [];
    page.on('console', (msg) => consoleLines.push(msg.text()));
    page.on('requestfailed', (req) => failed.push(`${req.url()} ${req.failure()?.errorText}`));
    page.on('response', (res) => statuses.set(res.url(), res.status()));
    await page.goto(`${siteOrigin}/`);
    // Every image settled (load or error); the page's code is a string: a function declared here would be
    // named with a tsx helper the page lacks.
    const settled = `Promise.all([...document.images].map((img) => img.complete || new Promise((resolve) => { img.addEventListener('load', resolve); img.addEventListener('error', resolve); })))`;
    const sizes = await page.evaluate(
      `${settled}.then(() => Object.fromEntries([...document.images].map((img) => [img.id, [img.naturalWidth, img.naturalHeight]])))`,
    );
    assert.deepEqual(sizes, { ok: [300, 200], bad: [0, 0], drawn: [240, 160], badcors: [0, 0] });
    // The crossorigin image on a canvas: toDataURL throws on a tainted canvas, so this reads its pixels.
    const dataUrl = (await page.evaluate(`(() => {
      const img = document.getElementById('drawn');
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      canvas.getContext('2d').drawImage(img, 0, 0);
      return canvas.toDataURL('image/png');
    })()`)) as string;
    assert.match(dataUrl, /^data:image\/png;base64,/);
    assert.deepEqual(pngSize(Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64')), [240, 160]);
    // fetch() from the page: a good URL's bytes and headers, and why a failed one failed.
    const read = `(async (urls) => Promise.all(urls.map(async (url) => {
      const res = await fetch(url);
      const type = res.headers.get('content-type');
      return { status: res.status, hash: res.headers.get('x-service-recipe-hash'), body: type.startsWith('application/problem+json') ? (await res.json()).code : (await res.arrayBuffer()).byteLength };
    })))`;
    const [good, bad, gone] = (await page.evaluate(`${read}(${JSON.stringify([fetched, fetchedTampered, expired])})`)) as Array<{
      status: number;
      hash: string | null;
      body: string | number;
    }>;
    assert.equal(good!.status, 200);
    assert.equal(good!.hash, new URL(fetched).pathname.split('/').pop());
    assert.ok(typeof good!.body === 'number' && good!.body > 0, JSON.stringify(good));
    assert.deepEqual({ status: bad!.status, code: bad!.body }, { status: 401, code: 'unauthorized' });
    assert.deepEqual({ status: gone!.status, code: gone!.body }, { status: 410, code: 'signed_url_expired' });
    // The failed <img crossorigin> reached the page with its 401. A plain <img> never shows an error body
    // (the browser's opaque-response blocking keeps any JSON from an image request: ERR_BLOCKED_BY_ORB),
    // but the service did not block it as another site's answer (Cross-Origin-Resource-Policy).
    assert.equal(statuses.get(drawnTampered), 401, consoleLines.join('\n'));
    assert.equal(failed.length, 1, failed.join('\n'));
    assert.ok(failed[0]!.startsWith(`${tampered} `), failed[0]);
    assert.doesNotMatch(failed[0]!, /ERR_BLOCKED_BY_RESPONSE/);

    // A site the service does not list: its <img crossorigin> is refused (403 origin_denied), and its
    // script can read why; a plain <img> of the same URL would load, as on any page.
    const elsewhere = await context.newPage();
    await elsewhere.goto(`${foreignSiteOrigin}/elsewhere`);
    assert.deepEqual(await elsewhere.evaluate(`${settled}.then(() => document.images[0].naturalWidth)`), 0);
    const [refused] = (await elsewhere.evaluate(`${read}(${JSON.stringify([fetched])})`)) as Array<{ status: number; body: string }>;
    assert.deepEqual({ status: refused!.status, code: refused!.body }, { status: 403, code: 'origin_denied' });
    assert.deepEqual(await context.cookies(), [], 'no cookie anywhere');
  } finally {
    await browser.close();
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
  assert.equal(await renderedBefore(targetOf(fetchedTampered)), false, 'nor the tampered URL fetched');
});

test('link-preview crawlers: the og:image URL answers 200 image/png, public and immutable, cross-origin, with an ETag', async () => {
  for (const userAgent of ['facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)', 'Twitterbot/1.0']) {
    const { res, log } = await traced(cardUrl, { 'User-Agent': userAgent });
    assert.equal(res.status, 200, userAgent);
    assert.equal(res.headers.get('content-type'), 'image/png');
    const cacheControl = res.headers.get('cache-control') ?? '';
    assert.match(cacheControl, /\bpublic\b/);
    assert.match(cacheControl, /\bmax-age=\d+/);
    assert.doesNotMatch(cacheControl, /private|no-store/);
    assert.equal(res.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assertPublicCors(res, userAgent);
    const etag = res.headers.get('etag');
    assert.match(etag ?? '', /^"[0-9a-f]{64}"$/);
    assert.deepEqual(pngSize(Buffer.from(await res.arrayBuffer())), [1200, 630]);
    // A crawler revalidating what it holds gets a 304.
    const again = await fetch(cardUrl, { headers: { 'User-Agent': userAgent, 'If-None-Match': etag! } });
    assert.equal(again.status, 304);
    assert.equal((await log()).req.userAgent, userAgent);
  }
});

test('a caching proxy (nginx) in front', async (t) => {
  assert.ok(existsSync(NGINX) || NGINX === 'nginx', `No nginx at ${NGINX} (apt-get install -y nginx; .ci/run installs it).`);
  const proxy = await startNginxCache(base);
  t.after(() => proxy.stop());
  /** A request logged after every earlier one: had the proxy forwarded an earlier request, its line is in the log by now. */
  const settle = async () => logOf(await fetch(`${base}/v1/url-signing-keys`, { headers: bearer }));

  await t.test('the signed URL is a MISS then a HIT with the same bytes, and reached the service once', async () => {
    // A recipe of this test alone, so every request the service logs for it came through the proxy.
    const target = targetOf(await sign({ slug: 'mesh-gradient', seed: 4242, size: { width: 320, height: 180 }, format: 'png' }));
    const first = await traced(`${proxy.url}${target}`);
    assert.equal(first.res.status, 200, proxy.errors());
    assert.equal(first.res.headers.get('x-cache-status'), 'MISS');
    assert.match(first.res.headers.get('cache-control') ?? '', /^public, max-age=600, immutable$/);
    const firstBytes = Buffer.from(await first.res.arrayBuffer());
    await first.log();
    const second = await fetch(`${proxy.url}${target}`);
    assert.equal(second.status, 200);
    assert.equal(second.headers.get('x-cache-status'), 'HIT');
    assert.ok(Buffer.from(await second.arrayBuffer()).equals(firstBytes), 'the same bytes');
    assert.deepEqual(pngSize(firstBytes), [320, 180]);
    await settle();
    assert.deepEqual(
      loggedFor(target).map((e) => e.res.statusCode),
      [200],
      'the service saw the signed URL once',
    );
  });

  await t.test(
    "an Origin-less request first, then a listed and an unlisted Origin: each gets its answer, and no client gets another's request id or rate-limit count",
    async () => {
      const target = targetOf(await sign({ slug: 'mesh-gradient', seed: 4343, size: { width: 160, height: 90 }, format: 'png' }));
      // The public JSON too: the generators (public, max-age=60).
      for (const path of [target, '/v1/generators']) {
        const url = `${proxy.url}${path}`;
        // 1. A plain <img> or a crawler (no Origin), with a request id of its own; then another such client.
        const plain = await traced(url, { 'X-Request-Id': 'client-a-0000001' });
        assert.equal(plain.res.status, 200, `${path} ${proxy.errors()}`);
        assert.equal(plain.res.headers.get('x-cache-status'), 'MISS', path);
        assertPublicCors(plain.res, path);
        const body = Buffer.from(await plain.res.arrayBuffer());
        await plain.log();
        const other = await fetch(url);
        assert.equal(other.headers.get('x-cache-status'), 'HIT', path);
        for (const res of [plain.res, other]) {
          assert.equal(res.headers.get('x-request-id'), null, `${path}: a stored copy carries no client's request id`);
          assert.equal(res.headers.get('ratelimit'), null, `${path}: a stored copy carries no client's count`);
          assert.equal(res.headers.get('ratelimit-policy'), null, path);
        }
        assert.ok(Buffer.from(await other.arrayBuffer()).equals(body));
        // 2. The listed site's script (<img crossorigin>, fetch): an answer it may read.
        for (const _ of [1, 2]) {
          const listed = await fetch(url, { headers: { Origin: siteOrigin } });
          assert.equal(listed.status, 200, path);
          assertPublicCors(listed, `${path} from ${siteOrigin} (${listed.headers.get('x-cache-status')})`);
          assert.ok(Buffer.from(await listed.arrayBuffer()).equals(body), path);
        }
        // 3. An unlisted Origin: 403 origin_denied, never a stored 200; its page can read why.
        for (const _ of [1, 2]) {
          const foreign = await fetch(url, { headers: { Origin: 'https://evil.example' } });
          assert.equal(foreign.status, 403, `${path}: ${foreign.headers.get('x-cache-status')}`);
          assert.notEqual(foreign.headers.get('x-cache-status'), 'HIT', path);
          assertPublicCors(foreign, `${path} from an unlisted origin`);
          assert.equal(((await foreign.json()) as { code: string }).code, 'origin_denied');
        }
        // 4. And the plain client again: still its 200.
        const again = await fetch(url);
        assert.equal(again.status, 200, path);
        assertPublicCors(again, path);
        await again.arrayBuffer();
      }
      await settle();
      // The signed URL reached the service for the first plain request, the listed origin's first and each refusal.
      const statuses = loggedFor(target).map((e) => e.res.statusCode);
      assert.deepEqual(
        statuses.filter((s) => s === 403),
        [403, 403],
        statuses.join(','),
      );
      assert.ok(statuses.filter((s) => s === 200).length <= 3, statuses.join(','));
    },
  );

  await t.test('a bearer render (private) is never cached', async () => {
    const target = targetOf(await sign({ slug: 'mesh-gradient', seed: 4242, size: { width: 320, height: 180 }, format: 'png' }));
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
});
