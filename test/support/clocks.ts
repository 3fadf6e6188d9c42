// Clocks for tests that need distinct timestamps without sleeping.
import type { Clock } from '../../src/lib/clock.ts';

/** Wall time, but every reading is at least 1 ms after the previous one: two writes never share a timestamp. */
export function strictlyIncreasingClock(): Clock {
  let last = 0;
  return { now: () => (last = Math.max(Date.now(), last + 1)) };
}
