// createApp wires HTTP to services. It never reads process.env: everything arrives in deps,
// built by the composition root (src/compose.ts) or by a test.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RequestListener } from 'node:http';
import express from 'express';
import { handlers } from '../handlers/index.ts';
import type { AppDeps } from './http/app-deps.types.ts';
import { loggableUrl, requestIdFor, requestLogger } from './http/logging.ts';
import { createLeanHitPath } from './http/lean-hit.path.ts';
import { requestRecorder } from './http/request-metrics.ts';
import { authenticateOnce } from './http/request-steps.ts';
import { SECURITY_HEADERS } from './http/security-headers.ts';
import type { AuthRequest } from './services/auth.service.ts';
import { createOperationsRouter } from './http/operations.router.ts';
import { originMiddleware, originPolicy } from './http/origin.middleware.ts';
import { localGateway } from './http/local-gateway.middleware.ts';
import { signInRateLimit } from './http/sign-in-rate-limit.middleware.ts';
import { appOriginRedirect } from './http/app-origin.redirect.ts';
import { problemErrorHandler, problemFor, requestIdOf, routeNotFound, sendProblem } from './http/problem-response.ts';

const require = createRequire(import.meta.url);
export const REDOC_BUNDLE = path.join(path.dirname(require.resolve('redoc/package.json')), 'bundles', 'redoc.standalone.js');

/**
 * Redoc's bundle as served: its sidebar footer shows a logo from Redocly's CDN, which the reference
 * page's CSP blocks (a console error on every visit), so that one image is inlined instead. Read
 * (off the event loop) on first use, once.
 */
const REDOC_CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const INLINE_LOGO = 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 width=%2216%22 height=%2216%22/%3E';
let redocBytes: Promise<Buffer> | undefined;
const redocBundle = () =>
  (redocBytes ??= readFile(REDOC_BUNDLE, 'utf8').then(
    (text) => Buffer.from(text.replaceAll(REDOC_CDN_LOGO, INLINE_LOGO)),
    (err: unknown) => {
      redocBytes = undefined; // a failed read is tried again by the next request
      throw err;
    },
  ));

/** The built web app (scripts/build-web.mjs bundles web/ into web/dist at install, start and test). */
export const WEB_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'web', 'dist');
/** Strict policy for the web app's pages: same-origin code and API calls; renders shown through blob: URLs. */
export const WEB_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The request listener: the lean path for recipe URLs held in memory (lean-hit.path.ts; off with
 * LEAN_HIT_PATH=0), then express with the full path for everything else.
 */
export async function createApp(deps: AppDeps): Promise<RequestListener> {
  const app = express();
  // One authentication decision per request, shared by the lean and the full path.
  const authenticate = authenticateOnce((req: AuthRequest) => deps.services.auth.authenticate(req));
  // Whom to believe about the client address (req.ip): the peer, or the configured proxies in front.
  app.set('trust proxy', deps.config.trustProxy === false ? false : deps.config.trustProxy);
  app.disable('x-powered-by');
  // Render handlers set strong ETags from recipe hashes; express's default would hash every body.
  app.set('etag', false);
  app.set('query parser', 'simple');

  app.use(requestLogger(deps.logger));
  app.use((_req, res, next) => {
    res.set(SECURITY_HEADERS);
    next();
  });

  // Self-hosted assets of the API reference page (no CDN).
  app.get('/assets/redoc.standalone.js', async (_req, res) => {
    const bundle = await redocBundle();
    res.set('Cache-Control', 'public, max-age=86400');
    res.type('text/javascript').send(bundle);
  });

  // The web app at / (same origin as the API). Only files that exist under web/dist are served; any
  // other path falls through to the API and its problem+json 404. API paths skip the file lookup
  // (a stat per request on the hot render path).
  const webApp = express.static(WEB_DIR, {
    index: 'index.html',
    redirect: false,
    dotfiles: 'ignore',
    fallthrough: true,
    setHeaders: (res, file) => {
      res.setHeader('Content-Security-Policy', WEB_CSP);
      // Bundles carry their content hash in the name; the page that names them is revalidated.
      res.setHeader('Cache-Control', /-[A-Z0-9]{8}\.(js|css)$/.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const toAppOrigin = appOriginRedirect(deps.config);
  app.use((req, res, next) => {
    if (req.path.startsWith('/v1/')) return next();
    if (toAppOrigin) return toAppOrigin(req, res, () => webApp(req, res, next));
    webApp(req, res, next);
  });

  app.use(...originMiddleware(originPolicy(deps.config)));
  app.use(localGateway(deps.config.localGateway));
  // The sign-in library reads its own bodies, so it goes before the operations router (which reads ours).
  if (deps.signInHandler) app.all('/v1/auth/*splat', signInRateLimit(deps.services.rateLimiter), deps.signInHandler);
  // Bodies are read inside the operations router, after the route matched and authenticated.
  const router = await createOperationsRouter(deps, handlers, authenticate);
  app.use(router.handle);
  app.use(routeNotFound);
  app.use(problemErrorHandler);
  const record = requestRecorder(deps.metrics);
  const lean = deps.config.leanHitPath ? createLeanHitPath(deps, authenticate, router.validate) : null;
  return (req, res) => {
    record(req, res);
    if (!lean) return void app(req, res);
    lean(req, res).then(
      (answered) => void (answered || app(req, res)),
      (err: unknown) => {
        // Answered as the full path answers the same error (a database that is down: 503), with a request id.
        if (!requestIdOf(req)) Object.assign(req, { id: requestIdFor(req, res) });
        const problem = problemFor(err, req);
        deps.logger[problem.status >= 500 && problem.code !== 'not_ready' ? 'error' : 'warn'](
          { err, reqId: requestIdOf(req), url: loggableUrl(req.url ?? '') },
          'lean path failed',
        );
        sendProblem(req, res, problem);
      },
    );
  };
}
