// The SQLite queue: the jobs table itself. A free slot claims the oldest due job with a conditional
// update; a new job wakes this process at once, other processes find it at their next poll.
import type { JobConsumer, JobQueue } from './job-queue.ts';

const IDLE_POLL_MS = 1_000;

export class TableJobQueue implements JobQueue {
  readonly kind = 'table';
  private consumer: JobConsumer | null = null;
  private slots = 0;
  private inFlight = 0;
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | null = null;
  private stopped = true;

  constructor(private readonly onError: (err: unknown) => void) {}

  async open(): Promise<void> {}

  // The row itself is the message: nothing to write.
  enqueue() {
    return async () => {};
  }

  async consume(consumer: JobConsumer, slots: number): Promise<void> {
    this.consumer = consumer;
    this.slots = slots;
    this.stopped = false;
    this.schedule(0);
  }

  wake(): void {
    if (!this.stopped) this.schedule(0);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), ms);
    this.timer.unref();
  }

  private poll(): Promise<void> {
    if (this.polling || this.stopped) return this.polling ?? Promise.resolve();
    this.polling = this.claimWhileFree().finally(() => {
      this.polling = null;
      if (!this.stopped) this.schedule(IDLE_POLL_MS);
    });
    return this.polling;
  }

  private async claimWhileFree(): Promise<void> {
    const consumer = this.consumer!;
    try {
      while (!this.stopped && consumer.accepting() && this.inFlight < this.slots) {
        const job = await consumer.claim();
        if (!job) break;
        this.inFlight++;
        void consumer.execute(job).finally(() => {
          this.inFlight--;
          this.wake();
        });
      }
    } catch (err) {
      this.onError(err);
    }
  }

  async stopConsuming(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    // A claim in flight finishes first, so nothing touches the database after close.
    await this.polling;
  }

  async close(): Promise<void> {}
}
