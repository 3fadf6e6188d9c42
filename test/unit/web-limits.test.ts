// The service's limits as the web app reads them (web/js/limits.js, from GET /v1/health): the app
// keeps no copy of its own, so the sizes, pixel ratios and gif frames it works with follow the service.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GIF_MAX_FPS, gifFramePlan } from '../../src/engine/encoders.ts';
import { SIZE_LIMITS } from '../../src/config/limits.ts';
import { health } from '../support/web-logic.ts';
import { clampRatio, gifFrames, limits, ratioRange, setLimits, sideRange } from '../../web/js/limits.js';

test('the limits are what /v1/health serves, the animation budget with them', () => {
  assert.deepEqual(limits, { ...health.limits, animationBudgetMs: 20_000 });
  assert.deepEqual(sideRange(), { min: SIZE_LIMITS.minSide, max: SIZE_LIMITS.maxSide });
  assert.deepEqual(ratioRange(), { min: SIZE_LIMITS.minPixelRatio, max: SIZE_LIMITS.maxPixelRatio, step: 0.25 });
  assert.equal(clampRatio(0.1), SIZE_LIMITS.minPixelRatio);
  assert.equal(clampRatio(9), SIZE_LIMITS.maxPixelRatio);
  assert.equal(clampRatio(1.3), 1.3);
});

test("a gif keeps the frames the engine's plan keeps, at every rate", () => {
  assert.equal(limits.gifMaxFps, GIF_MAX_FPS);
  for (const fps of [1, 10, 15, 16, 24, 30, 31, 60])
    for (const frames of [1, 7, 72, 300])
      assert.equal(gifFrames(fps, frames), gifFramePlan(fps, frames).frames.length, `${fps} fps, ${frames}`);
});

test('other limits served are followed at once (no copy kept)', () => {
  try {
    setLimits({ ...health, limits: { ...health.limits, maxPixelRatio: 2, gifMaxFps: 10 }, animationBudgetMs: 5_000 });
    assert.equal(clampRatio(3), 2);
    assert.equal(gifFrames(24, 72), 24);
    assert.equal(limits.animationBudgetMs, 5_000);
  } finally {
    setLimits(health);
  }
});
