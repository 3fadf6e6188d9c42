// Waiting on an event instead of sleeping: no imports from the product, so every tier (the
// black-box acceptance tier included) can use it. test/support/events.ts builds on it.

import assert from 'node:assert/strict';
import type { EventEmitter } from 'node:events';
import { setTimeout as pace } from 'node:timers/promises';

/**
 * How long a wait may last before the test gives up: only a backstop for a process that will never
 * log the line. Waits end on the line itself, so it is long enough for an export on a machine loaded
 * many times over (a 120-frame mp4 took over two minutes at a load of 17 on 2 cores).
 */
export const BACKSTOP_MS = 600_000;

// Loose listener types: emitters are EventEmitter<…> typed by their own event maps; this takes any.
type Listener = (...args: never[]) => void;
export interface Emitter {
  on(event: string, listener: Listener): unknown;
  off(event: string, listener: Listener): unknown;
}

/**
 * A waiter armed now: `wait()` resolves with the first emission of one of `events` that `match`
 * accepts (also one that came before wait() was called), and rejects after `timeoutMs`.
 * Arm it before causing the event.
 */
export function armEvent<A extends unknown[]>(
  source: EventEmitter | Emitter,
  events: string | string[],
  match: (...args: A) => boolean = () => true,
  timeoutMs = 20_000,
) {
  const names = typeof events === 'string' ? [events] : events;
  const emitter = source as Emitter;
  let resolve!: (args: A) => void;
  const hit = new Promise<A>((r) => (resolve = r));
  const listener = (...args: A) => {
    if (match(...args)) resolve(args);
  };
  for (const name of names) emitter.on(name, listener as unknown as Listener);
  const stop = () => {
    for (const name of names) emitter.off(name, listener as unknown as Listener);
  };
  return {
    async wait(what = names.join('/')): Promise<A> {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>(
        (_, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs)),
      );
      try {
        return await Promise.race([hit, timeout]);
      } finally {
        clearTimeout(timer);
        stop();
      }
    },
    stop,
  };
}

/** `promise`, or a rejection naming `what` after `ms`. */
export function withTimeout<T>(what: string, promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Asks until `url` answers `status`: a wait for the service's own probe (/v1/ready), with the backstop of any wait. */
export async function untilStatus(url: string, status: number, what: string): Promise<void> {
  const deadline = Date.now() + BACKSTOP_MS;
  let last = 0;
  while (Date.now() < deadline) {
    last = (await fetch(url)).status;
    if (last === status) return;
    await pace(250);
  }
  assert.fail(`${what}: ${url} still answers ${last}`);
}
