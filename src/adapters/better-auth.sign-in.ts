// Browser sign-in (hosted mode) through better-auth: GitHub and Google (and a trial's development
// provider), sessions in the HTTP-only cookie `__Secure-service.session_token`, callbacks
// restricted to APP_ORIGIN, and a personal workspace created at a user's first sign-in.
//
// All providers go through better-auth's genericOAuth plugin rather than its built-in ones: the
// built-ins hard-code their endpoints, and configurable endpoints let GitHub Enterprise installs
// and the tests (a real local OpenID provider) run the very same code path.
import { AsyncLocalStorage } from 'node:async_hooks';
import { newId } from '../lib/ids.ts';
import { betterAuth } from 'better-auth';
import { fromNodeHeaders, toNodeHandler } from 'better-auth/node';
import { genericOAuth } from 'better-auth/plugins';
import pg from 'pg';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { CreditsService } from '../services/credits.service.ts';
import type { WorkspacesRepository } from '../../db/repositories/workspaces.repository.ts';
import type { Config, SignInConfig } from '../config/config.ts';
import type { ProblemCode } from '../errors/error-registry.ts';
import { problemBody } from '../errors/problem.ts';
import type { SessionInfo, SessionReader, SignInProvider } from '../services/auth.service.ts';
import type { Clock } from '../lib/clock.ts';
import type { DependencyStatus } from '../lib/dependency-status.ts';

export const AUTH_BASE_PATH = '/v1/auth';

const AUTH_ERROR_CODES: Record<number, ProblemCode> = {
  400: 'sign_in_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  429: 'rate_limited',
};

/**
 * The library answers its errors as `{code, message}` JSON; the service answers every error as
 * problem+json from one registry. Its reason goes into `detail` (never for a 5xx, which could
 * carry internals). Redirects and successes pass through untouched.
 */
export async function authErrorAsProblem(response: Response): Promise<Response> {
  if (response.status < 400) return response;
  let reason: { code?: unknown; message?: unknown } = {};
  try {
    reason = (await response.clone().json()) as typeof reason;
  } catch {
    // An empty or non-JSON error body: the status alone says it.
  }
  const code = response.status >= 500 ? 'internal_error' : (AUTH_ERROR_CODES[response.status] ?? 'sign_in_failed');
  const detail =
    response.status >= 500 ? undefined : [reason.code, reason.message].filter((v) => typeof v === 'string' && v).join(': ') || undefined;
  const body = problemBody(code, { detail });
  const headers = new Headers(response.headers);
  headers.set('Content-Type', 'application/problem+json');
  headers.delete('Content-Length');
  return new Response(JSON.stringify(body), { status: body.status, headers });
}
/** GitHub: identity and e-mail only, never repository access. */
export const GITHUB_SCOPES = ['read:user', 'user:email'];
export const GOOGLE_SCOPES = ['openid', 'email', 'profile'];

/** better-auth's models mapped onto our tables (db/migrations/…_0003_accounts.ts) and snake_case columns. */
export const AUTH_SCHEMA = {
  user: { modelName: 'users', fields: { emailVerified: 'email_verified', createdAt: 'created_at', updatedAt: 'updated_at' } },
  session: {
    modelName: 'sessions',
    fields: {
      expiresAt: 'expires_at',
      createdAt: 'created_at',
      updatedAt: 'updated_at',
      ipAddress: 'ip_address',
      userAgent: 'user_agent',
      userId: 'user_id',
    },
  },
  account: {
    modelName: 'accounts',
    fields: {
      accountId: 'account_id',
      providerId: 'provider_id',
      userId: 'user_id',
      accessToken: 'access_token',
      refreshToken: 'refresh_token',
      idToken: 'id_token',
      accessTokenExpiresAt: 'access_token_expires_at',
      refreshTokenExpiresAt: 'refresh_token_expires_at',
      createdAt: 'created_at',
      updatedAt: 'updated_at',
    },
  },
  verification: { modelName: 'verifications', fields: { expiresAt: 'expires_at', createdAt: 'created_at', updatedAt: 'updated_at' } },
} as const;

interface GitHubTokens {
  accessToken?: string;
}

