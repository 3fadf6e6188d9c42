import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

test('defaults: local mode on SQLite under DATA_DIR, loopback, port 8080', () => {
  const config = loadConfig({}, '/srv/app');
  assert.equal(config.localMode, true);
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.port, 8080);
  assert.deepEqual(config.database, { client: 'sqlite', filename: path.join('/srv/app/data', 'service.sqlite') });
  assert.equal(config.appOrigin, 'http://127.0.0.1:8080');
  assert.deepEqual(config.allowedOrigins, ['http://127.0.0.1:8080']);
  assert.equal(config.logLevel, 'info');
});

test('the config is frozen all the way down', () => {
  const config = loadConfig({ API_KEYS: 'aaaaaaaaaaaaaaaa,bbbbbbbbbbbbbbbb' });
  assert.ok(Object.isFrozen(config));
  assert.ok(Object.isFrozen(config.apiKeys));
  assert.ok(Object.isFrozen(config.database));
  assert.throws(() => ((config as { port: number }).port = 1));
});

test('DATABASE_URL selects Postgres and, without SERVICE_LOCAL_MODE, hosted mode', () => {
  const config = loadConfig({ DATABASE_URL: 'postgres://u:p@db/x', APP_ORIGIN: 'https://app.example.com', AUTH_SECRET: 'a'.repeat(32) });
  assert.equal(config.localMode, false);
  assert.equal(config.localGateway, false);
  assert.deepEqual(config.database, { client: 'pg', url: 'postgres://u:p@db/x' });
  const local = loadConfig({ DATABASE_URL: 'postgres://u:p@db/x', SERVICE_LOCAL_MODE: '1' });
  assert.equal(local.localMode, true);
});

test('every invalid setting is reported together', () => {
  let error: unknown;
  try {
    loadConfig({
      PORT: 'eighty',
      SERVICE_LOCAL_MODE: 'maybe',
      DATABASE_URL: 'mysql://x',
      API_KEYS: 'short',
      ALLOWED_ORIGINS: '*,https://ok.example.com,not an origin',
      LOG_LEVEL: 'loud',
      WEBHOOK_ALLOWED_HOSTS: 'hooks.example.com,bad host!',
    });
  } catch (err) {
    error = err;
  }
  assert.ok(error instanceof ConfigError);
  const text = error.problems.join('\n');
  for (const name of [
    'PORT',
    'SERVICE_LOCAL_MODE',
    'DATABASE_URL',
    'API_KEYS',
    'ALLOWED_ORIGINS must list explicit origins',
    'ALLOWED_ORIGINS entries',
    'LOG_LEVEL',
    'WEBHOOK_ALLOWED_HOSTS',
  ]) {
    assert.ok(text.includes(name), `reports ${name}:\n${text}`);
  }
  assert.ok(error.problems.length >= 8);
});

test('hosted mode requires Postgres and an https APP_ORIGIN', () => {
  assert.throws(
    () => loadConfig({ SERVICE_LOCAL_MODE: '0' }),
    (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      assert.ok(err.problems.some((p) => p.startsWith('DATABASE_URL is required')));
      assert.ok(err.problems.some((p) => p.startsWith('APP_ORIGIN is required')));
      return true;
    },
  );
  assert.throws(() => loadConfig({ DATABASE_URL: 'postgres://x/y', APP_ORIGIN: 'http://app.example.com' }), /must be https/);
});

test('lists are trimmed and origins normalised', () => {
  const config = loadConfig({
    ALLOWED_ORIGINS: ' https://a.example.com/ , https://b.example.com',
    WEBHOOK_ALLOWED_HOSTS: 'Hooks.Example.com, ',
  });
  assert.deepEqual(config.allowedOrigins, ['http://127.0.0.1:8080', 'https://a.example.com', 'https://b.example.com']);
  assert.deepEqual(config.webhookAllowedHosts, ['hooks.example.com']);
});

