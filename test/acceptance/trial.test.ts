// The README's hosted trial, walked as a new operator would, black-box: `npm run trial` (here its
// script) starts embedded Postgres, the development sign-in, the API and a worker; a real Chromium
// signs in on http://localhost (the session cookie is Secure: browsers keep it on loopback), the
// admin command grants credits, the page renders and exports a file that the worker process makes;
// Ctrl-C stops everything in order.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/black-box/browser.ts';
import { createServer } from 'node:net';
import { listenOnLoopback } from '../support/black-box/listen.ts';
import { ROOT } from '../support/black-box/server-process.ts';
import { withTimeout } from '../support/black-box/waiters.ts';

const trialDir = mkdtempSync(path.join(tmpdir(), 'trial-'));
let trial: ChildProcess;
let output = '';
let appOrigin: string;
let browser: Browser;
let page: Page;

/** The trial's environment: nothing of the test runner's (no DATABASE_URL: the trial starts its own Postgres). */
function trialEnv(port: number): NodeJS.ProcessEnv {
  const { DATABASE_URL: _d, TEST_DATABASE_URL: _t, ...env } = process.env;
  return { ...env, TRIAL_DIR: trialDir, PORT: String(port), LOG_LEVEL: 'warn' };
}

function admin(port: number, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/trial.ts', 'admin', ...args], {
    cwd: ROOT,
    env: trialEnv(port),
    encoding: 'utf8',
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

let port: number;

async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  const free = await listenOnLoopback(server);
  await new Promise((resolve) => server.close(resolve));
  return free;
}

before(async () => {
  port = await freeLoopbackPort();
  appOrigin = `http://localhost:${port}`;
  trial = spawn(process.execPath, ['--import', 'tsx', 'scripts/trial.ts'], {
    cwd: ROOT,
    env: trialEnv(port),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`trial ready ${appOrigin}`)) resolve();
    };
    trial.stdout!.on('data', onData);
    trial.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    trial.once('exit', (code) => reject(new Error(`the trial exited (${code}) before it was ready:\n${output}`)));
  });
  await withTimeout('the trial to be ready', ready, 120_000);
  browser = await launchChromium();
  page = await (await browser.newContext()).newPage();
  page.setDefaultTimeout(120_000);
});

after(async () => {
  await browser?.close();
  // SIGKILL of the front process closes its channel to the trial, which then stops itself.
  if (trial && trial.exitCode === null) trial.kill('SIGKILL');
  rmSync(trialDir, { recursive: true, force: true });
});