/** GitHub is OAuth 2 without OpenID: the profile comes from /user, a private e-mail from /user/emails. */
function githubUserInfo(apiUrl: string) {
  return async (tokens: GitHubTokens) => {
    const headers = {
      authorization: `Bearer ${tokens.accessToken}`,
      accept: 'application/vnd.github+json',
      'user-agent': 'render-service',
    };
    const res = await fetch(`${apiUrl}/user`, { headers, redirect: 'error', signal: AbortSignal.timeout(10_000) });
    if (!res.ok) return null;
    const profile = (await res.json()) as {
      id?: number | string;
      login?: string;
      name?: string | null;
      email?: string | null;
      avatar_url?: string | null;
    };
    let email = profile.email ?? null;
    let emailVerified = false;
    const emailsRes = await fetch(`${apiUrl}/user/emails`, { headers, redirect: 'error', signal: AbortSignal.timeout(10_000) });
    if (emailsRes.ok) {
      const emails = (await emailsRes.json()) as Array<{ email: string; primary: boolean; verified: boolean }>;
      const chosen =
        (email ? emails.find((e) => e.email === email) : undefined) ??
        emails.find((e) => e.primary && e.verified) ??
        emails.find((e) => e.primary);
      if (chosen) {
        email = chosen.email;
        emailVerified = chosen.verified;
      }
    }
    if (profile.id === undefined || !email) return null;
    return {
      id: String(profile.id),
      name: profile.name || profile.login || '',
      email,
      emailVerified,
      image: profile.avatar_url ?? undefined,
    };
  };
}

export interface SignInDeps {
  config: Pick<Config, 'appOrigin' | 'database' | 'signupCredits'> & { signIn: SignInConfig };
  workspaces: WorkspacesRepository;
  /** Credits granted to a new personal workspace (SIGNUP_CREDITS) are a ledger entry. */
  credits: Pick<CreditsService, 'add'>;
  clock: Clock;
  logger: Logger;
  /** Told when the library's own connections fail because the database is away. */
  dependencies?: DependencyStatus;
}

type LibraryLevel = 'info' | 'warn' | 'error' | 'debug';
interface LibraryLine {
  level: LibraryLevel;
  message: string;
}

/**
 * The library's log lines during one request, held until its answer says whose they are: the
 * library logs a client's mistake (a foreign callbackURL, an unknown provider) at error level
 * before it answers 403 or 404. Lines written outside a request are logged at once.
 */
const requestLines = new AsyncLocalStorage<LibraryLine[]>();

/**
 * The level a line of the library deserves once its request is answered `status`: a 4xx is the
 * client's mistake, worth an info line (the request's own line is the warning), never an error;
 * anything else keeps the library's level. Undefined status: the request failed (thrown).
 */
export function libraryLineLevel(level: LibraryLevel, status: number | undefined): LibraryLevel {
  if (status !== undefined && status >= 400 && status < 500 && (level === 'warn' || level === 'error')) return 'info';
  return level;
}

export interface SignIn {
  /** The library's routes under /v1/auth; mount before any body parser. */
  handler: RequestHandler;
  sessions: SessionReader;
  providers: SignInProvider[];
  close(): Promise<void>;
}

function newWorkspaceId(): string {
  return newId('ws');
}

