// Waiting on what the service reports instead of sleeping or polling: the job lifecycle's events
// (src/jobs/job-lifecycle.ts), the webhook delivery service's (delivered, gave-up, attempted), and
// calls of a method (a spy) where a component has no event to wait on.
import { EventEmitter } from 'node:events';
import type { components } from '../../codegen/openapi.ts';
import type { JobRecord } from '../../db/repositories/jobs.repository.ts';
import type { WebhookDeliveryResult } from '../../src/services/webhook-delivery.service.ts';
import type { TestApp } from './harness.ts';

// Loose listener types: the emitters are EventEmitter<…> typed by their own event maps; this takes any.
type Listener = (...args: never[]) => void;
interface Emitter {
  on(event: string, listener: Listener): unknown;
  off(event: string, listener: Listener): unknown;
}

/**
 * A waiter armed now: `wait()` resolves with the first emission of one of `events` that `match`
 * accepts (also one that came before wait() was called), and rejects after `timeoutMs`.
 * Arm it before causing the event.
 */
export function armEvent<A extends unknown[]>(emitter: EventEmitter | Emitter, events: string | string[], match: (...args: A) => boolean = () => true, timeoutMs = 20_000) {
  const names = typeof events === 'string' ? [events] : events;
  const target = emitter as Emitter;
  let resolve!: (args: A) => void;
  const hit = new Promise<A>((r) => (resolve = r));
  const listener = (...args: A) => {
    if (match(...args)) resolve(args);
  };
  for (const name of names) target.on(name, listener as unknown as Listener);
  const stop = () => {
    for (const name of names) target.off(name, listener as unknown as Listener);
  };
  return {
    async wait(what = names.join('/')): Promise<A> {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs)));
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

/**
 * A spy armed now on `target[method]`: the method still runs, and `wait()` resolves with the
 * arguments of its first call after arming (rejecting after `timeoutMs`), then puts the method back.
 */
export function armCall<T extends object, K extends keyof T & string>(target: T, method: K, timeoutMs = 20_000) {
  const original = target[method] as unknown as (...args: unknown[]) => unknown;
  const ownMethod = Object.hasOwn(target, method);
  const calls = new EventEmitter();
  (target as Record<K, unknown>)[method] = function (this: unknown, ...args: unknown[]) {
    const result = original.apply(this, args);
    calls.emit('call', ...args);
    return result;
  };
  const called = armEvent(calls, 'call', () => true, timeoutMs);
  return {
    async wait(what = `${method}()`): Promise<unknown[]> {
      try {
        return await called.wait(what);
      } finally {
        if (ownMethod) (target as Record<K, unknown>)[method] = original;
        else delete (target as Record<K, unknown>)[method];
      }
    },
  };
}

type Job = components['schemas']['Job'];

const JOB_EVENTS = ['started', 'retrying', 'finished', 'lost'];

/**
 * The job (as GET /v1/jobs/{id} shows it) once it has one of `statuses`: read now, then again each
 * time this process's job lifecycle reports the job — woken by the runner, not a timer.
 */
export async function waitForJob(
  t: TestApp,
  id: string,
  statuses: string[],
  options: { timeoutMs?: number; headers?: Record<string, string> } = {},
): Promise<Job> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  const request = options.headers ? { auth: false as const, headers: options.headers } : {};
  for (;;) {
    // Armed before the read, so a change between the read and the wait is not missed.
    const changed = armEvent(t.runtime.jobs.lifecycle, JOB_EVENTS, (job: JobRecord) => job.id === id, Math.max(1, deadline - Date.now()));
    const res = await t.request('get', `/v1/jobs/${id}`, request);
    if (statuses.includes(res.body.status)) {
      changed.stop();
      return res.body as Job;
    }
    await changed.wait(`job ${id} to be ${statuses.join('/')} (it is ${res.body.status})`);
  }
}

/** Resolves when `delivery` has delivered the message `webhookId` (armed before the work that sends it). */
export function armDelivered(delivery: EventEmitter | Emitter, webhookId: string, timeoutMs = 20_000) {
  return armEvent(delivery, ['delivered', 'gave-up'], (r: WebhookDeliveryResult) => r.webhookId === webhookId, timeoutMs);
}
