// Requests for the metrics: each is recorded when its response closes, under the operationId the
// router (or the lean path) matched, "none" for paths outside the contract, and 499 for a client
// that left before the response was finished.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Metrics } from '../lib/metrics.ts';

const operations = new WeakMap<ServerResponse, string>();

export function markOperation(res: ServerResponse, operationId: string): void {
  operations.set(res, operationId);
}

export function requestRecorder(metrics: Pick<Metrics, 'request'>): (req: IncomingMessage, res: ServerResponse) => void {
  return (_req, res) => {
    const started = performance.now();
    res.once('close', () =>
      metrics.request(operations.get(res) ?? 'none', res.writableFinished ? res.statusCode : 499, (performance.now() - started) / 1000),
    );
  };
}
