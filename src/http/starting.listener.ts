// What an API process answers while it waits for its database or object store at start-up
// (src/startup.ts): /v1/health 200 (the process is alive), /v1/ready 503 with the readiness fields,
// and every other request 503 `not_ready` with Retry-After, so an orchestrator holds traffic back
// and a client retries. The real app replaces this listener once the dependencies answer.
import type { RequestListener } from 'node:http';
import { ProblemError } from '../errors/problem.ts';
import { DEPENDENCY_RETRY_AFTER_SECONDS } from '../lib/dependency-failure.ts';
import type { HealthReport, ReadinessReport } from '../services/health.service.ts';
import { sendRepresentation } from './conditional-request.ts';
import { requestIdFor } from './logging.ts';
import { sendProblem } from './problem-response.ts';
import { SECURITY_HEADERS } from './security-headers.ts';

export interface StartingState {
  health(): HealthReport;
  /** What is reachable so far. */
  dependencies: { database: boolean; blobStore: boolean };
  ffmpeg: boolean;
}

export function startingListener(state: StartingState): RequestListener {
  return (req, res) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    const id = requestIdFor(req, res);
    Object.assign(req, { id });
    const path = (req.url ?? '').split('?')[0];
    const readOnly = req.method === 'GET' || req.method === 'HEAD';
    if (readOnly && path === '/v1/health') {
      // As the app answers it: with its ETag, and 304 to a matching If-None-Match.
      sendRepresentation(req, res, 200, 'application/json; charset=utf-8', JSON.stringify(state.health()), { 'Cache-Control': 'no-store' });
      return;
    }
    const { database, blobStore } = state.dependencies;
    const waitingFor = [!database && 'the database', !blobStore && 'object storage'].filter(Boolean).join(' and ') || 'start-up';
    const retry = { 'Retry-After': String(DEPENDENCY_RETRY_AFTER_SECONDS) };
    if (readOnly && path === '/v1/ready') {
      const { engineVersion, rendererVersion } = state.health();
      const report: ReadinessReport = { ok: false, database, ffmpeg: state.ffmpeg, blobStore, engineVersion, rendererVersion };
      sendProblem(
        req,
        res,
        new ProblemError('not_ready', { detail: `Starting: waiting for ${waitingFor}.`, extra: { ...report }, headers: retry }),
      );
      return;
    }
    // The request's body is not read: the connection closes after this answer (sendProblem).
    sendProblem(req, res, new ProblemError('not_ready', { detail: `The service is starting: waiting for ${waitingFor}.`, headers: retry }));
  };
}
