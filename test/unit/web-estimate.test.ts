// The estimates the web app makes before it asks for a file (web/js/estimate.js, plain JS run here in
// Node): a gif that may pass 5 MB asks first and points to mp4; a download the service's quote says does
// not fit its synchronous budget asks to export instead (the estimate itself is the service's:
// src/services/render-estimate.ts, test/integration/quote.test.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generator } from '../support/web-generators.ts';
import { GIF_WARN_MB, exportQuestion, gifMegabytes, gifQuestion } from '../../web/js/estimate.js';

const plasma = generator('plasma');
const gif = (width: number, height: number, params: Record<string, unknown>, pixelRatio = 1) => ({
  params,
  size: { width, height, pixelRatio },
  format: 'gif',
});

test('a gif’s size is estimated from its device pixels and the frames the engine keeps (at most 15 fps)', () => {
  assert.ok(gifMegabytes(gif(640, 360, { duration: 1, fps: 10 }), plasma) < GIF_WARN_MB, 'a small gif is not asked about');
  assert.ok(gifMegabytes(gif(1920, 1080, { duration: 1, fps: 10 }), plasma) > GIF_WARN_MB);
  const big = gifMegabytes(gif(1920, 1080, { duration: 3, fps: 15 }), plasma);
  assert.ok(big > GIF_WARN_MB);
  assert.match(gifQuestion(big, 'Download'), /^This gif may be up to \d+ MB\. An mp4 .* about a tenth .* Download the gif anyway\?$/);
  assert.match(gifQuestion(big, 'Export'), /up to \d+ MB.*mp4.*Export the gif anyway/);
  // 30 fps keeps every second frame: as many frames as 15 fps.
  assert.equal(
    gifMegabytes(gif(100, 100, { duration: 2, fps: 30 }), plasma),
    gifMegabytes(gif(100, 100, { duration: 2, fps: 15 }), plasma),
  );
  // Twice the pixel ratio, four times the pixels; params left out take the generator's defaults (3 s at 24 fps).
  assert.equal(gifMegabytes(gif(100, 100, {}, 2), plasma), 4 * gifMegabytes(gif(100, 100, {}), plasma));
  assert.equal(gifMegabytes({ ...gif(1920, 1080, {}), format: 'mp4' }, plasma), 0);
});

test('the question before a download the service estimates past its budget (estimatedMs of POST /v1/quote) names the seconds', () => {
  assert.match(exportQuestion(330), /^This may take about 330 s to render.*Export it as a job instead\?$/);
  assert.equal(
    exportQuestion(20.1),
    'This may take about 21 s to render, longer than a direct download allows (20 s). Export it as a job instead?',
  );
});