test('sign-in settings: secret required in hosted mode, client pairs, https endpoints', () => {
  const hosted = { DATABASE_URL: 'postgres://x/y', APP_ORIGIN: 'https://app.example.com' };
  assert.throws(() => loadConfig({ ...hosted, AUTH_SECRET: 'too-short' }), /AUTH_SECRET/);
  assert.throws(
    () =>
      loadConfig({
        ...hosted,
        AUTH_SECRET: 'a'.repeat(32),
        GITHUB_CLIENT_ID: 'id',
        GOOGLE_CLIENT_SECRET: 's',
        GITHUB_API_URL: 'http://api.example.com',
      }),
    (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      const text = err.problems.join('\n');
      assert.match(text, /GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET must be set together/);
      assert.match(text, /GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together/);
      return true;
    },
  );
  const config = loadConfig({
    ...hosted,
    AUTH_SECRET: 'a'.repeat(32),
    GITHUB_CLIENT_ID: 'id',
    GITHUB_CLIENT_SECRET: 'secret',
    PUBLIC_URL: 'https://api.example.com/',
  });
  assert.equal(config.signIn.publicUrl, 'https://api.example.com');
  assert.deepEqual(config.signIn.github, {
    clientId: 'id',
    clientSecret: 'secret',
    oauthUrl: 'https://github.com',
    apiUrl: 'https://api.github.com',
  });
  assert.equal(config.signIn.google, null);
  assert.throws(
    () =>
      loadConfig({
        ...hosted,
        AUTH_SECRET: 'a'.repeat(32),
        GITHUB_CLIENT_ID: 'id',
        GITHUB_CLIENT_SECRET: 's',
        GITHUB_OAUTH_URL: 'http://github.example.com',
      }),
    /GITHUB_OAUTH_URL must be an https URL/,
  );
  // Loopback http is allowed (a local stand-in provider).
  assert.equal(
    loadConfig({ ...hosted, AUTH_SECRET: 'a'.repeat(32), PUBLIC_URL: 'http://127.0.0.1:9000' }).signIn.publicUrl,
    'http://127.0.0.1:9000',
  );
});

test('the local gateway is on only for local mode on a loopback HOST', () => {
  assert.equal(loadConfig({}).localGateway, true);
  assert.equal(loadConfig({ HOST: 'localhost' }).localGateway, true);
  assert.equal(loadConfig({ HOST: '0.0.0.0' }).localGateway, false);
  assert.equal(loadConfig({ HOST: '192.168.1.10' }).localGateway, false);
});

