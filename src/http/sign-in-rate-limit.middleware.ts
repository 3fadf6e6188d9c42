// The sign-in library's routes (/v1/auth, hosted mode) sit outside the operations router, so they
// get the per-address limit here: every request under /v1/auth counts, by client address (req.ip,
// which honours TRUST_PROXY), before the library does any work. Over the limit: 429 rate_limited
// problem+json with Retry-After; every answer carries RateLimit and RateLimit-Policy.
import type { RequestHandler } from 'express';
import { ProblemError } from '../errors/problem.ts';
import type { RateLimiter } from '../services/rate-limit.service.ts';
import { sendProblem } from './problem-response.ts';

export function signInRateLimit(limiter: Pick<RateLimiter, 'consumeSignIn'>): RequestHandler {
  return async (req, res, next) => {
    try {
      const decision = await limiter.consumeSignIn(req.ip ?? req.socket.remoteAddress ?? 'unknown');
      if (!decision.allowed)
        return sendProblem(req, res, new ProblemError('rate_limited', { detail: decision.detail, headers: decision.headers }));
      res.set(decision.headers);
      next();
    } catch (err) {
      next(err);
    }
  };
}
