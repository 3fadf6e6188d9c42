// The gate coalescing tests hold the leader at: the first charge of a render (a credit reservation,
// a signing key's spend) waits until `arrivals` cache lookups have answered. A lookup's answer
// reaches the counter before its caller resumes, and the caller then joins the leader synchronously,
// while the leader still has to charge and render (database and worker-thread replies); so when the
// gate opens every request is already waiting on the leader. It wraps real services from outside;
// production code has no hook for it.
import type { ResolvedRecipe } from '../../src/engine/recipe.ts';
import type { RenderService } from '../../src/services/render.service.ts';

export function arrivalGate(real: Pick<RenderService, 'cached' | 'cachedInMemory'>, arrivals: number) {
  let lookups = 0;
  let charges = 0;
  let open!: () => void;
  let lead!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const leading = new Promise<void>((resolve) => (lead = resolve));
  return {
    /** Resolves when the first charge has reached the gate: the leader is chosen. */
    leading,
    /** `real`'s cache lookups, each answer counted as an arrival (spread into a render stand-in). */
    lookups: {
      cachedInMemory: (resolved: ResolvedRecipe) => real.cachedInMemory(resolved),
      cached(resolved: ResolvedRecipe) {
        const answer = real.cached(resolved);
        void answer.then(
          () => ++lookups >= arrivals && open(),
          () => {},
        );
        return answer;
      },
    } satisfies Pick<RenderService, 'cached' | 'cachedInMemory'>,
    /** Runs `charge`, the first time only once every arrival has looked the recipe up. */
    async holdFirst<T>(charge: () => Promise<T>): Promise<T> {
      if (++charges === 1) {
        lead();
        await opened;
      }
      return charge();
    },
    charges: () => charges,
  };
}