export function createSignIn({ config, workspaces, credits, clock, logger, dependencies }: SignInDeps): SignIn {
  if (config.database.client !== 'pg') throw new Error('Browser sign-in runs in hosted mode, on Postgres');
  const { signIn } = config;
  const pool = new pg.Pool({ connectionString: config.database.url, max: 5 });
  // An idle connection the server dropped (a restart): the pool replaces it; unheard, the event would end the process.
  pool.on('error', (err) => {
    if (!dependencies?.noteFailure(err)) logger.warn({ err, component: 'sign-in' }, 'sign-in database connection failed');
  });
  const libraryLog = (level: LibraryLevel, message: string) => logger[level]({ component: 'sign-in' }, message);
  /** Runs `work` with the library's lines held, then writes them at the level its outcome gives them. */
  const scoped = async <T>(work: () => Promise<T>, statusOf: (value: T) => number): Promise<T> => {
    const held: LibraryLine[] = [];
    let status: number | undefined;
    let outage = false;
    try {
      const value = await requestLines.run(held, work);
      status = statusOf(value);
      return value;
    } catch (err) {
      // The database went away meanwhile: its outage is logged once (DependencyStatus), the library's lines at debug.
      outage = dependencies?.noteFailure(err) !== undefined;
      throw err;
    } finally {
      for (const line of held) libraryLog(outage ? 'debug' : libraryLineLevel(line.level, status), line.message);
    }
  };

  const personalWorkspace = async (user: { id: string; name?: string | null; email?: string | null }) => {
    const workspace = await workspaces.ensurePersonal(user.id, {
      id: newWorkspaceId(),
      name: `${user.name || user.email || 'Personal'}'s workspace`,
      createdAt: clock.now(),
    });
    // Once per workspace whatever races: the entry's id is the workspace's.
    if (config.signupCredits > 0)
      await credits.add({
        id: `grant_signup_${workspace.id}`,
        workspaceId: workspace.id,
        kind: 'grant',
        amount: config.signupCredits,
        reference: 'sign-up',
        description: 'Credits granted at sign-up (SIGNUP_CREDITS)',
      });
    return workspace;
  };

  const oauth = [
    ...(signIn.github
      ? [
          {
            providerId: 'github',
            clientId: signIn.github.clientId,
            clientSecret: signIn.github.clientSecret,
            authorizationUrl: `${signIn.github.oauthUrl}/login/oauth/authorize`,
            tokenUrl: `${signIn.github.oauthUrl}/login/oauth/access_token`,
            userInfoUrl: `${signIn.github.apiUrl}/user`,
            scopes: GITHUB_SCOPES,
            pkce: true,
            getUserInfo: githubUserInfo(signIn.github.apiUrl),
          },
        ]
      : []),
    ...(signIn.google
      ? [
          {
            providerId: 'google',
            clientId: signIn.google.clientId,
            clientSecret: signIn.google.clientSecret,
            // Discovery gives the issuer and keys, so the id_token is verified.
            discoveryUrl: signIn.google.discoveryUrl,
            scopes: GOOGLE_SCOPES,
            pkce: true,
            requireIdTokenVerification: true,
          },
        ]
      : []),
    // A trial's own OpenID provider on this machine (config allows it with a loopback APP_ORIGIN only).
    ...(signIn.dev
      ? [
          {
            providerId: 'dev',
            clientId: signIn.dev.clientId,
            clientSecret: signIn.dev.clientSecret,
            discoveryUrl: signIn.dev.discoveryUrl,
            scopes: GOOGLE_SCOPES,
            pkce: true,
            requireIdTokenVerification: true,
          },
        ]
      : []),
  ];

  const auth = betterAuth({
    appName: 'render-service',
    baseURL: signIn.publicUrl,
    basePath: AUTH_BASE_PATH,
    secret: signIn.secret,
    database: pool,
    // Callback destinations: APP_ORIGIN only (better-auth also trusts baseURL's own origin).
    trustedOrigins: [config.appOrigin],
    telemetry: { enabled: false },
    // The service limits /v1/auth per client address itself (RATE_LIMIT_SIGN_IN_PER_MINUTE, shared
    // by every process on Postgres); the library's own limiter counts in memory and by headers.
    rateLimit: { enabled: false },
    // Into our JSON log, message only: the library's extra arguments can hold tokens. Lines written
    // while a request runs wait for its answer (requestLines).
    logger: {
      level: 'warn',
      log: (level: LibraryLevel, message: string) => {
        const held = requestLines.getStore();
        if (held) held.push({ level, message });
        else libraryLog(level, message);
      },
    },
    ...AUTH_SCHEMA,
    account: { ...AUTH_SCHEMA.account, encryptOAuthTokens: true },
    emailAndPassword: { enabled: false },
    plugins: [genericOAuth({ config: oauth as never })],
    // Errors land on the web app (never the library's HTML error page). Its refusals become answers
    // without the library logging them again (on the console, outside any request); anything else it
    // throws reaches the service's own error handling — a problem+json 503 while the database is away.
    onAPIError: { errorURL: `${config.appOrigin}/`, throw: true },
    advanced: {
      // cookiePrefix + useSecureCookies give exactly `__Secure-service.session_token`.
      cookiePrefix: 'service',
      useSecureCookies: true,
      defaultCookieAttributes: { httpOnly: true, secure: true, sameSite: 'lax', path: '/' },
      // better-auth skips origin and callbackURL checks when NODE_ENV=test; never let it.
      disableOriginCheck: false,
    },
    databaseHooks: {
      user: {
        create: {
          after: async (user) => {
            await personalWorkspace(user);
          },
        },
      },
    },
  });

  const sessions: SessionReader = {
    async read(headers): Promise<SessionInfo | null> {
      const found = await scoped(
        () => auth.api.getSession({ headers: fromNodeHeaders(headers) }),
        () => 200,
      );
      if (!found) return null;
      const { user, session } = found;
      // The hook normally made it; this covers a hook that failed after the user row committed.
      const workspace = (await workspaces.findByOwner(user.id)) ?? (await personalWorkspace(user));
      return {
        user: { id: user.id, name: user.name ?? null, email: user.email ?? null, image: user.image ?? null },
        workspaceId: workspace.id,
        expiresAt: new Date(session.expiresAt).getTime(),
      };
    },
  };

  const providers: SignInProvider[] = [
    ...(signIn.github ? [{ id: 'github' as const, name: 'GitHub', signInUrl: `${signIn.publicUrl}${AUTH_BASE_PATH}/sign-in/social` }] : []),
    ...(signIn.google ? [{ id: 'google' as const, name: 'Google', signInUrl: `${signIn.publicUrl}${AUTH_BASE_PATH}/sign-in/social` }] : []),
    ...(signIn.dev
      ? [{ id: 'dev' as const, name: 'Development sign-in', signInUrl: `${signIn.publicUrl}${AUTH_BASE_PATH}/sign-in/social` }]
      : []),
  ];

  return {
    handler: toNodeHandler({
      handler: async (request: Request) =>
        authErrorAsProblem(
          await scoped(
            () => auth.handler(request),
            (response) => response.status,
          ),
        ),
    }) as unknown as RequestHandler,
    sessions,
    providers,
    close: () => pool.end(),
  };
}
