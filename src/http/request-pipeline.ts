// The request pipeline: one ordered list of named steps that every request walks, whichever path
// answers it. createApp (src/app.ts) builds the list; a step either answers the request or passes it
// on with next(), in the connect style express also uses, so express apps can be steps themselves
// (the web app, sign-in and the operations router are). The lean path for recipe URLs held in memory
// is one step of the list too, just before the operations router: whatever is added to the list
// before it runs on both paths, and nothing can be added in front of one path only.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

export type NextStep = (err?: unknown) => void;

export interface RequestStep {
  /** Names the step in logs ("<name> failed") and in the pipeline's list of steps. */
  readonly name: string;
  /** Answers the request, or calls next() (next(err) to fail it); a rejected promise fails it too. */
  handle(req: IncomingMessage, res: ServerResponse, next: NextStep): void | Promise<void>;
}

/**
 * Handles a step's failure (it threw, rejected or called next(err)). `passedOn`: the step had
 * already passed the request on, so a later step owns the response and only the error is reported.
 */
export type StepFailureHandler = (err: unknown, step: RequestStep, req: IncomingMessage, res: ServerResponse, passedOn: boolean) => void;

export interface RequestPipeline extends RequestListener {
  /** The steps' names, in the order every request runs them. */
  readonly steps: readonly string[];
}

/**
 * The listener that runs `steps` in order for each request. The last step must answer every
 * request that reaches it (the operations router answers 404 for any path outside the contract).
 */
export function requestPipeline(steps: readonly RequestStep[], onFailure: StepFailureHandler): RequestPipeline {
  if (steps.length === 0 || steps.length > 31) throw new Error('A request pipeline has from 1 to 31 steps.');
  if (new Set(steps.map((s) => s.name)).size !== steps.length) throw new Error('Two request steps share a name.');
  const listener: RequestListener = (req, res) => new Walk(steps, onFailure, req, res).enter(0);
  return Object.assign(listener, { steps: steps.map((s) => s.name) });
}

/**
 * One request's walk down the list. A class rather than closures: this runs for every request, and
 * tsx names every function a closure declares (a defineProperty each).
 */
class Walk {
  /** The step that holds the request: only its next() moves it on, once. */
  private current = -1;
  /** The steps that failed (a bit each): a step fails a request once. */
  private failed = 0;

  constructor(
    private readonly steps: readonly RequestStep[],
    private readonly onFailure: StepFailureHandler,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {}

  enter(index: number): void {
    const step = this.steps[index];
    if (!step) {
      this.onFailure(new Error('No request step answered the request.'), this.steps.at(-1)!, this.req, this.res, false);
      return;
    }
    this.current = index;
    try {
      const pending = step.handle(this.req, this.res, (err?: unknown) => this.next(index, err));
      if (pending) pending.catch((err: unknown) => this.fail(index, err));
    } catch (err) {
      this.fail(index, err);
    }
  }

  private next(index: number, err: unknown): void {
    // A second next() from one step, or one after it failed, would run the rest of the list twice.
    if (index !== this.current || this.failed & (1 << index)) return;
    if (err !== undefined) return this.fail(index, err);
    this.enter(index + 1);
  }

  private fail(index: number, err: unknown): void {
    if (this.failed & (1 << index)) return;
    this.failed |= 1 << index;
    this.onFailure(err, this.steps[index]!, this.req, this.res, index !== this.current);
  }
}
