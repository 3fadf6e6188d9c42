import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { SETTLE_EVERY_MS, SettlingCounterStore, TRUST_MS, type SharedCounter } from './rate-limit.stores.ts';

/** A real rate-limiter-flexible store standing in for Postgres, with every write it receives recorded. */
function sharedStore(quota: number) {
  const memory = new RateLimiterMemory({ points: quota, duration: 60 });
  const writes: Array<[string, number]> = [];
  const store: SharedCounter = {
    penalty: (key, points) => {
      writes.push([key, points]);
      return memory.penalty(key, points);
    },
  };
  return { store, writes };
}

const consumed = async (counter: SettlingCounterStore, key = 'k') => {
  try {
    return (await counter.consume(key)).consumedPoints;
  } catch (refused) {
    assert.ok(refused instanceof RateLimiterRes, String(refused));
    return -refused.consumedPoints; // negative: refused
  }
};

describe('SettlingCounterStore (a shared counter counted in process)', () => {
  test('the first request of a counter waits on the store; the next ones within TRUST_MS do not, and are exact', async () => {
    let now = 1_000_000;
    const { store, writes } = sharedStore(3);
    const counter = new SettlingCounterStore(store, 3, () => now);
    assert.equal(await consumed(counter), 1);
    assert.deepEqual(writes, [['k', 1]]);
    now += TRUST_MS / 2;
    assert.equal(await consumed(counter), 2);
    assert.equal(await consumed(counter), 3);
    assert.equal(await consumed(counter), -4, 'the fourth is refused');
    assert.deepEqual(writes, [['k', 1]], 'decided in process');
    await counter.settle();
    assert.deepEqual(
      writes,
      [
        ['k', 1],
        ['k', 3],
      ],
      'settle sends what was counted, refusals too',
    );
  });

  test('two processes: counts made in one are seen by the other once both settled', async () => {
    const now = 1_000_000;
    const { store } = sharedStore(10);
    const a = new SettlingCounterStore(store, 10, () => now);
    const b = new SettlingCounterStore(store, 10, () => now);
    assert.equal(await consumed(a), 1);
    assert.equal(await consumed(a), 2);
    assert.equal(await consumed(b), 2, "b reads the store, which has a's first count; a's second is not sent yet");
    await a.settle();
    await b.settle();
    assert.equal(await consumed(a), 4);
    assert.equal(await consumed(b), 5);
  });

  test('a counter not read for longer than TRUST_MS is read again before deciding; a window that ended starts over', async () => {
    let now = 1_000_000;
    const { store, writes } = sharedStore(5);
    const counter = new SettlingCounterStore(store, 5, () => now);
    assert.equal(await consumed(counter), 1);
    assert.equal(await consumed(counter), 2);
    now += TRUST_MS + 1;
    assert.equal(await consumed(counter), 3);
    assert.deepEqual(
      writes,
      [
        ['k', 1],
        ['k', 2],
      ],
      'the unsent count goes with the request that reads again',
    );
    now += 60_000;
    // The stand-in store's window runs on the real clock, so only this process's view is checked:
    // counts of the ended window are not sent into the new one.
    writes.length = 0;
    await consumed(counter);
    assert.deepEqual(writes, [['k', 1]]);
  });

  test('counts are sent in the background within SETTLE_EVERY_MS', async () => {
    const { store, writes } = sharedStore(100);
    const counter = new SettlingCounterStore(store, 100);
    await counter.consume('k');
    await counter.consume('k');
    const sent = new Promise<void>((resolve) => {
      const original = store.penalty;
      store.penalty = (key, points) => {
        const result = original(key, points);
        void result.then(() => resolve());
        return result;
      };
    });
    // The store's timer does not hold the process open (unref); this handle does, without timing anything.
    const keepAlive = setInterval(() => {}, 60_000);
    await sent; // resolved by the background write
    clearInterval(keepAlive);
    assert.deepEqual(writes, [
      ['k', 1],
      ['k', 1],
    ]);
    assert.ok(SETTLE_EVERY_MS <= 1_000);
  });
});
