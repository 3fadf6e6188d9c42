// The web app has one address in hosted mode: APP_ORIGIN. Sign-in and every cookie-authenticated
// request check the browser's Origin against it, so a page opened on another loopback name of the
// same server (http://127.0.0.1:8080 for http://localhost:8080) would load and then fail at sign-in
// (403 origin_denied behind a "Failed to fetch"). Such a page is sent to APP_ORIGIN instead. Only
// loopback names are aliased: in production a host name is never rewritten. Local mode needs none
// of this (its gateway vouches for every loopback name).
import type { RequestHandler } from 'express';
import { type Config, isLoopbackHost } from '../config/config.ts';

export function appOriginRedirect(config: Pick<Config, 'localMode' | 'appOrigin'>): RequestHandler | null {
  if (config.localMode || config.appOrigin === '') return null;
  const app = new URL(config.appOrigin);
  if (!isLoopbackHost(app.hostname)) return null;
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    let requested: URL;
    try {
      requested = new URL(`${app.protocol}//${req.headers.host ?? ''}`);
    } catch {
      return next();
    }
    if (requested.host === app.host || requested.port !== app.port || !isLoopbackHost(requested.hostname)) return next();
    res.redirect(308, `${app.origin}${req.originalUrl}`);
  };
}
