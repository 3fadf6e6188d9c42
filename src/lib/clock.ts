// Time behind an interface, so tests can move it (key touch throttling, expiries) without sleeping.
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
