// What the export page says about a job (web/js/jobs.js), the API client's rules (api-rules.js) and
// the pages' numbers and dates (formatting.js): plain JS run here in Node.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import '../support/web-logic.ts';
import { dispositionName, problemMessage, resendable } from '../../web/js/api-rules.js';
import { formatBytes, formatDate, money, priceText } from '../../web/js/formatting.js';
import { jobFileName, jobOutput, jobProgress, jobRecipe, percent, recipeOf, stageOf } from '../../web/js/jobs.js';

const recipe = { params: { duration: 1, fps: 10 }, seed: 77, size: { width: 64, height: 64, pixelRatio: 1 }, format: 'gif' };
const encoded = Buffer.from(JSON.stringify({ generator: 'plasma', version: '1.3.0', ...recipe })).toString('base64url');
const job = { id: 'job_1', slug: 'plasma', status: 'completed', progress: 1, format: 'gif', recipe: encoded };

test('the stage of a job: the API reports frames only, so past 90 % a running job says "encoding…"', () => {
  assert.equal(stageOf({ status: 'queued', progress: 0 }), 'queued…');
  assert.equal(stageOf({ status: 'running', progress: 0.42 }), 'rendering frames… 42%');
  assert.equal(stageOf({ status: 'running', progress: 0.9 }), 'encoding…');
  assert.equal(stageOf({ status: 'running', progress: 0.95 }), 'encoding…');
  assert.equal(stageOf({ status: 'running', progress: 0.95, cancelled: true }), 'cancelling…');
  assert.equal(stageOf({ status: 'completed', progress: 1 }), 'completed');
  assert.equal(stageOf({ status: 'failed', progress: 0.5 }), 'failed');
  assert.deepEqual([percent(1), percent(0.333), percent(1.5), percent(-1)], [100, 33, 100, 0]);
});

test('a history row: format and dimensions (with @2x when not 1), a running job’s stage, else its percent', () => {
  assert.equal(jobOutput(job), 'gif · 64×64');
  const twice = Buffer.from(JSON.stringify({ ...recipe, size: { width: 96, height: 64, pixelRatio: 2 } })).toString('base64url');
  assert.equal(jobOutput({ ...job, format: 'mp4', recipe: twice }), 'mp4 · 96×64 @2x');
  assert.equal(jobOutput({ ...job, recipe: null }), 'gif', 'a service that sends no recipe');
  assert.equal(jobOutput({ ...job, format: null, recipe: null }), '');
  assert.equal(jobProgress({ ...job, status: 'running', progress: 0.95 }), 'encoding…');
  assert.equal(jobProgress({ ...job, status: 'failed', progress: 0.5 }), '50%');
});

test('Retry and Re-export… take the job’s own recipe; its file is named by the playground’s rule', () => {
  assert.deepEqual(recipeOf(job), { generator: 'plasma', version: '1.3.0', ...recipe });
  assert.deepEqual(jobRecipe(job), { slug: 'plasma', ...recipe });
  assert.equal(jobRecipe({ ...job, recipe: null }), null);
  assert.equal(jobFileName(job), 'plasma-77-64x64.gif');
  const mp4 = Buffer.from(JSON.stringify({ ...recipe, size: { width: 96, height: 64, pixelRatio: 1 }, format: 'mp4' })).toString(
    'base64url',
  );
  assert.equal(jobFileName({ ...job, recipe: mp4 }), 'plasma-77-96x64.mp4');
  assert.equal(jobFileName({ ...job, recipe: null }), 'plasma-job_1.gif');
  assert.equal(jobFileName({ ...job, recipe: null, format: null }), 'plasma-job_1.bin');
});

test('offline, only what cannot act twice is sent again: reads, renders, and requests with an Idempotency-Key', () => {
  assert.equal(resendable('/v1/me'), true);
  assert.equal(resendable('/v1/jobs?limit=20', { method: 'get' }), true);
  assert.equal(resendable('/v1/health', { method: 'HEAD' }), true);
  assert.equal(resendable('/v1/generate/blob', { method: 'POST' }), true, 'a repeat is a free cache hit');
  assert.equal(resendable('/v1/jobs', { method: 'POST', headers: { 'Idempotency-Key': 'k' } }), true);
  assert.equal(resendable('/v1/jobs', { method: 'POST', headers: { 'idempotency-key': 'k' } }), true);
  assert.equal(
    resendable('/v1/keys', { method: 'POST', headers: { 'Content-Type': 'application/json' } }),
    false,
    'a key may have been created',
  );
  assert.equal(resendable('/v1/presets', { method: 'POST' }), false);
  assert.equal(resendable('/v1/keys/k1', { method: 'DELETE' }), false);
});

test('a refusal in plain words: its issues named by field, else its detail, title or status', () => {
  const issues = [
    { path: 'body.params.title', message: 'must NOT have more than 80 characters' },
    { path: 'body.size.width', message: 'must be >= 16' },
  ];
  assert.equal(
    problemMessage(400, { issues, title: 'Invalid request' }),
    'Title: must be at most 80 characters; Width: must be at least 16',
  );
  assert.equal(problemMessage(409, { title: 'Conflict', detail: 'The key is revoked.' }), 'The key is revoked.');
  assert.equal(problemMessage(404, { title: 'Not found' }), 'Not found');
  assert.equal(problemMessage(502, null), 'HTTP 502');
  assert.equal(dispositionName('attachment; filename="plasma-77-64x64.gif"'), 'plasma-77-64x64.gif');
  assert.equal(dispositionName("attachment; filename*=UTF-8''caf%C3%A9.png"), 'café.png');
  assert.equal(dispositionName(null), null);
});

test('numbers and dates as the pages print them', () => {
  assert.deepEqual([formatBytes(512), formatBytes(1536), formatBytes(2 * 1024 * 1024)], ['512 B', '1.5 KB', '2.0 MB']);
  assert.equal(formatDate(null), '—');
  assert.equal(formatDate('not a date'), 'not a date');
  assert.equal(formatDate('2026-11-29T10:00:00Z'), new Date('2026-11-29T10:00:00Z').toLocaleString());
  assert.equal(money(8000, 'usd', 'en-US'), '$80.00');
  assert.equal(money(1000, 'eur', 'de-DE'), '10,00\u00a0€');
  // A quote (POST /v1/quote) beside Download and Export: its credits, or free for a file rendered before.
  assert.deepEqual(
    [priceText({ credits: 1, cached: false }), priceText({ credits: 3, cached: false }), priceText({ credits: 0, cached: true })],
    ['1 credit', '3 credits', 'rendered before: free'],
  );
});
