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

test('invalid settings of every concern are reported together, in one ConfigError', () => {
  // One bad setting per concern's parser: database, server, auth, storage, billing, jobs, logging, render, metrics, rate limits.
  const bad = {
    DATABASE_URL: 'postgres://x/y',
    STARTUP_WAIT_SECONDS: 'forever',
    APP_ORIGIN: 'https://app.example.com',
    TRUST_PROXY: 'everyone',
    AUTH_SECRET: 'too-short',
    BLOB_STORE: 'ftp',
    STRIPE_SECRET_KEY: 'sk_test_x',
    JOB_CONCURRENCY: '0',
    LOG_LEVEL: 'loud',
    ANIMATION_BUDGET_MS: '1',
    METRICS_PORT: '9464',
    METRICS_HOST: '0.0.0.0',
    RATE_LIMIT_KEY_PER_MINUTE: 'lots',
  };
  assert.throws(
    () => loadConfig(bad),
    (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      for (const start of [
        'STARTUP_WAIT_SECONDS',
        'TRUST_PROXY',
        'AUTH_SECRET',
        'BLOB_STORE must be',
        'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET',
        'JOB_CONCURRENCY',
        'LOG_LEVEL',
        'ANIMATION_BUDGET_MS',
        'METRICS_TOKEN is required',
        'RATE_LIMIT_KEY_PER_MINUTE',
      ])
        assert.ok(
          err.problems.some((p) => p.startsWith(start)),
          `reports ${start}:\n${err.message}`,
        );
      assert.equal(err.problems.length, 10, err.message);
      return true;
    },
  );
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
  // Plain http only on a loopback origin (browsers keep Secure cookies there): a trial on one machine.
  const hosted = { DATABASE_URL: 'postgres://x/y', AUTH_SECRET: 'a'.repeat(32) };
  assert.equal(loadConfig({ ...hosted, APP_ORIGIN: 'http://localhost:8080' }).appOrigin, 'http://localhost:8080');
  assert.equal(loadConfig({ ...hosted, APP_ORIGIN: 'http://127.0.0.1:9000' }).appOrigin, 'http://127.0.0.1:9000');
});

test('development sign-in (DEV_SIGN_IN_*): only in hosted mode with a loopback APP_ORIGIN, HOST, PUBLIC_URL and provider, all three set', () => {
  const hosted = { DATABASE_URL: 'postgres://x/y', AUTH_SECRET: 'a'.repeat(32), APP_ORIGIN: 'http://localhost:8080' };
  const dev = {
    DEV_SIGN_IN_CLIENT_ID: 'trial',
    DEV_SIGN_IN_CLIENT_SECRET: 'secret',
    DEV_SIGN_IN_DISCOVERY_URL: 'http://127.0.0.1:4000/.well-known/openid-configuration',
  };
  assert.equal(loadConfig(hosted).signIn.dev, null);
  assert.deepEqual(loadConfig({ ...hosted, ...dev }).signIn.dev, {
    clientId: 'trial',
    clientSecret: 'secret',
    discoveryUrl: 'http://127.0.0.1:4000/.well-known/openid-configuration',
  });
  const refused = (env: Record<string, string>, pattern: RegExp) =>
    assert.throws(
      () => loadConfig(env),
      (err: unknown) => err instanceof ConfigError && err.problems.some((p) => pattern.test(p)),
    );
  // A real deployment: the service refuses to start with it.
  refused({ ...hosted, ...dev, APP_ORIGIN: 'https://render.example.com' }, /only works when APP_ORIGIN is a loopback origin/);
  refused({ ...dev }, /DEV_SIGN_IN_\* is for hosted mode/);
  refused({ ...hosted, DEV_SIGN_IN_CLIENT_ID: 'trial', DEV_SIGN_IN_CLIENT_SECRET: 'secret' }, /must be set together/);
  refused(
    { ...hosted, ...dev, DEV_SIGN_IN_DISCOVERY_URL: 'https://idp.example.com/.well-known/openid-configuration' },
    /must be on a loopback host/,
  );
  // Listening on every interface, or advertising a public URL, would offer it to others.
  refused({ ...hosted, ...dev, HOST: '0.0.0.0' }, /needs HOST to be a loopback address/);
  refused({ ...hosted, ...dev, PUBLIC_URL: 'https://api.example.com' }, /needs PUBLIC_URL, when set, to be a loopback URL/);
  assert.ok(loadConfig({ ...hosted, ...dev, HOST: '::1', PUBLIC_URL: 'http://localhost:8080' }).signIn.dev);
});

