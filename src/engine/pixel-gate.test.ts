// The pixel gate with fake renders that finish on command: no timing, only admission order.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PixelGate } from './pixel-gate.ts';

const X = 1_000_000;
/** Lets every granted acquire() run its continuation. */
const flush = () => new Promise((r) => setImmediate(r));

function harness(budget: number) {
  const gate = new PixelGate(budget);
  let running = 0;
  let peak = 0;
  const render = (pixels: number, signal?: AbortSignal) => {
    let finish!: () => void;
    const finished = new Promise<void>((r) => (finish = r));
    const state = { started: false, done: false, error: undefined as unknown, finish: () => finish() };
    void gate.acquire(pixels, signal).then(
      async (release) => {
        state.started = true;
        running++;
        peak = Math.max(peak, running);
        await finished;
        running--;
        state.done = true;
        release();
      },
      (err) => (state.error = err),
    );
    return state;
  };
  return { gate, render, peak: () => peak };
}

describe('pixel gate', () => {
  test('two renders of 0.6× the budget never run at once', async () => {
    const h = harness(X);
    const a = h.render(0.6 * X);
    const b = h.render(0.6 * X);
    await flush();
    assert.equal(a.started, true);
    assert.equal(b.started, false, 'the second waits for pixels');
    assert.equal(h.gate.waiting, 1);
    a.finish();
    await flush();
    assert.equal(b.started, true, 'and runs once the first released them');
    b.finish();
    await flush();
    assert.equal(h.peak(), 1);
    assert.equal(h.gate.pixelsInFlight, 0);
  });

  test('two renders of 0.4× the budget run together', async () => {
    const h = harness(X);
    const a = h.render(0.4 * X);
    const b = h.render(0.4 * X);
    await flush();
    assert.equal(a.started && b.started, true);
    assert.equal(h.peak(), 2);
    a.finish();
    b.finish();
    await flush();
  });

  test('a render larger than the whole budget waits for the others, then runs alone', async () => {
    const h = harness(X);
    const small = h.render(0.4 * X);
    const huge = h.render(3 * X);
    const later = h.render(0.1 * X);
    await flush();
    assert.equal(small.started, true);
    assert.equal(huge.started, false, 'waits for the running render');
    assert.equal(later.started, false, 'arrival order: nothing overtakes the waiting render');
    small.finish();
    await flush();
    assert.equal(huge.started, true, 'never deadlocks');
    assert.equal(later.started, false, 'the oversize render runs alone');
    huge.finish();
    await flush();
    assert.equal(later.started, true);
    later.finish();
    await flush();
    assert.equal(h.peak(), 1);
  });

  test('a waiting render that is aborted leaves the queue and lets those behind it in', async () => {
    const h = harness(X);
    const a = h.render(0.7 * X);
    const abort = new AbortController();
    const blocked = h.render(0.7 * X, abort.signal);
    const small = h.render(0.2 * X);
    await flush();
    assert.equal(small.started, false);
    abort.abort(new Error('client left'));
    await flush();
    assert.match(String(blocked.error), /client left/);
    assert.equal(small.started, true);
    assert.equal(h.gate.waiting, 0);
    a.finish();
    small.finish();
    await flush();
    assert.equal(h.gate.pixelsInFlight, 0);
  });
});