test('TRUST_PROXY: off by default; a hop count; addresses, CIDRs and named ranges; anything else is refused', () => {
  assert.equal(loadConfig({}, '/srv').trustProxy, false);
  assert.equal(loadConfig({ TRUST_PROXY: '0' }, '/srv').trustProxy, false);
  assert.equal(loadConfig({ TRUST_PROXY: '2' }, '/srv').trustProxy, 2);
  assert.deepEqual(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::1' }, '/srv').trustProxy, ['loopback', '10.0.0.0/8', 'fd00::1']);
  assert.throws(
    () => loadConfig({ TRUST_PROXY: 'everyone' }, '/srv'),
    (err: ConfigError) => err.problems.some((p) => p.startsWith('TRUST_PROXY')),
  );
  assert.equal(loadConfig({}, '/srv').rateLimit.unauthenticatedPerMinute, 60);
});

test('RATE_LIMIT_SIGN_IN_PER_MINUTE: 30 by default, 0 turns it off, anything else is refused', () => {
  assert.equal(loadConfig({}, '/srv').rateLimit.signInPerMinute, 30);
  assert.equal(loadConfig({ RATE_LIMIT_SIGN_IN_PER_MINUTE: '0' }, '/srv').rateLimit.signInPerMinute, 0);
  assert.throws(
    () => loadConfig({ RATE_LIMIT_SIGN_IN_PER_MINUTE: 'lots' }, '/srv'),
    (err: ConfigError) => err.problems.some((p) => p.startsWith('RATE_LIMIT_SIGN_IN_PER_MINUTE')),
  );
});

test('hosted mode refuses API_KEYS (reported with the other problems); local mode takes them', () => {
  const hosted = { DATABASE_URL: 'postgres://x/y', APP_ORIGIN: 'https://app.example.com', AUTH_SECRET: 'a'.repeat(32) };
  assert.throws(
    () => loadConfig({ ...hosted, API_KEYS: 'aaaaaaaaaaaaaaaa', LOG_LEVEL: 'loud' }),
    (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      assert.ok(
        err.problems.some((p) => p.startsWith('API_KEYS is for local mode only')),
        err.message,
      );
      assert.ok(
        err.problems.some((p) => p.startsWith('LOG_LEVEL')),
        err.message,
      );
      return true;
    },
  );
  assert.equal(loadConfig(hosted).apiKeys.length, 0);
  assert.deepEqual(loadConfig({ API_KEYS: 'aaaaaaaaaaaaaaaa' }).apiKeys, ['aaaaaaaaaaaaaaaa']);
  assert.deepEqual(loadConfig({ ...hosted, SERVICE_LOCAL_MODE: '1', API_KEYS: 'aaaaaaaaaaaaaaaa' }).apiKeys, ['aaaaaaaaaaaaaaaa']);
});

test('request deadlines: headers 10 s and body 30 s by default; both settable; nonsense is refused', () => {
  assert.deepEqual(loadConfig({}, '/srv').requestTimeouts, { headersMs: 10_000, bodyMs: 30_000 });
  assert.deepEqual(loadConfig({ REQUEST_HEADERS_TIMEOUT_MS: '2000', REQUEST_BODY_TIMEOUT_MS: '5000' }, '/srv').requestTimeouts, {
    headersMs: 2_000,
    bodyMs: 5_000,
  });
  assert.throws(
    () => loadConfig({ REQUEST_HEADERS_TIMEOUT_MS: '0', REQUEST_BODY_TIMEOUT_MS: 'soon' }, '/srv'),
    (err: ConfigError) =>
      ['REQUEST_HEADERS_TIMEOUT_MS', 'REQUEST_BODY_TIMEOUT_MS'].every((name) => err.problems.some((p) => p.startsWith(name))),
  );
});

test('resource bounds: event streams per workspace and render pixels in flight (default: every worker holds a largest frame)', () => {
  const defaults = loadConfig({ RENDER_WORKERS: '3' });
  assert.equal(defaults.jobs.eventStreamsPerWorkspace, 20);
  assert.equal(defaults.render.maxPixelsInFlight, 3 * 40_000_000);
  const set = loadConfig({ EVENT_STREAMS_PER_WORKSPACE: '5', RENDER_MAX_PIXELS_IN_FLIGHT: '50000000' });
  assert.equal(set.jobs.eventStreamsPerWorkspace, 5);
  assert.equal(set.render.maxPixelsInFlight, 50_000_000);
  assert.throws(
    () => loadConfig({ EVENT_STREAMS_PER_WORKSPACE: '0', RENDER_MAX_PIXELS_IN_FLIGHT: 'lots' }),
    (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      assert.ok(err.problems.some((p) => p.startsWith('EVENT_STREAMS_PER_WORKSPACE')));
      assert.ok(err.problems.some((p) => p.startsWith('RENDER_MAX_PIXELS_IN_FLIGHT')));
      return true;
    },
  );
});

test('metrics: off by default; METRICS_PORT turns them on at loopback; another host needs METRICS_TOKEN; SIGNUP_CREDITS defaults to 0', () => {
  assert.equal(loadConfig({}).metrics, null);
  assert.equal(loadConfig({}).signupCredits, 0);
  assert.deepEqual(loadConfig({ METRICS_PORT: '9464' }).metrics, { port: 9464, host: '127.0.0.1', token: undefined });
  assert.deepEqual(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: 'x'.repeat(16) }).metrics, {
    port: 9464,
    host: '0.0.0.0',
    token: 'x'.repeat(16),
  });
  assert.throws(
    () => loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: 'short', SIGNUP_CREDITS: '-1' }),
    (err: Error) =>
      /METRICS_TOKEN must be at least 16 characters/.test(err.message) &&
      /METRICS_TOKEN is required when METRICS_HOST is not a loopback address/.test(err.message) === false &&
      /SIGNUP_CREDITS/.test(err.message),
  );
  assert.throws(() => loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }), /METRICS_TOKEN is required when METRICS_HOST/);
});
