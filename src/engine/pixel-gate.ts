// A weighted gate in front of the render workers: it bounds memory by output pixels in flight
// rather than by a count of renders. A 37.7 MP frame holds ~150 MB of RGBA three times over (the
// canvas, its pixel read-back, libvips' copy), so two of them weigh what a thousand thumbnails do.
// A render waits while its pixels do not fit the remaining budget; waiters are served in arrival
// order (a large render is never starved by small ones); a render larger than the whole budget
// runs alone, so nothing ever waits forever.

export class PixelGate {
  private inFlight = 0;
  private readonly waiters: Array<{ weight: number; grant: () => void }> = [];

  constructor(readonly budget: number) {
    if (!(budget > 0)) throw new RangeError('the pixel budget must be positive');
  }

  /** Renders waiting for pixels. */
  get waiting(): number {
    return this.waiters.length;
  }

  /** Pixels held by renders admitted and not yet released. */
  get pixelsInFlight(): number {
    return this.inFlight;
  }

  /** Whether `pixels` would be admitted at once (nobody waits ahead and they fit). */
  fits(pixels: number): boolean {
    return this.waiters.length === 0 && this.inFlight + Math.min(Math.max(0, pixels), this.budget) <= this.budget;
  }

  /**
   * Resolves with a release function once `pixels` fit (or, larger than the budget, once nothing
   * else runs). An aborted `signal` removes the waiter and rejects with `signal.reason`.
   */
  acquire(pixels: number, signal?: AbortSignal): Promise<() => void> {
    // An oversize render takes the whole budget: it runs alone.
    const weight = Math.min(Math.max(0, pixels), this.budget);
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        this.inFlight -= weight;
        this.admit();
      };
      const waiter = {
        weight,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          this.inFlight += weight;
          resolve(release);
        },
      };
      const onAbort = () => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(signal!.reason);
        // The head may have been the one blocking those behind it.
        this.admit();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
      this.admit();
    });
  }

  private admit(): void {
    while (this.waiters.length > 0 && this.inFlight + this.waiters[0]!.weight <= this.budget) this.waiters.shift()!.grant();
  }
}
