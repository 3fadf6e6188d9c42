// Who may call the service: the local workspace's API_KEYS (local mode), browser sign-in through
// OAuth providers (hosted mode), and the credits a new workspace starts with.
import { isLoopbackHost, isLoopbackUrl, secureUrl } from './addresses.ts';
import type { EnvReader } from './env-reader.ts';

export interface OAuthClient {
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface SignInConfig {
  /** Signs session and state cookies; at least 32 characters. Empty in local mode. */
  readonly secret: string;
  /** Public origin of this API; OAuth callbacks arrive at `<publicUrl>/v1/auth/callback/<provider>`. */
  readonly publicUrl: string;
  readonly github: (OAuthClient & { readonly oauthUrl: string; readonly apiUrl: string }) | null;
  readonly google: (OAuthClient & { readonly discoveryUrl: string }) | null;
  /**
   * A development OpenID provider on this machine (DEV_SIGN_IN_*), offered as "Development sign-in".
   * Only with a loopback APP_ORIGIN: `npm run trial` starts one; a real deployment refuses it.
   */
  readonly dev: (OAuthClient & { readonly discoveryUrl: string }) | null;
}

export interface AuthConfig {
  /** Bearer keys of the local workspace (local mode only; never authenticate a hosted customer). */
  readonly apiKeys: readonly string[];
  /** Browser sign-in (hosted mode): the library's secret, the public API origin and the providers. */
  readonly signIn: SignInConfig;
  /** Credits granted to each new personal workspace at its first sign-in (hosted mode), as a ledger entry. */
  readonly signupCredits: number;
}

/** `appOrigin` and `host` as the server settings resolved them: development sign-in must stay on this machine. */
export function parseAuth(read: EnvReader, server: { localMode: boolean; appOrigin: string; host: string }): AuthConfig {
  const { int, list, problems } = read;
  const apiKeys = list('API_KEYS');
  // Silently ignoring them would leave an operator believing they work (or that they are revoked).
  if (!server.localMode && apiKeys.length > 0)
    problems.push(
      'API_KEYS is for local mode only; hosted mode (SERVICE_LOCAL_MODE=0) refuses it: create workspace keys with POST /v1/keys',
    );
  for (const key of apiKeys) {
    if (key.length < 16) problems.push('API_KEYS entries must be at least 16 characters long');
    if (/\s/.test(key)) problems.push('API_KEYS entries must not contain white space');
  }
  return {
    apiKeys,
    signIn: parseSignIn(read, server),
    signupCredits: int('SIGNUP_CREDITS', 0, 0, 1_000_000),
  };
}

function parseSignIn(
  { str, problems }: EnvReader,
  { localMode, appOrigin, host }: { localMode: boolean; appOrigin: string; host: string },
): SignInConfig {
  const client = (provider: 'GITHUB' | 'GOOGLE' | 'DEV_SIGN_IN'): OAuthClient | null => {
    const clientId = str(`${provider}_CLIENT_ID`);
    const clientSecret = str(`${provider}_CLIENT_SECRET`);
    if (clientId === undefined && clientSecret === undefined) return null;
    if (clientId === undefined || clientSecret === undefined) {
      problems.push(`${provider}_CLIENT_ID and ${provider}_CLIENT_SECRET must be set together`);
      return null;
    }
    return { clientId, clientSecret };
  };
  const github = client('GITHUB');
  const google = client('GOOGLE');
  const devClient = client('DEV_SIGN_IN');
  const devDiscoveryUrl = str('DEV_SIGN_IN_DISCOVERY_URL');
  let dev: SignInConfig['dev'] = null;
  if (devClient !== null || devDiscoveryUrl !== undefined) {
    // A provider that signs anyone in as anyone: never reachable from a real deployment.
    if (localMode) problems.push('DEV_SIGN_IN_* is for hosted mode (SERVICE_LOCAL_MODE=0); local mode has no sign-in');
    // Browsers keep Secure cookies for http://localhost, which is how a trial on one machine signs in.
    else if (!isLoopbackUrl(appOrigin))
      problems.push(
        `DEV_SIGN_IN_* (development sign-in) only works when APP_ORIGIN is a loopback origin such as http://localhost:8080 (got "${appOrigin}")`,
      );
    // Nor may the service that offers it listen on, or advertise, an address others reach.
    if (!localMode && !isLoopbackHost(host))
      problems.push(`DEV_SIGN_IN_* (development sign-in) needs HOST to be a loopback address such as 127.0.0.1 (got "${host}")`);
    const publicUrl = str('PUBLIC_URL');
    if (!localMode && publicUrl !== undefined && !isLoopbackUrl(publicUrl))
      problems.push(`DEV_SIGN_IN_* (development sign-in) needs PUBLIC_URL, when set, to be a loopback URL (got "${publicUrl}")`);
    if (devClient === null || devDiscoveryUrl === undefined)
      problems.push('DEV_SIGN_IN_CLIENT_ID, DEV_SIGN_IN_CLIENT_SECRET and DEV_SIGN_IN_DISCOVERY_URL must be set together');
    else {
      if (!isLoopbackUrl(devDiscoveryUrl)) problems.push(`DEV_SIGN_IN_DISCOVERY_URL must be on a loopback host (got "${devDiscoveryUrl}")`);
      else dev = { ...devClient, discoveryUrl: secureUrl('DEV_SIGN_IN_DISCOVERY_URL', devDiscoveryUrl, problems) };
    }
  }
  const secret = str('AUTH_SECRET') ?? '';
  if (!localMode && secret.length < 32)
    problems.push('AUTH_SECRET must be set to at least 32 random characters in hosted mode (it signs session cookies)');
  const publicUrlRaw = str('PUBLIC_URL');
  const publicUrl = publicUrlRaw !== undefined ? secureUrl('PUBLIC_URL', publicUrlRaw, problems) : appOrigin;
  return {
    secret,
    publicUrl,
    // GitHub Enterprise Server installs (and tests) point these elsewhere.
    github: github && {
      ...github,
      oauthUrl: secureUrl('GITHUB_OAUTH_URL', str('GITHUB_OAUTH_URL') ?? 'https://github.com', problems),
      apiUrl: secureUrl('GITHUB_API_URL', str('GITHUB_API_URL') ?? 'https://api.github.com', problems),
    },
    google: google && {
      ...google,
      discoveryUrl: secureUrl(
        'GOOGLE_DISCOVERY_URL',
        str('GOOGLE_DISCOVERY_URL') ?? 'https://accounts.google.com/.well-known/openid-configuration',
        problems,
      ),
    },
    dev,
  };
}