test('the trial: sign in on http://localhost, credits from the admin command, a render and an export by the worker, then Ctrl-C', async () => {
  // No page of ours — the web app, the development provider's login and consent forms — asks
  // anything of another machine (its forms used to import Google Fonts).
  const outside: string[] = [];
  page.on('request', (request) => {
    const { protocol, hostname } = new URL(request.url());
    if (/^https?:$/.test(protocol) && !['localhost', '127.0.0.1', '[::1]'].includes(hostname)) outside.push(request.url());
  });
  // Sign in: the web app offers the development sign-in; its provider takes any name.
  await page.goto(appOrigin);
  await page.getByRole('button', { name: /Development sign-in/ }).click();
  await page.locator('input[name="login"]').fill('Ada');
  await page.locator('input[name="password"]').fill('ignored');
  await page.locator('button[type="submit"]').click();
  await page.locator('button[type="submit"]').click(); // the provider's consent form
  await page.waitForURL(`${appOrigin}/**`);
  const me = await page.evaluate(async () => (await fetch('/v1/me')).json());
  assert.equal(me.authMethod, 'session', JSON.stringify(me));
  assert.deepEqual(outside, [], 'nothing requested from outside this machine');
  assert.equal(me.user.email, 'ada@trial.localhost');
  assert.equal(me.balance.available, 0);
  const workspaceId: string = me.workspace.id;

  // Credits, as the README says: the admin command on the trial's database.
  const listed = admin(port, 'workspaces');
  assert.equal(listed.status, 0, listed.stderr);
  assert.match(listed.stdout, new RegExp(workspaceId));
  const granted = admin(port, 'credits', 'grant', workspaceId, '1000', '--reason', 'trial');
  assert.equal(granted.status, 0, granted.stderr);
  assert.equal((await page.evaluate(async () => (await fetch('/v1/me')).json())).balance.available, 1000);

  // A render and an export in the signed-in page; the worker process runs the export.
  const recipe = { slug: 'plasma', seed: 7, size: { width: 160, height: 90 }, format: 'gif', params: { duration: 1, fps: 10 } };
  // A string, not a function: the page must not see the TypeScript loader's helpers (__name).
  const outcome = (await page.evaluate(`(async (r) => {
    const digest = async (buf) =>
      [...new Uint8Array(await crypto.subtle.digest('SHA-256', buf))].map((b) => b.toString(16).padStart(2, '0')).join('');
    const { slug, ...body } = r;
    const sync = await fetch('/v1/generate/' + slug, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    const syncDigest = sync.ok ? await digest(await sync.arrayBuffer()) : sync.status + ' ' + (await sync.text());
    const created = await fetch('/v1/jobs', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
      body: JSON.stringify({ ...r, seed: r.seed + 1 }),
    });
    const job = await created.json();
    if (created.status !== 202) return { syncDigest, jobStatus: created.status + ' ' + JSON.stringify(job) };
    // Follow the job's events until it ends.
    const final = await new Promise((resolve) => {
      const events = new EventSource('/v1/jobs/' + job.id + '/events');
      events.addEventListener('status', (e) => {
        const view = JSON.parse(e.data);
        if (['completed', 'failed', 'cancelled'].includes(view.status)) {
          events.close();
          resolve(view);
        }
      });
    });
    const result = await fetch(final.resultUrl ?? '');
    const again = await fetch('/v1/generate/' + slug, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...body, seed: r.seed + 1 }),
    });
    return {
      syncDigest,
      jobStatus: final.status,
      resultType: result.headers.get('content-type'),
      resultDigest: await digest(await result.arrayBuffer()),
      sameRecipeDigest: await digest(await again.arrayBuffer()),
      sameRecipeCache: again.headers.get('x-service-cache'),
    };
  })(${JSON.stringify(recipe)})`)) as Record<string, string | null>;
  assert.match(outcome.syncDigest ?? '', /^[0-9a-f]{64}$/, outcome.syncDigest ?? '');
  assert.equal(outcome.jobStatus, 'completed');
  assert.equal(outcome.resultType, 'image/gif');
  // The export is the bytes of the same recipe rendered synchronously (now a cache hit).
  assert.equal(outcome.resultDigest, outcome.sameRecipeDigest);
  assert.equal(outcome.sameRecipeCache, 'HIT');
  const after = await page.evaluate(async () => (await fetch('/v1/me')).json());
  assert.ok(after.balance.available < 1000, `credits were spent: ${JSON.stringify(after.balance)}`);

  // One address: the other loopback name of the same server sends the page to it (sign-in is bound to it).
  await page.goto(`http://127.0.0.1:${port}/#/account`);
  await page.waitForURL(`${appOrigin}/**`);
  assert.equal(new URL(page.url()).origin, appOrigin);
  // The account area's budget section (shown in hosted mode only): the remaining balance as /v1/me
  // says it, a budget set through the form, and the month's spending against it.
  await page.getByRole('heading', { name: 'Budget', exact: true }).waitFor();
  assert.equal(await page.locator('#budget-remaining').textContent(), `${after.balance.available} credits remaining`);
  await page.getByLabel('Monthly budget (credits; empty: no budget)').fill('2000');
  await page.getByLabel('Alert at (% of the budget)').fill('25, 100');
  await page.getByRole('button', { name: 'Save budget' }).click();
  await page.locator('#budget-status', { hasText: 'of 2000 credits spent' }).waitFor();
  const budget = await page.evaluate(async () => (await fetch('/v1/workspace/budget')).json());
  assert.equal(budget.monthlyCredits, 2000);
  assert.deepEqual(budget.alertThresholds, [25, 100]);
  assert.ok(budget.spentThisMonth > 0, `this month's spending counts the render and the export: ${JSON.stringify(budget)}`);
  assert.match((await page.locator('#budget-status').textContent()) ?? '', new RegExp(`^${budget.spentThisMonth} of 2000 credits spent`));
  // The unconfigured billing webhook answers 501 as designed: not an error in the terminal.
  const webhook = await fetch(`${appOrigin}/v1/billing/webhook`, {
    method: 'POST',
    body: '{}',
    headers: { 'Content-Type': 'application/json' },
  });
  assert.equal(webhook.status, 501);

  // Ctrl-C: one orderly stop; nothing left listening.
  const exited = new Promise<number | null>((resolve) => trial.once('exit', resolve));
  trial.kill('SIGINT');
  assert.equal(await withTimeout('the trial to stop', exited, 60_000), 0, output);
  assert.match(output, /Trial stopped\./);
  assert.doesNotMatch(output, /terminating connection due to administrator command/);
  // The terminal shows errors only (there were none), one address, and no library's development
  // warnings or notices (oidc-provider's NOTICE for each default lifetime it used).
  assert.doesNotMatch(output, /"level":50|oidc-provider (WARNING|NOTICE)/);
  assert.doesNotMatch(output, /http:\/\/127\.0\.0\.1/);
  assert.match(output, new RegExp(`Open +${appOrigin}`));
  const refused = await fetch(`http://127.0.0.1:${port}/v1/health`).then(
    () => false,
    () => true,
  );
  assert.ok(refused, 'the API stopped');
});
