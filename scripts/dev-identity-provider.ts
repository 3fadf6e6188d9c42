// The development sign-in of a trial on one machine (`npm run trial`): a real OpenID provider (the
// `oidc-provider` package, a development dependency) on a loopback port, whose login form accepts
// any name. The service reaches it through DEV_SIGN_IN_* settings, which it refuses unless
// APP_ORIGIN is a loopback origin — so this can never sign anyone into a real deployment.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import Provider from 'oidc-provider';

export interface DevIdentityProvider {
  issuer: string;
  /** The settings that point the service at this provider. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Any name typed at the login form is a user: `name`, e-mail `<name>@trial.localhost`, stable per name. */
function account(login: string) {
  const name = login.trim() || 'trial';
  const local = name.toLowerCase().replace(/[^a-z0-9._-]+/g, '-') || 'trial';
  return { name, email: `${local}@trial.localhost` };
}

/**
 * Every artifact's lifetime, stated: oidc-provider prints a console NOTICE (“you SHOULD change it”)
 * the first time each default lifetime function runs during a sign-in. Seconds.
 */
export const DEVELOPMENT_TTL = {
  AccessToken: 60 * 60,
  AuthorizationCode: 60,
  IdToken: 60 * 60,
  Interaction: 60 * 60,
  Session: 24 * 60 * 60,
  Grant: 24 * 60 * 60,
};

const OUTSIDE_FONTS = /@import url\(https:\/\/fonts\.googleapis\.com[^)]*\);?/g;
/** The provider's pages use this machine's fonts and load nothing from anywhere else. */
export const DEVELOPMENT_PAGE_CSP = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:";

/**
 * A middleware (koa's, as oidc-provider takes) that removes what the package's development pages
 * would load from outside — its login and consent forms import Google Fonts — and forbids the rest
 * with a Content-Security-Policy: offline, the import is a console error; online, a request to a
 * third party from a page of ours.
 */
export async function selfContainedPages(
  ctx: { body: unknown; response: { is(type: string): string | false }; set(name: string, value: string): void },
  next: () => Promise<unknown>,
): Promise<void> {
  await next();
  if (typeof ctx.body !== 'string' || !ctx.response.is('html')) return;
  ctx.body = ctx.body.replace(OUTSIDE_FONTS, '');
  ctx.set('Content-Security-Policy', DEVELOPMENT_PAGE_CSP);
}

/** Runs `create` with oidc-provider's development-only console warnings left out (others still print). */
function withoutDevelopmentWarnings<T>(create: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!(typeof args[0] === 'string' && /oidc-provider WARNING: .*development/.test(args[0]))) warn(...args);
  };
  try {
    return create();
  } finally {
    console.warn = warn;
  }
}

export async function startDevIdentityProvider(appOrigin: string): Promise<DevIdentityProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  const issuer = `http://127.0.0.1:${port}`;
  const clientSecret = randomBytes(24).toString('base64url');
  // oidc-provider warns on the console that its in-memory store, signing keys and login forms are
  // for development only: that is this provider's whole purpose (the trial's banner says so), and
  // the trial promises a terminal with errors only.
  const provider = withoutDevelopmentWarnings(
    () =>
      new Provider(issuer, {
        clients: [
          {
            client_id: 'render-service-trial',
            client_secret: clientSecret,
            redirect_uris: [`${appOrigin}/v1/auth/callback/dev`],
            token_endpoint_auth_method: 'client_secret_post',
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        findAccount: async (_ctx, id) => ({
          accountId: id,
          claims: async () => {
            const a = account(id);
            return { sub: id, name: a.name, email: a.email, email_verified: true };
          },
        }),
        // The package's own development login and consent forms: any login, the password is ignored.
        features: { devInteractions: { enabled: true } },
        pkce: { required: () => true },
        cookies: { keys: [randomBytes(24).toString('base64url')] },
        ttl: DEVELOPMENT_TTL,
      }),
  );
  provider.use(selfContainedPages);
  server.on('request', provider.callback());
  return {
    issuer,
    env: {
      DEV_SIGN_IN_CLIENT_ID: 'render-service-trial',
      DEV_SIGN_IN_CLIENT_SECRET: clientSecret,
      DEV_SIGN_IN_DISCOVERY_URL: `${issuer}/.well-known/openid-configuration`,
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
