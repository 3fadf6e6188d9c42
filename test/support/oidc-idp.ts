// A real local OpenID provider (the `oidc-provider` package) standing in for GitHub and Google,
// so the sign-in library's own redirect, state, PKCE, token and cookie flow runs for real.
// GitHub's paths are configured on it (/login/oauth/authorize, /login/oauth/access_token) and it
// serves GitHub-shaped /user and /user/emails backed by its access tokens; Google is plain OIDC
// through discovery.
import http from 'node:http';
import { DEVELOPMENT_TTL } from '../../scripts/dev-identity-provider.ts';
import Provider from 'oidc-provider';
import { listenOnLoopback } from './black-box/listen.ts';

export interface TestAccount {
  id: number;
  login: string;
  name: string;
  email: string;
}

/** Any login typed at the provider is a user; the id is stable per login. */
export function testAccount(login: string): TestAccount {
  const id = [...login].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) % 1e9, 7);
  return { id, login, name: `Test ${login}`, email: `${login}@example.test` };
}

export interface TestIdp {
  issuer: string;
  /** Environment that points the service's providers at this stand-in. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startTestIdp(redirectBase: string): Promise<TestIdp> {
  const server = http.createServer();
  const issuer = `http://127.0.0.1:${await listenOnLoopback(server)}`;
  const clients = ['github', 'google'].map((id) => ({
    client_id: `${id}-client`,
    client_secret: `${id}-secret-for-tests`,
    redirect_uris: [`${redirectBase}/v1/auth/callback/${id}`],
    token_endpoint_auth_method: 'client_secret_post' as const,
    grant_types: ['authorization_code'],
    response_types: ['code' as const],
  }));
  const provider = new Provider(issuer, {
    clients,
    routes: { authorization: '/login/oauth/authorize', token: '/login/oauth/access_token' },
    scopes: ['openid', 'offline_access', 'read:user', 'user:email', 'repo'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
    findAccount: async (_ctx, id) => {
      const a = testAccount(id);
      return {
        accountId: id,
        claims: async () => ({ sub: id, email: a.email, email_verified: true, name: a.name, preferred_username: a.login }),
      };
    },
    // HTML login and consent forms that accept any login: driven with fetch below.
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    cookies: { keys: ['test-idp-cookie-key'] },
    // Stated, as the trial's provider does: no console NOTICE per default lifetime.
    ttl: DEVELOPMENT_TTL,
  });
  provider.use(async (ctx, next) => {
    if (ctx.path !== '/user' && ctx.path !== '/user/emails') return next();
    const token = (ctx.get('authorization') || '').replace(/^Bearer /i, '');
    const at = token ? await provider.AccessToken.find(token) : undefined;
    if (!at) {
      ctx.status = 401;
      ctx.body = { message: 'Bad credentials' };
      return;
    }
    const a = testAccount(at.accountId);
    if (ctx.path === '/user') ctx.body = { id: a.id, login: a.login, name: a.name, email: null, avatar_url: null };
    else if (!at.scopes.has('user:email')) {
      ctx.status = 404;
      ctx.body = { message: 'Not Found' };
    } else ctx.body = [{ email: a.email, primary: true, verified: true, visibility: 'private' }];
  });
  server.on('request', provider.callback());
  return {
    issuer,
    env: {
      GITHUB_CLIENT_ID: 'github-client',
      GITHUB_CLIENT_SECRET: 'github-secret-for-tests',
      GITHUB_OAUTH_URL: issuer,
      GITHUB_API_URL: issuer,
      GOOGLE_CLIENT_ID: 'google-client',
      GOOGLE_CLIENT_SECRET: 'google-secret-for-tests',
      GOOGLE_DISCOVERY_URL: `${issuer}/.well-known/openid-configuration`,
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A cookie jar that forwards Set-Cookie values itself, ignoring Secure so __Secure- cookies travel over http. */
export class CookieJar {
  private readonly cookies = new Map<string, { name: string; value: string; path: string; raw: string }>();

  store(res: Response): void {
    for (const raw of res.headers.getSetCookie()) {
      const [pair, ...attrs] = raw.split(';').map((s) => s.trim());
      const i = pair.indexOf('=');
      const name = pair.slice(0, i);
      const value = pair.slice(i + 1);
      const a = Object.fromEntries(
        attrs.map((x) => {
          const j = x.indexOf('=');
          return j < 0 ? [x.toLowerCase(), 'true'] : [x.slice(0, j).toLowerCase(), x.slice(j + 1)];
        }),
      );
      const path = a.path || '/';
      const expired = value === '' || Number(a['max-age']) <= 0 || (a.expires !== undefined && Date.parse(a.expires) < Date.now());
      if (expired) this.cookies.delete(`${name}|${path}`);
      else this.cookies.set(`${name}|${path}`, { name, value, path, raw });
    }
  }

  get(name: string) {
    return [...this.cookies.values()].find((c) => c.name === name);
  }

  header(url: string): string {
    const p = new URL(url).pathname;
    return [...this.cookies.values()]
      .filter((c) => p.startsWith(c.path))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }
}

/** Walks the provider's login and consent forms until it redirects back to the service. */
export async function driveIdp(idp: TestIdp, startUrl: string, login: string): Promise<string> {
  const jar = new CookieJar();
  let url = startUrl;
  let method = 'GET';
  let body: string | undefined;
  for (let hop = 0; hop < 20; hop++) {
    const res = await fetch(url, {
      method,
      body,
      redirect: 'manual',
      headers: { cookie: jar.header(url), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    });
    jar.store(res);
    if (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location')!, url);
      if (next.origin !== idp.issuer) return next.href;
      url = next.href;
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`identity provider answered ${res.status}: ${html.slice(0, 300)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`no interaction form in: ${html.slice(0, 300)}`);
    url = new URL(action.replace(/&amp;/g, '&'), url).href;
    method = 'POST';
    body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt }).toString();
  }
  throw new Error('too many hops at the identity provider');
}

/** Signs `login` in through the service at `api` and this stand-in provider; returns the session cookie (`name=value`). */
export async function signInThroughIdp(api: string, idp: TestIdp, login: string, appOrigin: string, cookieName: string): Promise<string> {
  const jar = new CookieJar();
  const started = await fetch(`${api}/v1/auth/sign-in/social`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: appOrigin },
    body: JSON.stringify({ provider: 'github', callbackURL: `${appOrigin}/app` }),
  });
  jar.store(started);
  const { url } = (await started.json()) as { url: string };
  const back = await driveIdp(idp, url, login);
  jar.store(await fetch(back, { headers: { cookie: jar.header(back) }, redirect: 'manual' }));
  const cookie = jar.get(cookieName);
  if (!cookie) throw new Error(`signing ${login} in gave no ${cookieName} cookie`);
  return `${cookieName}=${cookie.value}`;
}
