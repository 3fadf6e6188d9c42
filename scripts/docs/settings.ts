// The settings table of docs/modes-and-settings.md, written by `npm run docs`. Which settings exist,
// their ranges and their literal defaults come from the parser itself (the modules of src/config, read
// as text the way src/config/config.test.ts reads them); what each one means, and a default the source
// computes rather than states, come from the list below. A setting the parser reads that this list
// does not describe — or one described that the parser no longer reads — stops `npm run docs` and
// fails `npm run docs:check`, so the table cannot drift from the parser.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as configModule from '../../src/config/config.ts';

interface SettingDoc {
  /** One row may describe a pair read together (an OAuth client's id and secret). */
  names: string[];
  /** Only for a default the source computes (`workers * 8`, `bool(…) ?? databaseUrl === undefined`). */
  default?: string;
  /** Accepted values, where the kind of setting does not say it (a text setting). */
  values?: string;
  meaning: string;
}

interface SettingGroup {
  title: string;
  settings: SettingDoc[];
}

/** What the settings mean, grouped for a reader. Edit here; `npm run docs` rewrites the table. */
export const SETTING_GROUPS: SettingGroup[] = [
  {
    title: 'Process and mode',
    settings: [
      { names: ['PORT'], meaning: 'TCP port (0 picks a free one).' },
      { names: ['HOST'], meaning: 'Interface to bind. Local mode bound to a non-loopback host turns the local gateway off.' },
      {
        names: ['SERVICE_LOCAL_MODE'],
        default: '`1` without `DATABASE_URL`, else `0`',
        meaning: 'Local mode (one explicit workspace, no credit checks) or hosted mode. See [Modes](#modes).',
      },
      {
        names: ['DATA_DIR'],
        values: 'a directory',
        meaning:
          'Local data: the SQLite file `service.sqlite`, the generated `local-api-key`, and (`BLOB_STORE=fs`) `cache/` and `results/`.',
      },
      {
        names: ['DATABASE_URL'],
        values: '`postgres://…`',
        meaning: 'Postgres. Required in hosted mode; without it local mode runs on SQLite.',
      },
      {
        names: ['API_KEYS'],
        meaning:
          'Bearer keys of the local workspace (each ≥ 16 characters, no white space); local mode only — hosted mode refuses to start with it. Without it, local mode generates one into `DATA_DIR/local-api-key`.',
      },
      {
        names: ['LOG_LEVEL'],
        values: '`fatal`, `error`, `warn`, `info`, `debug`, `trace`, `silent`',
        meaning: 'Log level of the JSON log lines.',
      },
      { names: ['REVISION'], default: 'the git commit', values: 'text', meaning: 'Source revision reported by `GET /v1/health`.' },
      {
        names: ['STARTUP_WAIT_SECONDS'],
        meaning:
          'How long a starting process waits for its database (and an S3 bucket) with backoff, serving `/v1/health` and a 503 `/v1/ready` meanwhile, before it exits 1. See [dependency outages](dependency-outages.md).',
      },
    ],
  },
  {
    title: 'Browsers and sign-in (hosted mode)',
    settings: [
      {
        names: ['APP_ORIGIN'],
        default: '`http://HOST:PORT`',
        values: 'an origin',
        meaning:
          "The web app's origin; OAuth callbacks are restricted to it. Required in hosted mode: https, or plain http only on a loopback origin such as `http://localhost:8080` (a trial on one machine).",
      },
      {
        names: ['ALLOWED_ORIGINS'],
        meaning: 'Browser origins allowed besides `APP_ORIGIN` (`*` is refused). Any other `Origin` gets 403 `origin_denied`.',
      },
      {
        names: ['AUTH_SECRET'],
        values: '≥ 32 random characters',
        meaning: 'Signs session and OAuth state cookies. Required in hosted mode.',
      },
      {
        names: ['PUBLIC_URL'],
        default: '`APP_ORIGIN`',
        values: 'https URL (http only for loopback)',
        meaning:
          'Public origin of this API: register `PUBLIC_URL/v1/auth/callback/github` and `…/callback/google` with the providers; `/sign` returns URLs on it.',
      },
      {
        names: ['GITHUB_CLIENT_ID', 'GITHUB_CLIENT_SECRET'],
        values: 'text (set both)',
        meaning: 'A GitHub OAuth app. Asks for `read:user user:email` only.',
      },
      {
        names: ['GITHUB_OAUTH_URL', 'GITHUB_API_URL'],
        values: 'https URL',
        meaning: 'For GitHub Enterprise Server (and the tests’ local provider).',
      },
      { names: ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'], values: 'text (set both)', meaning: 'A Google OAuth client.' },
      { names: ['GOOGLE_DISCOVERY_URL'], values: 'https URL', meaning: 'Google’s OpenID discovery document.' },
      {
        names: ['DEV_SIGN_IN_CLIENT_ID', 'DEV_SIGN_IN_CLIENT_SECRET', 'DEV_SIGN_IN_DISCOVERY_URL'],
        values: 'set all three',
        meaning:
          'A development OpenID provider on this machine, offered as "Development sign-in" (provider `dev`); `npm run trial` sets them. Hosted mode only, and refused unless `APP_ORIGIN` is a loopback origin, `HOST` a loopback address, `PUBLIC_URL` (when set) a loopback URL and the discovery URL on a loopback host.',
      },
      {
        names: ['SIGNUP_CREDITS'],
        meaning: 'Credits granted to each new personal workspace at its first sign-in, as one ledger entry (`sign-up`).',
      },
    ],
  },
  {
    title: 'Billing (hosted mode)',
    settings: [
      {
        names: ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET'],
        values: '`sk_…` (or `rk_…`), `whsec_…`',
        meaning: 'Set both to sell credit packs through Stripe Checkout; without them billing answers 501 `not_implemented`.',
      },
      {
        names: ['STRIPE_API_URL'],
        default: 'Stripe’s API',
        values: 'https URL',
        meaning: 'Another Stripe API base (the tests’ stand-in).',
      },
      {
        names: ['CHECKOUT_SUCCESS_URL', 'CHECKOUT_CANCEL_URL'],
        default: '`APP_ORIGIN/#/account?checkout=success` / `…=cancelled`',
        values: 'URL',
        meaning: 'Where Stripe Checkout returns the browser.',
      },
    ],
  },
  {
    title: 'Requests and rate limits',
    settings: [
      { names: ['BODY_LIMIT_BYTES'], meaning: 'Largest request body; larger ones get 413 `payload_too_large`.' },
      {
        names: ['REQUEST_HEADERS_TIMEOUT_MS'],
        meaning: "Time to receive a request's line and headers; then 408 `request_timeout` and the connection is closed.",
      },
      {
        names: ['REQUEST_BODY_TIMEOUT_MS'],
        meaning: "Time to receive a request's body once its route and credentials were accepted; then 408 and the connection is closed.",
      },
      {
        names: ['RATE_LIMIT_WORKSPACE_PER_MINUTE'],
        meaning: 'Requests per minute per workspace, all its keys and sessions together (0: off).',
      },
      { names: ['RATE_LIMIT_KEY_PER_MINUTE'], meaning: 'Requests per minute per API key (0: off).' },
      {
        names: ['RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE'],
        meaning: 'Requests per minute per client address that fail authentication, before they get 429 instead of 401 (0: off).',
      },
      {
        names: ['RATE_LIMIT_SIGN_IN_PER_MINUTE'],
        meaning: 'Requests per minute per client address to the sign-in routes under `/v1/auth` (0: off).',
      },
      {
        names: ['RATE_LIMIT_SIGNED_ADDRESS_PER_MINUTE'],
        meaning: 'Signed-URL requests per minute per client address (policy `"signed-address"`; 0: off). Behind a CDN set `TRUST_PROXY`.',
      },
      {
        names: ['RATE_LIMIT_SIGNING_KEY_MISSES_PER_MINUTE'],
        meaning:
          'Signed-URL renders that miss the cache (and cost credits) per minute per URL signing key (policy `"signing-key"`; 0: off).',
      },
      {
        names: ['TRUST_PROXY'],
        default: 'off',
        values: 'a hop count, or addresses/CIDRs, `loopback`, `linklocal`, `uniquelocal`',
        meaning: 'Proxies whose `X-Forwarded-For` names the client. Off: the TCP peer is the client.',
      },
      {
        names: ['LEAN_HIT_PATH'],
        meaning:
          'Recipe URLs held in memory are answered in front of express, by the same steps ([benchmarks](benchmarks.md#the-lean-path)).',
      },
    ],
  },
  {
    title: 'Rendering',
    settings: [
      { names: ['RENDER_WORKERS'], default: 'number of cores', meaning: 'Worker threads that render.' },
      {
        names: ['RENDER_QUEUE_LIMIT'],
        default: '`8 × RENDER_WORKERS`',
        meaning:
          'Renders that may wait for a worker; beyond it 503 `overloaded` with `Retry-After`. `0`: only a render that can start at once runs.',
      },
      {
        names: ['RENDER_MAX_PIXELS_IN_FLIGHT'],
        default: '`RENDER_WORKERS × 40000000`',
        meaning:
          'Output pixels (width × height × pixelRatio²) of all renders in the workers at once; a render that does not fit waits in the queue.',
      },
      { names: ['RENDER_TIMEOUT_MS'], meaning: 'Time limit of a synchronous still render (504 `render_timeout`).' },
      {
        names: ['ANIMATION_BUDGET_MS'],
        meaning: 'Time budget of a synchronous gif/mp4 render; beyond it 504 `animation_budget_exceeded` — export it with `POST /v1/jobs`.',
      },
      {
        names: ['RENDER_MEMORY_CACHE_MB'],
        meaning: 'Recently used renders an API process keeps in memory in front of the blob store (0: off; a worker process keeps none).',
      },
      {
        names: ['FFMPEG_PATH'],
        default: 'an installed `ffmpeg-static`, then `@ffmpeg-installer/ffmpeg`',
        values: 'a path',
        meaning: 'The FFmpeg binary for gif and mp4.',
      },
    ],
  },
  {
    title: 'Storage',
    settings: [
      {
        names: ['BLOB_STORE'],
        default: '`fs` on SQLite, `database` on Postgres',
        values: '`fs`, `database`, `s3`',
        meaning: 'Where rendered files live — the render cache and job results. See [storage](storage.md).',
      },
      {
        names: ['S3_BUCKET'],
        values: 'a bucket name',
        meaning: 'The bucket; required with `BLOB_STORE=s3`. Every `S3_*` setting is refused without it.',
      },
      {
        names: ['S3_PREFIX'],
        values: 'a path ending in `/`',
        meaning: 'Prepended to every object name: objects live at `<prefix>cache/…` and `<prefix>results/…`.',
      },
      { names: ['S3_REGION'], values: 'text', meaning: "The bucket's region." },
      {
        names: ['S3_ENDPOINT'],
        default: 'AWS',
        values: 'https URL (http only for loopback)',
        meaning: 'An S3-compatible server (MinIO, Cloudflare R2, Ceph, …).',
      },
      {
        names: ['S3_FORCE_PATH_STYLE'],
        default: '`1` with `S3_ENDPOINT`, else `0`',
        meaning: '`http://host/bucket/key` instead of `http://bucket.host/key` (what most S3-compatible servers want).',
      },
      {
        names: ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'],
        default: "the AWS SDK's chain",
        values: 'text (set both)',
        meaning: 'Explicit credentials; without them the SDK’s default chain (environment, profile, container or instance role).',
      },
      { names: ['RESULT_URL_TTL_SECONDS'], meaning: 'Lifetime of a presigned `resultUrl` (`BLOB_STORE=s3`).' },
    ],
  },
  {
    title: 'Export jobs and webhooks',
    settings: [
      { names: ['RUN_JOBS'], meaning: 'Whether this process runs export jobs (`npm run worker` processes always do).' },
      {
        names: ['JOB_CONCURRENCY'],
        meaning:
          'Export jobs one process renders at once. A rendered result waiting for object storage does not count (up to 256 MB of them per process).',
      },
      {
        names: ['JOB_LEASE_MS'],
        meaning: 'A job whose process stops heart-beating lapses after this long and is queued again at the next sweep.',
      },
      {
        names: ['JOB_RETRY_DELAY_MS'],
        meaning: 'Wait before retrying an export that failed transiently; each further retry waits 4× longer (3 attempts in all).',
      },
      {
        names: ['STORAGE_OUTAGE_WAIT_SECONDS'],
        meaning:
          'How long a rendered export keeps trying to store its result while object storage is unreachable (without holding a `JOB_CONCURRENCY` slot) before it fails and releases its credits.',
      },
      {
        names: ['EVENT_STREAMS_PER_WORKSPACE'],
        meaning: 'Open `GET /v1/jobs/{id}/events` streams per workspace and process; one more gets 429 `too_many_streams`.',
      },
      {
        names: ['WEBHOOK_ALLOWED_HOSTS'],
        meaning:
          'Host names job webhooks may target; `*.example.com` admits every subdomain (not the apex). Empty: every `webhookUrl` is refused.',
      },
      {
        names: ['WEBHOOK_ALLOW_LOOPBACK'],
        meaning: 'Tests only: webhooks may reach loopback addresses. Refused in hosted mode.',
      },
    ],
  },
  {
    title: 'Metrics',
    settings: [
      { names: ['METRICS_PORT'], meaning: 'Port of the Prometheus listener (`GET /metrics`); 0: no listener. See [metrics](metrics.md).' },
      { names: ['METRICS_HOST'], meaning: 'Address it binds to; a non-loopback one requires `METRICS_TOKEN`.' },
      {
        names: ['METRICS_TOKEN'],
        values: '16+ characters: letters, digits, `-._~+/`',
        meaning: 'Bearer token the metrics listener requires (scheme name case-insensitive).',
      },
    ],
  },
  {
    title: 'Assets',
    settings: [
      {
        names: ['ASSETS_PER_WORKSPACE'],
        meaning:
          'Assets a workspace may hold (deleted ones do not count); past it an upload, or the upload that would restore a deleted one, gets 409 `asset_limit_reached`.',
      },
      {
        names: ['ASSET_IMAGE_MAX_BYTES'],
        meaning: 'Largest image upload; a larger body is refused while it is read (413 `asset_too_large`).',
      },
      {
        names: ['ASSET_FONT_MAX_BYTES'],
        meaning: 'Largest font upload; a larger body is refused while it is read (413 `asset_too_large`).',
      },
      {
        names: ['ASSET_MAX_PIXELS'],
        meaning: 'Largest image (width × height, read from its header before any decode); larger ones get 413 `image_too_large`.',
      },
    ],
  },
];

type Kind = 'str' | 'int' | 'bool' | 'list';

/** The settings parser's source: every module of src/config but the tests (each concern reads its own settings). */
export function configParserSource(root: string): string {
  const dir = path.join(root, 'src/config');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .sort()
    .map((f) => readFileSync(path.join(dir, f), 'utf8'))
    .join('\n');
}

export interface ParsedSetting {
  name: string;
  kind: Kind;
  /** int: "min–max". */
  range?: string;
  /** The default the source states as a literal (or a named constant config.ts exports), formatted. */
  literalDefault?: string;
}

/** A numeric expression of the source (`65_536`, `7 * 24 * 3600`, `DEFAULT_PORT`), or undefined when it is computed. */
function numeric(expr: string): number | undefined {
  const e = expr.trim();
  if (/^[\d_\s*]+$/.test(e))
    return e
      .split('*')
      .map((n) => Number(n.trim().replaceAll('_', '')))
      .reduce((a, b) => a * b, 1);
  const named = (configModule as Record<string, unknown>)[e];
  return typeof named === 'number' ? named : undefined;
}

/** The comma-separated arguments of a call, split at depth 0 (the leading comma after the name dropped). */
function topLevelArgs(text: string): string[] {
  const args: string[] = [];
  let depth = 0;
  let current = '';
  for (const c of text.replace(/^\s*,/, '')) {
    if (c === ',' && depth === 0) {
      args.push(current.trim());
      current = '';
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')') depth--;
    current += c;
  }
  if (current.trim()) args.push(current.trim());
  return args;
}

/** Every setting the parser reads, in source order, with what the source says about it. */
export function settingsReadBy(source: string): ParsedSetting[] {
  const found = new Map<string, ParsedSetting>();
  const add = (s: ParsedSetting) => {
    const seen = found.get(s.name);
    if (!seen) found.set(s.name, s);
    else if (!seen.literalDefault && s.literalDefault) seen.literalDefault = s.literalDefault;
  };
  for (const m of source.matchAll(/\b(str|int|bool|list)\('([A-Z0-9_]+)'/g)) {
    const kind = m[1] as Kind;
    const name = m[2]!;
    const setting: ParsedSetting = { name, kind };
    // The call's other arguments (balanced parentheses), then what follows it.
    let depth = 1;
    let end = m.index! + m[0].length;
    while (depth > 0 && end < source.length) {
      const c = source[end++];
      if (c === '(') depth++;
      else if (c === ')') depth--;
    }
    const args = topLevelArgs(source.slice(m.index! + m[0].length, end - 1));
    if (kind === 'int') {
      const [fallback = '', min = '', max = ''] = args;
      const lo = numeric(min);
      const hi = numeric(max);
      if (lo !== undefined && hi !== undefined) setting.range = `${lo}–${hi}`;
      const value = numeric(fallback);
      if (value !== undefined) setting.literalDefault = `\`${value}\``;
    }
    const literal = /^(?:\??\.toLowerCase\(\))?\s*\?\?\s*('[^']*'|true|false)/.exec(source.slice(end))?.[1];
    if (literal === 'true') setting.literalDefault = '`1`';
    else if (literal === 'false') setting.literalDefault = '`0`';
    else if (literal !== undefined) setting.literalDefault = literal === "''" ? 'empty' : `\`${literal.slice(1, -1)}\``;
    add(setting);
  }
  // OAuth client pairs are read as `${provider}_CLIENT_ID` / `_CLIENT_SECRET`.
  for (const m of source.matchAll(/\bclient\('([A-Z_]+)'\)/g))
    for (const suffix of ['CLIENT_ID', 'CLIENT_SECRET']) add({ name: `${m[1]}_${suffix}`, kind: 'str' });
  return [...found.values()];
}

const KIND_VALUES: Record<Kind, string> = {
  str: 'text',
  int: 'integer',
  bool: '`1`/`0` (or true/false, yes/no, on/off)',
  list: 'comma-separated',
};

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The settings tables (markdown), one per group; throws when the list and the parser disagree. */
export function settingsMarkdown(source: string): string {
  const parsed = new Map(settingsReadBy(source).map((s) => [s.name, s]));
  const described = SETTING_GROUPS.flatMap((g) => g.settings.flatMap((s) => s.names));
  const undocumented = [...parsed.keys()].filter((n) => !described.includes(n));
  const unknown = described.filter((n) => !parsed.has(n));
  const twice = described.filter((n, i) => described.indexOf(n) !== i);
  const problems = [
    ...undocumented.map((n) => `${n} is read by src/config but not described in scripts/docs/settings.ts`),
    ...unknown.map((n) => `${n} is described in scripts/docs/settings.ts but src/config does not read it`),
    ...twice.map((n) => `${n} is described twice in scripts/docs/settings.ts`),
  ];
  const out: string[] = [];
  for (const group of SETTING_GROUPS) {
    out.push(`### ${group.title}`, '', '| Setting | Default | Values | Meaning |', '|---|---|---|---|');
    for (const doc of group.settings) {
      const sources = doc.names.map((n) => parsed.get(n)).filter((s): s is ParsedSetting => !!s);
      const literal = [...new Set(sources.map((s) => s.literalDefault).filter(Boolean))].join(', ');
      if (doc.default && literal)
        problems.push(`${doc.names.join(', ')}: the source states its default (${literal}); drop "default" in scripts/docs/settings.ts`);
      const kinds = [...new Set(sources.map((s) => s.kind))];
      const ranges = [...new Set(sources.map((s) => s.range).filter(Boolean))];
      const values = doc.values ?? (ranges.length ? `${ranges.join(', ')}` : kinds.map((k) => KIND_VALUES[k]).join(', '));
      out.push(
        `| ${doc.names.map((n) => `\`${n}\``).join(', ')} | ${cell(doc.default ?? (literal || '—'))} | ${cell(values)} | ${cell(doc.meaning)} |`,
      );
    }
    out.push('');
  }
  if (problems.length > 0) throw new Error(`The settings table cannot be written:\n  ${problems.join('\n  ')}`);
  return out.join('\n').trimEnd();
}
