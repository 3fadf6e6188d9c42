// createApp wires HTTP to services. It never reads process.env: everything arrives in deps,
// built by the composition root (src/compose.ts) or by a test.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { handlers } from '../handlers/index.ts';
import { isProblemError } from './errors/problem.ts';
import { packagePath } from './lib/package-root.ts';
import type { AppDeps } from './http/app-deps.types.ts';
import { loggableUrl, markAnsweredByLeanPath, requestLogger } from './http/logging.ts';
import { LEAN_PATH_STEP, leanHitPathStep } from './http/lean-hit.path.ts';
import { requestRecorder } from './http/request-metrics.ts';
import { requestPipeline, type RequestPipeline, type RequestStep } from './http/request-pipeline.ts';
import { authenticateOnce, authorizedSteps } from './http/request-steps.ts';
import { SECURITY_HEADERS } from './http/security-headers.ts';
import { withoutPerRequestHeaders } from './http/public-answer.ts';
import type { AuthRequest } from './services/auth.service.ts';
import { createOperationsRouter } from './http/operations.router.ts';
import { originMiddleware, originPolicy } from './http/origin.middleware.ts';
import { localGateway } from './http/local-gateway.middleware.ts';
import { signInRateLimit } from './http/sign-in-rate-limit.middleware.ts';
import { appOriginRedirect } from './http/app-origin.redirect.ts';
import { problemErrorHandler, problemFor, recordProblem, requestIdOf, routeNotFound, sendProblem } from './http/problem-response.ts';

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
export const WEB_DIR = packagePath('web', 'dist');
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

/** An express app with the service's settings; the pipeline's express steps are each one. */
function expressApp(deps: AppDeps): express.Express {
  const app = express();
  // Whom to believe about the client address (req.ip): the peer, or the configured proxies in front.
  app.set('trust proxy', deps.config.trustProxy === false ? false : deps.config.trustProxy);
  app.disable('x-powered-by');
  // Render handlers set strong ETags from recipe hashes; express's default would hash every body.
  app.set('etag', false);
  app.set('query parser', 'simple');
  return app;
}

/** An express app as a step: it answers, or passes the request on when no route of its took it. */
function expressStep(name: string, app: express.Express): RequestStep {
  return {
    name,
    handle: (req, res, next) => {
      app(req as express.Request, res as express.Response, next);
    },
  };
}

/** The self-hosted assets of the API reference page and the web app, at paths outside /v1/. */
function webAppStep(deps: AppDeps): RequestStep {
  const app = expressApp(deps);
  // Self-hosted assets of the API reference page (no CDN).
  app.get('/assets/redoc.standalone.js', async (_req, res) => {
    const bundle = await redocBundle();
    res.set('Cache-Control', 'public, max-age=86400');
    withoutPerRequestHeaders(res);
    res.type('text/javascript').send(bundle);
  });
  // The web app at / (same origin as the API). Only files that exist under web/dist are served; any
  // other path falls through to the API and its problem+json 404.
  const webApp = express.static(WEB_DIR, {
    index: 'index.html',
    redirect: false,
    dotfiles: 'ignore',
    fallthrough: true,
    setHeaders: (res, file) => {
      res.setHeader('Content-Security-Policy', WEB_CSP);
      // Bundles carry their content hash in the name (a shared cache may keep them: nothing of the
      // request goes with them); the page that names them is revalidated.
      const bundle = /-[A-Z0-9]{8}\.(js|css)$/.test(file);
      res.setHeader('Cache-Control', bundle ? 'public, max-age=31536000, immutable' : 'no-cache');
      if (bundle) withoutPerRequestHeaders(res);
    },
  });
  const toAppOrigin = appOriginRedirect(deps.config);
  app.use((req, res, next) => {
    if (toAppOrigin) return toAppOrigin(req, res, () => webApp(req, res, next));
    webApp(req, res, next);
  });
  const step = expressStep('web app', app);
  // API paths skip it (a file lookup per request on the hot render path).
  return { ...step, handle: (req, res, next) => (req.url?.startsWith('/v1/') ? next() : step.handle(req, res, next)) };
}

