// The local gateway (local mode only): the web app served by this process works without sign-in
// because same-origin browser requests are vouched for with the local workspace's credential.
// It vouches only when the Host is a loopback name (a foreign Host means DNS rebinding) and the
// request is same-origin: an Origin equal to the service's own loopback origin, or, for requests
// browsers send without Origin, Sec-Fetch-Site "same-origin" (or "none": typed by the user).
// Explicit credentials win: a request with a bearer header or a session cookie is left alone.
import type { RequestHandler } from 'express';
import { hasSessionCookie, type AuthRequest } from '../services/auth.service.ts';
import { loopbackSelfOrigin } from './origin.middleware.ts';

export function isGatewayEligible(req: AuthRequest): boolean {
  if (req.headers.authorization !== undefined || hasSessionCookie(req.headers)) return false;
  const self = loopbackSelfOrigin(req.headers as never);
  if (!self) return false;
  const origin = req.headers.origin;
  if (origin !== undefined) return origin === self;
  const site = req.headers['sec-fetch-site'];
  return site === 'same-origin' || site === 'none';
}

export function localGateway(enabled: boolean): RequestHandler {
  return (req, _res, next) => {
    if (enabled && isGatewayEligible(req)) (req as AuthRequest).localGateway = true;
    next();
  };
}
