// How export jobs reach a process that runs them. The jobs table is the public source of truth in
// both modes; a queue only announces which job to claim. SQLite (local): the table is the queue
// (table.queue.ts). Postgres (hosted): pg-boss carries one message per runnable job
// (pg-boss.queue.ts), written in the transaction that made the job runnable.
import type { JobRecord } from '../../db/repositories/jobs.repository.ts';
import type { EnqueueStep } from '../../db/repositories/jobs.repository.ts';

export interface JobConsumer {
  /** Claims a job: the one a message names, or (no id) the oldest due one. Undefined: nothing to run. */
  claim(id?: string): Promise<JobRecord | undefined>;
  /**
   * Runs a claimed job; resolves when it no longer needs its slot — at its end, or earlier when its
   * rendered result only waits for its store (the consumer finishes it). Never throws: failures are
   * recorded on the job.
   */
  execute(job: JobRecord): Promise<void>;
  /** False once the process drains: a message delivered now goes back for another process. */
  accepting(): boolean;
}

export interface JobQueue {
  readonly kind: 'table' | 'pg-boss';
  /** Prepares the queue (pg-boss: its schema and our queue). Every process calls it, runner or not. */
  open(): Promise<void>;
  /** The step that announces job `id` as runnable from `runAt` inside the caller's transaction. */
  enqueue(id: string, runAt: number): EnqueueStep;
  /** Starts delivering jobs to `consumer`, at most `slots` at once. */
  consume(consumer: JobConsumer, slots: number): Promise<void>;
  /** A job was queued: look now rather than at the next poll. */
  wake(): void;
  /** Stops delivering; waits for a claim in flight. Running jobs are the consumer's to stop. */
  stopConsuming(): Promise<void>;
  /** Releases connections (after the consumer's jobs have ended). */
  close(): Promise<void>;
}