test('BLOB_STORE: files in local mode, the database on Postgres, or s3 with its settings; everything else is refused', () => {
  assert.deepEqual(loadConfig({}, '/srv/app').blobStore, { kind: 'fs', root: '/srv/app/data' });
  const hosted = { DATABASE_URL: 'postgres://x/y', AUTH_SECRET: 'a'.repeat(32), APP_ORIGIN: 'https://render.example.com' };
  assert.deepEqual(loadConfig(hosted).blobStore, { kind: 'database' });
  assert.equal(loadConfig(hosted).resultUrlTtlSeconds, 900);
  assert.deepEqual(
    loadConfig({
      ...hosted,
      BLOB_STORE: 's3',
      S3_BUCKET: 'renders',
      S3_PREFIX: 'render-service/',
      S3_ENDPOINT: 'https://s3.example.com',
      S3_ACCESS_KEY_ID: 'AKIA',
      S3_SECRET_ACCESS_KEY: 'secret',
      RESULT_URL_TTL_SECONDS: '60',
    }).blobStore,
    {
      kind: 's3',
      bucket: 'renders',
      prefix: 'render-service/',
      region: 'us-east-1',
      endpoint: 'https://s3.example.com',
      forcePathStyle: true,
      accessKeyId: 'AKIA',
      secretAccessKey: 'secret',
    },
  );
  // AWS itself: no endpoint, virtual-host style, the SDK's credential chain.
  const aws = loadConfig({ ...hosted, BLOB_STORE: 's3', S3_BUCKET: 'renders', S3_REGION: 'eu-west-1' }).blobStore;
  assert.deepEqual(aws, {
    kind: 's3',
    bucket: 'renders',
    prefix: '',
    region: 'eu-west-1',
    endpoint: undefined,
    forcePathStyle: false,
    accessKeyId: undefined,
    secretAccessKey: undefined,
  });
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (err) {
      if (err instanceof ConfigError) return err.problems.join('\n');
      throw err;
    }
    return '';
  };
  assert.match(problems({ ...hosted, BLOB_STORE: 's3' }), /S3_BUCKET is required/);
  assert.match(problems({ ...hosted, BLOB_STORE: 'ftp' }), /BLOB_STORE must be fs, database or s3/);
  assert.match(problems({ ...hosted, BLOB_STORE: 'fs' }), /BLOB_STORE=fs is for local mode/);
  assert.match(problems({ BLOB_STORE: 'database' }), /needs a Postgres DATABASE_URL/);
  assert.match(problems({ ...hosted, S3_BUCKET: 'renders' }), /S3_BUCKET only apply with BLOB_STORE=s3/);
  const s3 = { ...hosted, BLOB_STORE: 's3', S3_BUCKET: 'renders' };
  assert.match(problems({ ...s3, S3_PREFIX: '../' }), /S3_PREFIX must be a path ending in "\/"/);
  assert.match(problems({ ...s3, S3_PREFIX: 'no-slash' }), /S3_PREFIX must be a path ending in "\/"/);
  assert.match(problems({ ...s3, S3_BUCKET: 'Not_A_Bucket' }), /S3_BUCKET must be a bucket name/);
  assert.match(problems({ ...s3, S3_ACCESS_KEY_ID: 'AKIA' }), /must be set together/);
  assert.match(problems({ ...s3, S3_ENDPOINT: 'http://minio.internal:9000' }), /S3_ENDPOINT must be an https URL/);
  assert.match(problems({ ...s3, RESULT_URL_TTL_SECONDS: '5' }), /RESULT_URL_TTL_SECONDS must be an integer from 10/);
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

test('a HOST that is no host name is a ConfigError naming it, in local and hosted mode, not a crash', () => {
  for (const env of [{}, { DATABASE_URL: 'postgres://u:p@db.example/render', APP_ORIGIN: 'https://app.example.com' }]) {
    assert.throws(
      () => loadConfig({ ...env, HOST: 'a b' }),
      (err: unknown) => err instanceof ConfigError && err.problems.some((p) => p.startsWith('HOST must be an IP address or host name')),
    );
  }
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
  // Sent as a bearer token, so it must be one (a space or a quote could never be sent back).
  assert.throws(() => loadConfig({ METRICS_PORT: '9464', METRICS_TOKEN: 'has spaces in it, sixteen+' }), /METRICS_TOKEN may hold only/);
});

test('every setting the parser reads is documented in docs/modes-and-settings.md', async () => {
  const { readFile, readdir } = await import('node:fs/promises');
  // Each concern reads its own settings in its own module here.
  const modules = (await readdir(new URL('.', import.meta.url))).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  const source = (await Promise.all(modules.map((f) => readFile(new URL(`./${f}`, import.meta.url), 'utf8')))).join('\n');
  // The settings tables there are written by `npm run docs` (scripts/docs/settings.ts); this reads the page itself.
  const page = await readFile(new URL('../../docs/modes-and-settings.md', import.meta.url), 'utf8');
  const direct = [...source.matchAll(/\b(?:str|int|bool|list)\('([A-Z0-9_]+)'/g)].map((m) => m[1]!);
  // OAuth client pairs are read as `${provider}_CLIENT_ID` / `_CLIENT_SECRET`.
  const clients = [...source.matchAll(/\bclient\('([A-Z_]+)'\)/g)].flatMap((m) => [`${m[1]}_CLIENT_ID`, `${m[1]}_CLIENT_SECRET`]);
  const settings = [...new Set([...direct, ...clients])];
  assert.ok(settings.length > 40, `found ${settings.length} settings`);
  assert.deepEqual(
    settings.filter((name) => !page.includes(`| \`${name}\``) && !page.includes(`, \`${name}\``)),
    [],
    'a setting the parser reads has no row in docs/modes-and-settings.md: describe it in scripts/docs/settings.ts and run `npm run docs`',
  );
});
