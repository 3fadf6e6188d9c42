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
      }),
  );
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
