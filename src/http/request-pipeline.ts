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
  if (steps.length === 0) throw new Error('A request pipeline needs at least one step.');
  if (new Set(steps.map((s) => s.name)).size !== steps.length) throw new Error('Two request steps share a name.');
  const listener: RequestListener = (req, res) => {
    const run = (index: number): void => {
      const step = steps[index];
      if (!step) {
        onFailure(new Error('No request step answered the request.'), steps.at(-1)!, req, res, false);
        return;
      }
      let passedOn = false;
      let failed = false;
      const fail = (err: unknown) => {
        if (failed) return;
        failed = true;
        onFailure(err, step, req, res, passedOn);
      };
      // Each step's next() counts once: a second call would run the rest of the list twice.
      const next: NextStep = (err) => {
        if (passedOn || failed) return;
        if (err !== undefined) return fail(err);
        passedOn = true;
        run(index + 1);
      };
      try {
        const pending = step.handle(req, res, next);
        if (pending) pending.catch(fail);
      } catch (err) {
        fail(err);
      }
    };
    run(0);
  };
  return Object.assign(listener, { steps: steps.map((s) => s.name) });
}