/** The sign-in library's routes (hosted mode). It reads its own bodies, so it goes before the operations router (which reads ours). */
function signInStep(deps: AppDeps, signInHandler: NonNullable<AppDeps['signInHandler']>): RequestStep {
  const app = expressApp(deps);
  app.all('/v1/auth/*splat', signInRateLimit(deps.services.rateLimiter), signInHandler);
  return expressStep('sign-in', app);
}

/** A middleware of express's shape that reads nothing express adds as a step. */
function middlewareStep(
  name: string,
  middleware: (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void,
): RequestStep {
  return { name, handle: middleware };
}

/**
 * The request listener: the request pipeline, one ordered list of steps every request walks
 * (src/http/request-pipeline.ts). The lean path for recipe URLs held in memory (lean-hit.path.ts;
 * off with LEAN_HIT_PATH=0) is the step just before the operations router, so every step in front
 * of it runs on both paths. Add a step to this list, never to one of the express apps inside it.
 */
export async function createApp(deps: AppDeps): Promise<RequestPipeline> {
  // One authentication decision and one rate-limit count per request, shared by both paths.
  const authenticate = authenticateOnce((req: AuthRequest) => deps.services.auth.authenticate(req));
  const authorized = authorizedSteps({
    policy: originPolicy(deps.config),
    // Read at each request, as handlers read services (a test may replace one).
    rateLimiter: {
      consume: (principal, authorization) => deps.services.rateLimiter.consume(principal, authorization),
      consumeSigned: (clientAddress) => deps.services.rateLimiter.consumeSigned(clientAddress),
    },
    onSignedUrlRefused: () => deps.metrics.signedUrlRefusal('rate_limited'),
  });

  const operations = expressApp(deps);
  // Bodies are read inside the operations router, after the route matched and authenticated.
  const router = await createOperationsRouter(deps, { handlers, authenticate, authorized });
  operations.use(router.handle);
  operations.use(routeNotFound);
  operations.use(problemErrorHandler(deps.dependencies));

  const securityHeaderEntries = Object.entries(SECURITY_HEADERS);
  const securityHeaders: RequestStep['handle'] = (_req, res, next) => {
    for (const [name, value] of securityHeaderEntries) res.setHeader(name, value);
    next();
  };
  const record = requestRecorder(deps.metrics);
  const steps: RequestStep[] = [
    middlewareStep('metrics', (req, res, next) => {
      record(req, res);
      next();
    }),
    middlewareStep('request log', requestLogger(deps.logger)),
    middlewareStep('security headers', securityHeaders),
    webAppStep(deps),
    middlewareStep('origin policy', originMiddleware(originPolicy(deps.config))),
    middlewareStep('local gateway', localGateway(deps.config.localGateway) as never),
    ...(deps.signInHandler ? [signInStep(deps, deps.signInHandler)] : []),
    ...(deps.config.leanHitPath ? [leanHitPathStep(deps, { authenticate, validate: router.validate, authorized })] : []),
    expressStep('operations', operations),
  ];
  return requestPipeline(steps, (err, step, req, res, passedOn) => {
    const problem = problemFor(err, req);
    if (!passedOn && step.name === LEAN_PATH_STEP) markAnsweredByLeanPath(res);
    // A 503 for a dependency that is down is counted in its outage (logged once) and on the request's
    // line; any other refusal is an answer like any other (the request line records it); the rest is logged.
    if (!passedOn && problem.code === 'not_ready') recordProblem(err, problem, res, deps.dependencies);
    else if (!isProblemError(err) || passedOn)
      deps.logger[problem.status >= 500 && problem.code !== 'not_ready' ? 'error' : 'warn'](
        { err, reqId: requestIdOf(req), url: loggableUrl(req.url ?? '') },
        `${step.name} failed`,
      );
    if (!passedOn) sendProblem(req, res, problem);
  });
}
