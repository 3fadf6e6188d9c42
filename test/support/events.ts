// Waiting on what the service reports instead of sleeping or polling: the job lifecycle's events
// (src/jobs/job-lifecycle.ts), the webhook delivery service's (delivered, gave-up, attempted), and
// calls of a method (a spy) where a component has no event to wait on.
import { EventEmitter } from 'node:events';
import type { components } from '../../codegen/openapi.ts';
import type { JobRecord } from '../../db/repositories/jobs.repository.ts';
import type { WebhookDeliveryResult } from '../../src/services/webhook-delivery.service.ts';
import type { TestApp } from './harness.ts';
import { armEvent, BACKSTOP_MS, type Emitter } from './black-box/waiters.ts';

export { armEvent };

/**
 * A spy armed now on `target[method]` (an object or a prototype): the method still runs, and
 * `wait()` resolves with the arguments of its first call after arming (rejecting after
 * `timeoutMs`), then puts the method back; `settled()` waits for that call's returned promise too,
 * for work a caller starts and does not await (fire-and-forget writes).
 */
export function armCall<T extends object, K extends keyof T & string>(target: T, method: K, timeoutMs = BACKSTOP_MS) {
  const original = target[method] as unknown as (...args: unknown[]) => unknown;
  const ownMethod = Object.hasOwn(target, method);
  const calls = new EventEmitter();
  (target as Record<K, unknown>)[method] = function (this: unknown, ...args: unknown[]) {
    const result = original.apply(this, args);
    calls.emit('call', args, result);
    return result;
  };
  const called = armEvent<[unknown[], unknown]>(calls, 'call', () => true, timeoutMs);
  let first: Promise<[unknown[], unknown]> | undefined;
  const firstCall = (what: string) =>
    (first ??= called.wait(what).finally(() => {
      if (ownMethod) (target as Record<K, unknown>)[method] = original;
      else delete (target as Record<K, unknown>)[method];
    }));
  return {
    async wait(what = `${method}()`): Promise<unknown[]> {
      return (await firstCall(what))[0];
    },
    async settled(what = `${method}()`): Promise<unknown> {
      return await (
        await firstCall(what)
      )[1];
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
  const deadline = Date.now() + (options.timeoutMs ?? BACKSTOP_MS);
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
export function armDelivered(delivery: EventEmitter | Emitter, webhookId: string, timeoutMs = BACKSTOP_MS) {
  return armEvent(delivery, ['delivered', 'gave-up'], (r: WebhookDeliveryResult) => r.webhookId === webhookId, timeoutMs);
}
