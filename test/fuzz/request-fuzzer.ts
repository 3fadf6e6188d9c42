// A seeded generator of malformed HTTP requests for every operation in openapi.yaml: broken paths,
// queries, headers, encodings and bodies, plus near-valid bodies derived from each operation's
// request schema. The same seed gives the same requests (FUZZ_SEED reproduces a run).
import dereference from 'dereference-json-schema';
import { listOperations, openApiDocument, type OperationInfo } from '../../src/lib/openapi-document.ts';
import { sign, signingKeyOf } from '../../src/lib/url-signature.ts';

export interface Rng {
  next(): number;
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

/** mulberry32: small, fast and good enough to pick mutations. */
export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
  };
}

export interface FuzzRequest {
  /** What was broken, for the failure report. */
  label: string;
  method: string;
  /** The request target as sent (a latin1 string: each char is one byte). */
  target: string;
  headers: [string, string][];
  body?: Buffer;
  /** Leave Content-Length out (the mutation sets its own framing headers). */
  customFraming?: boolean;
  /** Another protocol version in the request line (default HTTP/1.1). */
  version?: string;
  /** Send no Host header. */
  noHost?: boolean;
  /** A status this request must not get although it would be a proper problem (e.g. 431 for a documented length). */
  forbidStatus?: number;
  /** The one answer this request may get (a signed URL whose signature no longer matches: 401 unauthorized). */
  expect?: { status: number; code: string };
}

type Schema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  required?: string[];
};

export interface FuzzOperation extends OperationInfo {
  parameters: { name: string; in: string; required?: boolean; schema?: Schema }[];
  bodySchema?: Schema;
}

export function fuzzOperations(): FuzzOperation[] {
  const doc = dereference.dereferenceSync(structuredClone(openApiDocument()) as never) as unknown as {
    paths: Record<
      string,
      Record<string, { parameters?: FuzzOperation['parameters']; requestBody?: { content?: Record<string, { schema?: Schema }> } }>
    >;
  };
  return listOperations().map((info) => {
    const item = doc.paths[info.path]!;
    const op = item[info.method.toLowerCase()]!;
    const parameters = [...((item as { parameters?: FuzzOperation['parameters'] }).parameters ?? []), ...(op.parameters ?? [])];
    return { ...info, parameters, bodySchema: op.requestBody?.content?.['application/json']?.schema };
  });
}

/** UTF-8 text as a latin1 string (one char per byte), for request lines and header values. */
const bytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

const PATH_VALUES: Record<string, string> = { slug: 'mesh-gradient', recipeHash: 'a'.repeat(64), id: 'fuzz-id' };
const QUERY_VALUES: Record<string, string> = {
  r: 'eyJhIjoxfQ',
  format: 'png',
  w: '16',
  h: '16',
  pr: '1',
  status: 'queued',
  limit: '5',
  from: '2026-01-01',
  to: '2026-01-02',
};
const SMALL = { width: 16, height: 16 };
/** Valid starting bodies that stay cheap (16×16 renders); anything else is derived from the schema. */
const BASE_BODIES: Record<string, unknown> = {
  generate: { size: SMALL, format: 'png' },
  renderBatch: { items: [{ slug: 'mesh-gradient', size: SMALL }] },
  createJob: { slug: 'mesh-gradient', size: SMALL, format: 'png' },
  createKey: { label: 'fuzz' },
  createUrlSigningKey: { label: 'fuzz' },
  signRenderUrl: { slug: 'mesh-gradient', size: SMALL, format: 'png' },
  createPreset: { name: 'fuzz', recipe: { slug: 'mesh-gradient', size: SMALL } },
  updatePreset: { name: 'fuzz' },
  createCheckout: { packId: 'starter' },
  handlePaymentWebhook: { id: 'evt_fuzz', type: 'checkout.session.completed', data: { object: {} } },
};

/** A minimal instance of a schema (required members only), for operations without a hand-made base. */
export function minimalInstance(schema: Schema | undefined): unknown {
  if (!schema) return {};
  if ('const' in schema) return schema.const;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[key] as Schema[] | undefined;
    if (list?.length)
      return minimalInstance({ ...list[0], ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== key)) } as Schema);
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((k) => [k, minimalInstance(schema.properties?.[k])]));
    case 'array':
      return Array.from({ length: Number(schema.minItems ?? 0) }, () => minimalInstance(schema.items));
    case 'integer':
    case 'number':
      return Number(schema.minimum ?? 0);
    case 'boolean':
      return false;
    case 'string':
      return 'x'.repeat(Math.max(1, Number(schema.minLength ?? 1)));
    default:
      return {};
  }
}

/**
 * Real resources of the app under test, so requests reach past "not found": an id per collection
 * (`jobs`, `presets`, `keys`, `url-signing-keys`, as in /v1/<collection>/{id}) and a rendered recipe's hash and `r`.
 */
export interface Fixtures {
  ids?: Record<string, string>;
  recipeHash?: string;
  r?: string;
}

export function baseRequest(op: FuzzOperation, authorization: string | undefined, fixtures: Fixtures = {}): FuzzRequest {
  const collection = op.path.split('/')[2] ?? '';
  const pathValue = (name: string) =>
    (name === 'id' ? fixtures.ids?.[collection] : name === 'recipeHash' ? fixtures.recipeHash : undefined) ?? PATH_VALUES[name] ?? 'x';
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => pathValue(name));
  const query = op.parameters
    .filter((p) => p.in === 'query' && p.required)
    .map((p) => `${p.name}=${(p.name === 'r' ? fixtures.r : undefined) ?? QUERY_VALUES[p.name] ?? 'x'}`);
  const headers: [string, string][] = [];
  if (op.secured && authorization) headers.push(['Authorization', authorization]);
  let body: Buffer | undefined;
  if (op.bodySchema) {
    headers.push(['Content-Type', 'application/json']);
    body = Buffer.from(JSON.stringify(BASE_BODIES[op.operationId] ?? minimalInstance(op.bodySchema)));
  }
  return { label: 'base', method: op.method, target: query.length ? `${path}?${query.join('&')}` : path, headers, body };
}

/** Values that break a path segment: encodings, NUL, length, unicode, dot segments. */
const BAD_SEGMENTS = [
  '%zz',
  '%',
  '%%',
  '%e0%a4',
  '%ff',
  '%c0%af',
  '%ed%a0%80',
  '%00',
  'a%00b',
  '%00%00',
  '%u0041',
  bytes('é'),
  bytes('😀'),
  '%C3%A9',
  '%F0%9F%98%80',
  '%EF%BF%BF',
  '..',
  '.',
  '%2e%2e',
  '%2F',
  '..%2F..%2Fetc%2Fpasswd',
  '%5C',
  'a'.repeat(70),
  'a'.repeat(5000),
  'a'.repeat(40_000),
  ' ',
  '%20',
  '\t',
  '<script>',
  "'",
  '"',
  '\\',
  '|',
  '{}',
  '%7B%7D',
];
const BAD_QUERY_VALUES = [
  '%zz',
  '%',
  '%00',
  'a%00b',
  '%ff',
  bytes('é'),
  '-1',
  '1e400',
  '99999999999999999999999',
  'NaN',
  'Infinity',
  '0x10',
  '',
  '[]',
  '{}',
  'true',
  'a'.repeat(20_000),
  '%2e%2e',
];
const CONTENT_TYPES = [
  'text/plain',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json; charset=nope',
  'application/x-www-form-urlencoded',
  '',
  'application/jsonx',
  'multipart/form-data; boundary=x',
  'application/json;;;',
  'application/merge-patch+json',
  '*/*',
  'application/json, text/plain',
  bytes('application/json; x=é'),
];
const CONTENT_ENCODINGS = [
  'gzip',
  'deflate',
  'br',
  'x-gzip',
  'compress',
  'gzip, gzip',
  'identity',
  'IDENTITY',
  'GZIP',
  'zstd',
  'x-unknown',
  '',
];
const AUTHORIZATIONS = [
  '',
  'Bearer',
  'Bearer ',
  'Bearer  svc_local_x',
  'Basic dXNlcjpwYXNz',
  'bearer svc_local_test_key_0123456789abcdef',
  `Bearer ${'x'.repeat(5000)}`,
  `Bearer svc_live_${bytes('ééé')}`,
  'Bearer svc_live_%00',
  "Bearer svc_live_'; drop table api_keys;--",
  'Token abc',
  'Bearer a b c',
];
const IDEMPOTENCY_KEYS = ['', ' ', 'x'.repeat(256), 'x'.repeat(5000), bytes('clé'), '%00', 'a\tb', "'; --"];
const IF_NONE_MATCH = ['*', 'W/"x"', '"unterminated', 'garbage', `"${'a'.repeat(2000)}"`, '"a", "b", W/"c"', ',,,', bytes('"é"')];
const COOKIES = [
  '__Secure-service.session_token=%zz',
  '__Secure-service.session_token=',
  '__Secure-service.session_token=x.y.z',
  '=;;=;',
  `a=${'b'.repeat(5000)}`,
  bytes('__Secure-service.session_token=é'),
  '__Secure-service.session_token=%00',
];

function withHeader(req: FuzzRequest, name: string, value: string, label: string, replace = true): FuzzRequest {
  const headers = replace ? req.headers.filter(([n]) => n.toLowerCase() !== name.toLowerCase()) : [...req.headers];
  headers.push([name, value]);
  return { ...req, headers, label };
}

function jsonBody(req: FuzzRequest, text: string | Buffer, label: string): FuzzRequest {
  const headers = req.headers.some(([n]) => n.toLowerCase() === 'content-type')
    ? req.headers
    : [...req.headers, ['Content-Type', 'application/json'] as [string, string]];
  return { ...req, headers, body: Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'), label };
}

/** Raw JSON tokens that JSON.stringify cannot produce, spliced in through a marker. */
const RAW = (token: string) => ({ __raw__: token });
const stringifyWithRaw = (value: unknown) =>
  JSON.stringify(value).replace(/\{"__raw__":"((?:[^"\\]|\\.)*)"\}/g, (_m, t: string) => JSON.parse(`"${t}"`) as string);

/** Values that violate a schema: wrong types, bounds, lengths, enums, NUL and odd unicode, huge numbers. */
function violations(schema: Schema | undefined, rng: Rng): unknown[] {
  const s = schema ?? {};
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  const out: unknown[] = [
    null,
    [],
    {},
    'x',
    123,
    true,
    RAW('1e400'),
    RAW('-0'),
    RAW('123456789012345678901234567890'),
    'a\u0000b',
    '\ud800',
    '😀',
  ];
  if (type === 'integer' || type === 'number') {
    if (typeof s.minimum === 'number') out.push(s.minimum - 1);
    if (typeof s.maximum === 'number') out.push(s.maximum + 1);
    out.push(1.5, 2 ** 53 + 1, -(2 ** 53) - 1, 1e308, -1e308, '1', RAW('1E5'), RAW('0.1e-400'));
  }
  if (type === 'string') {
    if (typeof s.maxLength === 'number') out.push('x'.repeat(s.maxLength + 1));
    if (typeof s.minLength === 'number' && s.minLength > 0) out.push('');
    out.push(
      'A B/..',
      '%00',
      '\u0000',
      'x\u0000'.repeat(50),
      '\u202e',
      'é'.repeat(200),
      '1',
      'not-in-enum',
      '2026-13-45',
      'https://127.0.0.1/',
      'javascript:alert(1)',
    );
  }
  if (type === 'array') {
    out.push(
      [],
      Array.from({ length: Number(s.maxItems ?? 10) + 1 }, () => minimalInstance(s.items)),
      [null],
      [[[]]],
      'not-an-array',
    );
  }
  if (type === 'object' || s.properties) {
    const base = minimalInstance(s) as Record<string, unknown>;
    out.push(
      [base],
      { ...base, unexpected: 1 },
      { ...base, ['k\u0000']: 1 },
      { __proto__: 1, constructor: { prototype: 1 } },
      { ...base, toString: 'x', hasOwnProperty: 1 },
    );
    for (const key of s.required ?? []) {
      const { [key]: _dropped, ...rest } = base;
      out.push(rest);
    }
  }
  if (Array.isArray(s.enum)) out.push(`${String(s.enum[0])}x`, String(s.enum[0]).toUpperCase());
  out.push(deepNest(rng.pick([50, 1000, 3000]), rng.chance(0.5)));
  return out;
}

function deepNest(depth: number, arrays: boolean): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = arrays ? [value] : { a: value };
  return value;
}

/** Every schema location in a body (dot paths), with its schema, down to a few levels. */
function schemaPoints(
  schema: Schema | undefined,
  path: string[] = [],
  depth = 0,
  out: { path: string[]; schema: Schema | undefined }[] = [],
) {
  out.push({ path, schema });
  if (!schema || depth > 4) return out;
  const merged: Record<string, Schema> = { ...(schema.properties ?? {}) };
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
    for (const branch of (schema[key] as Schema[] | undefined) ?? []) Object.assign(merged, branch.properties ?? {});
  for (const [k, sub] of Object.entries(merged)) schemaPoints(sub, [...path, k], depth + 1, out);
  if (schema.items) schemaPoints(schema.items, [...path, '0'], depth + 1, out);
  return out;
}

function setAt(root: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const copy: Record<string, unknown> = Array.isArray(root)
    ? ([...root] as unknown as Record<string, unknown>)
    : root && typeof root === 'object'
      ? { ...(root as object) }
      : {};
  copy[path[0]!] = setAt(copy[path[0]!], path.slice(1), value);
  return copy;
}

/** A near-valid body: the base with one to three schema points replaced by violations. */
function mutateBody(op: FuzzOperation, base: unknown, rng: Rng): { text: string; label: string } {
  const points = schemaPoints(op.bodySchema);
  let body = base;
  const labels: string[] = [];
  for (let i = 1 + rng.int(3); i > 0; i--) {
    const point = rng.pick(points);
    const value = rng.pick(violations(point.schema, rng));
    body = setAt(body, point.path, value);
    labels.push(`body.${point.path.join('.') || '(root)'}=${stringifyWithRaw(value).slice(0, 60)}`);
  }
  return { text: stringifyWithRaw(body), label: labels.join(' ') };
}

const BROKEN_BODIES = [
  '{',
  '{"a":',
  'nul',
  '{"a":1}garbage',
  '\ufeff{}',
  '{"a":1,}',
  "{'a':1}",
  '{"a":01}',
  '{"a":"\\x41"}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"\\u0000":1}',
  '[]',
  '[1,2]',
  '"text"',
  '42',
  'null',
  'true',
  '',
  ' ',
  '{}'.repeat(3),
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"x":1}}}',
];

/** One mutated request for the operation. */
export function mutate(
  op: FuzzOperation,
  authorization: string | undefined,
  rng: Rng,
  bodyLimitBytes: number,
  fixtures: Fixtures = {},
): FuzzRequest {
  const base = baseRequest(op, authorization, fixtures);
  const [pathOnly, query = ''] = base.target.split('?');
  const kind = rng.pick(['path', 'path', 'query', 'header', 'header', 'encoding', 'body', 'body', 'body', 'framing', 'request-line']);
  switch (kind) {
    case 'request-line': {
      const which = rng.pick(['method', 'method', 'absolute', 'asterisk', 'http10', 'no-host', 'version']);
      if (which === 'method') {
        const method = rng.pick([
          'HEAD',
          'OPTIONS',
          'TRACE',
          'PUT',
          'PATCH',
          'DELETE',
          'GET',
          'POST',
          'PROPFIND',
          'CONNECT',
          'get',
          'M'.repeat(100),
          'G\u00e9T',
        ]);
        return { ...base, method: bytes(method), label: `method ${JSON.stringify(method.slice(0, 20))}` };
      }
      if (which === 'absolute') return { ...base, target: `http://evil.example${base.target}`, label: 'absolute-form target' };
      if (which === 'asterisk') return { ...base, target: '*', label: 'asterisk-form target' };
      if (which === 'no-host') return { ...base, noHost: true, label: 'no Host header' };
      return { ...base, version: rng.pick(['HTTP/1.0', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/1.1x', 'FOO']), label: 'another HTTP version' };
    }
    case 'path': {
      const segments = pathOnly!.split('/');
      const names = [...op.path.matchAll(/\{([^}]+)\}/g)].length;
      // Templated segments first (they reach handlers and the database); any segment otherwise.
      const templated = op.path.split('/').flatMap((s, i) => (s.startsWith('{') ? [i] : []));
      const i = names > 0 && rng.chance(0.8) ? rng.pick(templated) : 1 + rng.int(segments.length - 1);
      const bad = rng.pick(BAD_SEGMENTS);
      segments[i] = rng.chance(0.3) ? `${segments[i]}${bad}` : bad;
      const tail = rng.pick(['', '', '/', '//', '/..', '?']);
      return {
        ...base,
        target: `${segments.join('/')}${tail}${query ? `${tail.includes('?') ? '&' : '?'}${query}` : ''}`,
        label: `path segment ${i} = ${JSON.stringify(bad.slice(0, 40))}${tail}`,
      };
    }
    case 'query': {
      const declared = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
      const name = declared.length > 0 && rng.chance(0.8) ? rng.pick(declared) : rng.pick(['x', '%00', 'a%zz', '__proto__', 'r[]', 'w[a]']);
      const value = rng.pick(BAD_QUERY_VALUES);
      const extra = rng.chance(0.3) ? `&${name}=${QUERY_VALUES[name] ?? '1'}` : '';
      const params = query ? query.split('&').filter((p) => !p.startsWith(`${name}=`)) : [];
      params.push(`${name}=${value}`);
      return {
        ...base,
        target: `${pathOnly}?${params.join('&')}${extra}`,
        label: `query ${name}=${JSON.stringify(value.slice(0, 40))}${extra ? ' (repeated)' : ''}`,
      };
    }
    case 'header': {
      const which = rng.pick([
        'content-type',
        'authorization',
        'authorization-dup',
        'idempotency',
        'if-none-match',
        'cookie',
        'huge',
        'many',
        'nul',
        'obs-fold',
        'bad-name',
        'origin',
        'accept',
        'protocol',
        'gateway',
      ]);
      switch (which) {
        case 'gateway': {
          // The local gateway's evidence (fetch metadata, Origin, Host) without a key, with odd Host values.
          const host = rng.pick([
            '127.0.0.1',
            'localhost:8080',
            '%zz',
            '[::1',
            '[::1]:99999',
            '127.0.0.1:-1',
            '',
            bytes('lö.example'),
            'a'.repeat(300),
            '127.0.0.1, evil.example',
            'user@127.0.0.1',
          ]);
          const headers = base.headers.filter(([n]) => n !== 'Authorization');
          headers.push(['Sec-Fetch-Site', rng.pick(['same-origin', 'same-site', 'none', 'cross-site', '%00'])]);
          if (rng.chance(0.5)) headers.push(['Origin', rng.pick([`http://${host}`, 'http://127.0.0.1', 'null', host])]);
          return {
            ...base,
            headers: [...headers, ['Host', host]],
            noHost: true,
            label: `local gateway evidence, Host: ${JSON.stringify(host.slice(0, 40))}`,
          };
        }
        case 'protocol': {
          const [name, value] = rng.pick([
            ['Expect', '100-continue'],
            ['Expect', 'teapot'],
            ['Upgrade', 'websocket'],
            ['Upgrade', 'h2c'],
            ['Connection', 'upgrade'],
            ['Range', 'bytes=0-1'],
            ['Range', 'bytes=x'],
            ['X-Forwarded-For', '%zz, ::1'],
            ['Forwarded', 'for=%00'],
          ] as const);
          const req = withHeader(base, name, value, `${name}: ${value}`);
          return name === 'Upgrade' ? withHeader(req, 'Connection', 'Upgrade', req.label) : req;
        }
        case 'content-type': {
          const v = rng.pick(CONTENT_TYPES);
          return withHeader(op.bodySchema ? base : jsonBody(base, '{}', ''), 'Content-Type', v, `Content-Type: ${JSON.stringify(v)}`);
        }
        case 'authorization': {
          const v = rng.pick(AUTHORIZATIONS);
          return withHeader(base, 'Authorization', v, `Authorization: ${JSON.stringify(v.slice(0, 40))}`);
        }
        case 'authorization-dup':
          return withHeader(base, 'Authorization', rng.pick(AUTHORIZATIONS), 'two Authorization headers', false);
        case 'idempotency': {
          const v = rng.pick(IDEMPOTENCY_KEYS);
          const req = withHeader(base, 'Idempotency-Key', v, `Idempotency-Key: ${JSON.stringify(v.slice(0, 40))}`);
          return rng.chance(0.3) ? withHeader(req, 'Idempotency-Key', 'second', `${req.label} twice`, false) : req;
        }
        case 'if-none-match': {
          const v = rng.pick(IF_NONE_MATCH);
          return withHeader(base, 'If-None-Match', v, `If-None-Match: ${JSON.stringify(v.slice(0, 40))}`);
        }
        case 'cookie': {
          const v = rng.pick(COOKIES);
          return withHeader(
            rng.chance(0.5) ? { ...base, headers: base.headers.filter(([n]) => n !== 'Authorization') } : base,
            'Cookie',
            v,
            `Cookie: ${JSON.stringify(v.slice(0, 40))}`,
          );
        }
        case 'huge': {
          const size = rng.pick([8_000, 20_000, 40_000, 70_000]);
          return withHeader(base, 'X-Fuzz', 'x'.repeat(size), `a ${size}-byte header`);
        }
        case 'many': {
          const n = rng.pick([100, 2100]);
          return {
            ...base,
            headers: [...base.headers, ...Array.from({ length: n }, (_, i) => [`X-F${i}`, 'v'] as [string, string])],
            label: `${n} headers`,
          };
        }
        case 'nul':
          return withHeader(
            base,
            rng.pick(['X-Fuzz', 'Authorization', 'Content-Type', 'Idempotency-Key']),
            'a\u0000b',
            'NUL in a header value',
          );
        case 'obs-fold':
          return withHeader(base, 'X-Fuzz', 'a\r\n b', 'obsolete line folding');
        case 'bad-name':
          return withHeader(base, rng.pick(['X Fuzz', 'X:Fuzz', '', bytes('X-é'), 'X-F\u0001']), 'v', 'an invalid header name');
        case 'origin': {
          const v = rng.pick(['null', 'https://evil.example', '%zz', 'http://127.0.0.1:1', bytes('https://é.example'), '']);
          return withHeader(base, 'Origin', v, `Origin: ${JSON.stringify(v)}`);
        }
        default: {
          const v = rng.pick(['', '*/*;q=x', 'application/json;q=0', 'image/png;q=0, */*;q=0', 'text/html']);
          return withHeader(base, 'Accept', v, `Accept: ${JSON.stringify(v)}`);
        }
      }
    }
    case 'encoding': {
      const v = rng.pick(CONTENT_ENCODINGS);
      const withBody = op.bodySchema ? base : jsonBody(base, '{}', '');
      return withHeader(withBody, 'Content-Encoding', v, `Content-Encoding: ${JSON.stringify(v)} on an uncompressed body`);
    }
    case 'framing': {
      const body = base.body ?? Buffer.from('{}');
      const headers = base.headers.filter(([n]) => n.toLowerCase() !== 'content-type');
      headers.push(['Content-Type', 'application/json']);
      const which = rng.pick([
        'cl-long',
        'cl-short',
        'cl-dup',
        'cl-bad',
        'te-bad-chunk',
        'te-and-cl',
        'te-unknown',
        'too-large',
        'te-chunked',
      ]);
      const framed = (h: [string, string][], b: Buffer, label: string): FuzzRequest => ({
        ...base,
        headers: [...headers, ...h],
        body: b,
        customFraming: true,
        label,
      });
      switch (which) {
        case 'cl-long':
          return framed(
            [['Content-Length', String(body.length + 10)]],
            body,
            'Content-Length longer than the body (the body never completes)',
          );
        case 'cl-short':
          return framed([['Content-Length', String(Math.max(0, body.length - 2))]], body, 'Content-Length shorter than the body');
        case 'cl-dup':
          return framed(
            [
              ['Content-Length', String(body.length)],
              ['Content-Length', String(body.length + 1)],
            ],
            body,
            'two different Content-Length headers',
          );
        case 'cl-bad':
          return framed(
            [['Content-Length', rng.pick(['-1', 'abc', '1e3', '99999999999999999999', ' 5'])]],
            body,
            'an invalid Content-Length',
          );
        case 'te-bad-chunk':
          return framed(
            [['Transfer-Encoding', 'chunked']],
            Buffer.from(`zz\r\n${body.toString('latin1')}\r\n0\r\n\r\n`, 'latin1'),
            'a bad chunk size',
          );
        case 'te-and-cl':
          return framed(
            [
              ['Transfer-Encoding', 'chunked'],
              ['Content-Length', String(body.length)],
            ],
            Buffer.from(`${body.length.toString(16)}\r\n${body.toString('latin1')}\r\n0\r\n\r\n`, 'latin1'),
            'Transfer-Encoding and Content-Length',
          );
        case 'te-unknown':
          return framed(
            [['Transfer-Encoding', rng.pick(['gzip', 'chunked, gzip', 'identity', 'x'])]],
            body,
            'an unknown Transfer-Encoding',
          );
        case 'te-chunked':
          return framed(
            [['Transfer-Encoding', 'chunked']],
            Buffer.from(
              `${body.length.toString(16)};ext=${'e'.repeat(rng.pick([1, 20_000]))}\r\n${body.toString('latin1')}\r\n0\r\n\r\n`,
              'latin1',
            ),
            'a chunked body with chunk extensions',
          );
        default: {
          const big = Buffer.from(JSON.stringify({ pad: 'x'.repeat(bodyLimitBytes + 100) }));
          return framed([['Content-Length', String(big.length)]], big, 'a body over the limit');
        }
      }
    }
    default: {
      const mode = rng.pick(['broken', 'mutated', 'mutated', 'mutated', 'nested', 'bytes']);
      if (mode === 'broken') {
        const text = rng.pick(BROKEN_BODIES);
        return jsonBody(base, text, `body ${JSON.stringify(text)}`);
      }
      if (mode === 'nested') {
        // Up to what fits the suite's 8 KiB body limit (deeper bodies at the default limit: validation.test.ts).
        const depth = rng.pick([100, 1_000, 1_500, 100_000]);
        const arrays = rng.chance(0.5);
        const inner = arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
        const text = rng.chance(0.5) ? inner : `{"params":${inner},"items":${inner},"recipe":${inner}}`;
        return jsonBody(base, text, `body nested ${depth} ${arrays ? 'arrays' : 'objects'} deep`);
      }
      if (mode === 'bytes') {
        const junk = Buffer.from(Array.from({ length: 1 + rng.int(64) }, () => rng.int(256)));
        return jsonBody(
          base,
          Buffer.concat([Buffer.from('{"a":"'), junk, Buffer.from('"}')]),
          `body with random bytes ${junk.toString('hex')}`,
        );
      }
      const start = base.body ? JSON.parse(base.body.toString('utf8')) : (BASE_BODIES[op.operationId] ?? {});
      const { text, label } = mutateBody(op, start, rng);
      return jsonBody(base, text, label);
    }
  }
}

/** A signed target split into its path and its raw `name=value` parameters, in order. */
function splitTarget(target: string): { path: string; params: string[] } {
  const q = target.indexOf('?');
  return { path: target.slice(0, q), params: target.slice(q + 1).split('&') };
}
const nameOf = (param: string) => (param.includes('=') ? param.slice(0, param.indexOf('=')) : param);
const valueOf = (param: string) => (param.includes('=') ? param.slice(param.indexOf('=') + 1) : '');
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** `text` with the character at `i` replaced by another one of the same alphabet. */
function flipAt(text: string, i: number, alphabet = BASE64URL): string {
  if (text.length === 0) return alphabet[0]!;
  const at = Math.min(i, text.length - 1);
  const c = text[at]!;
  const other = alphabet[(alphabet.indexOf(c) + 1) % alphabet.length] ?? 'A';
  return text.slice(0, at) + other + text.slice(at + 1);
}
/** Another spelling of one character: percent-encoded, which changes the raw target but not what it decodes to. */
const percentEncodeAt = (text: string, i: number, lower = false) => {
  if (text.length === 0) return text;
  const hex = text.charCodeAt(i).toString(16).padStart(2, '0');
  return `${text.slice(0, i)}%${lower ? hex.toLowerCase() : hex.toUpperCase()}${text.slice(i + 1)}`;
};
/** Every character percent-encoded. */
const percentEncodeAll = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).join('');

/**
 * Another spelling of one `name=value` parameter: one character of its name or value percent-encoded
 * (upper- or lowercase hex), every character of it, or a `+` after it (a space to a query parser).
 * A query parser reads the first three as the same parameter; none is the service's spelling.
 */
function respellParam(param: string, rng: Rng): { param: string; label: string } {
  const name = nameOf(param);
  const value = valueOf(param);
  const inName = value.length === 0 || rng.chance(0.5);
  const text = inName ? name : value;
  const variant = rng.pick(['one character', 'one character, lowercase hex', 'every character', 'a + after it']);
  const respelled =
    variant === 'every character'
      ? percentEncodeAll(text)
      : variant === 'a + after it'
        ? `${text}+`
        : percentEncodeAt(text, rng.int(Math.max(1, text.length)), variant.endsWith('lowercase hex'));
  return {
    param: inName ? `${respelled}${param.slice(name.length)}` : `${name}=${respelled}`,
    label: `${name} respelled in its ${inName ? 'name' : 'value'}: ${variant}`,
  };
}

const PREFIX_LENGTH = '/v1/render/'.length;

/** Values a tampered parameter takes, by name (any other name: a flipped or shortened value). */
const TAMPERED_VALUES: Record<string, (value: string, rng: Rng) => string> = {
  kid: (v, rng) => rng.pick(['usk_nobodyshere00000', `${v}x`, v.slice(0, -1), v.toUpperCase(), '', 'usk_', flipAt(v, 4 + rng.int(16))]),
  exp: (v, rng) => rng.pick([String(Number(v) + 1), String(Number(v) - 1), '0', '1', '', '-1', 'abc', '1e9', `${v}0`, '9'.repeat(13)]),
  sig: (v, rng) =>
    rng.pick([
      flipAt(v, rng.int(v.length)),
      v.slice(0, -1),
      `${v}A`,
      v.toLowerCase() === v ? v.toUpperCase() : v.toLowerCase(),
      Array.from({ length: 43 }, () => rng.pick([...BASE64URL])).join(''),
      '',
      `${v}=`,
      Buffer.from(v, 'base64url').toString('base64').replace(/=+$/, ''),
    ]),
  w: (_v, rng) => rng.pick(['17', '15', '4096', '0']),
  h: (_v, rng) => rng.pick(['17', '15', '4096', '0']),
  pr: (_v, rng) => rng.pick(['2', '1.5', '0.5']),
  // A space travels percent-encoded: a raw one ends the request line (400 malformed_request, not a signature question).
  format: (_v, rng) => rng.pick(['webp', 'svg', 'gif', 'png%20']),
};
const ADDED_PARAMS = ['w=16', 'h=16', 'pr=1', 'format=png', 'format=webp', 'x=1', 'utm_source=newsletter', 'r=', 'sig', 'kid=', 'exp=1'];

/**
 * One to three tamperings of a valid signed target (`/v1/render/<hash>[.png]?r=…&kid=…&exp=…&sig=…`)
 * that change what was signed, the signature itself or only their spelling: a parameter's value
 * changed, a parameter removed, added (anywhere, after `sig` too, or repeated), two swapped, a name's
 * case changed, a character of any name or value — the signature's too — percent-encoded (upper- or
 * lowercase hex) or followed by `+`, or the path's hash, extension or spelling changed. The result
 * always differs from the target byte for byte, and a signed URL has one spelling, so it must be refused.
 */
export function tamperSignedTarget(target: string, rng: Rng, otherKeyId?: string): { target: string; label: string } {
  for (;;) {
    let { path, params } = splitTarget(target);
    const labels: string[] = [];
    for (let n = 1 + rng.int(3); n > 0; n--) {
      const kind = rng.pick(['value', 'value', 'value', 'remove', 'add', 'swap', 'case', 'encode', 'respell', 'respell', 'path']);
      const i = rng.int(params.length);
      const param = params[i] ?? '';
      const name = nameOf(param);
      switch (kind) {
        case 'value': {
          const value = valueOf(param);
          const tampered =
            name === 'kid' && otherKeyId && rng.chance(0.3)
              ? otherKeyId
              : (TAMPERED_VALUES[name]?.(value, rng) ?? rng.pick([flipAt(value, rng.int(Math.max(1, value.length))), value.slice(1), '']));
          params[i] = `${name}=${tampered}`;
          labels.push(`${name} changed`);
          break;
        }
        case 'remove':
          params = params.filter((_p, j) => j !== i);
          labels.push(`${name} removed`);
          break;
        case 'add': {
          const added = rng.pick([...ADDED_PARAMS, ...params]);
          params.splice(rng.int(params.length + 1), 0, added);
          labels.push(`${nameOf(added)} added`);
          break;
        }
        case 'swap': {
          const j = rng.int(params.length);
          [params[i], params[j]] = [params[j]!, params[i]!];
          labels.push(`${name} and ${nameOf(params[i] ?? '')} swapped`);
          break;
        }
        case 'case':
          params[i] = `${name.toUpperCase() === name ? name.toLowerCase() : name.toUpperCase()}${param.slice(name.length)}`;
          labels.push(`${name} renamed by case`);
          break;
        case 'encode': {
          const inName = rng.chance(0.5);
          if (inName) params[i] = `${percentEncodeAt(name, rng.int(Math.max(1, name.length)))}${param.slice(name.length)}`;
          else {
            const value = valueOf(param);
            params[i] = `${name}=${percentEncodeAt(value, rng.int(Math.max(1, value.length)))}`;
          }
          labels.push(`${name} percent-encoded in its ${inName ? 'name' : 'value'}`);
          break;
        }
        case 'respell': {
          // Mostly the signature (its name or value, which are not part of the signed message), else kid or exp.
          const at = rng.chance(0.6) ? params.findIndex((p) => nameOf(p) === 'sig') : rng.int(params.length);
          const j = at < 0 ? i : at;
          const respelled = respellParam(params[j] ?? '', rng);
          params[j] = respelled.param;
          labels.push(respelled.label);
          break;
        }
        default: {
          const m = /^\/v1\/render\/([0-9a-f]{64})(\.[a-z]+)?$/.exec(path);
          if (!m) break;
          const [, hash, extension = ''] = m;
          const variant = rng.pick(['hash', 'upper', 'extension', 'encoded']);
          if (variant === 'hash') path = `/v1/render/${flipAt(hash!, rng.int(64), '0123456789abcdef')}${extension}`;
          else if (variant === 'upper') path = `/v1/render/${hash!.toUpperCase()}${extension}`;
          // A character of the hash or extension (the route's own `/v1/render/` spelled otherwise is no route: 404).
          else if (variant === 'encoded')
            path = percentEncodeAt(path, PREFIX_LENGTH + rng.int(path.length - PREFIX_LENGTH), rng.chance(0.5));
          else path = `/v1/render/${hash}${rng.pick(['', '.png', '.webp', '.PNG', '.png.png'].filter((e) => e !== extension))}`;
          labels.push(`path ${variant} changed`);
        }
      }
    }
    const tampered = `${path}?${params.join('&')}`;
    // Nothing changed (a swap of a parameter with itself): draw again.
    if (tampered !== target) return { target: tampered, label: labels.join(', ') };
  }
}

/**
 * Every other spelling of a valid signed target that differs from it in one character of the
 * signature's name or value, or of the names `kid` and `exp`, percent-encoded (uppercase hex, and
 * lowercase where that differs): to a query parser each reads as the same URL, and the signature's
 * own spelling is not part of what was signed. A signed URL has one spelling, so each must be refused.
 */
export function respellSignedTarget(target: string): Array<{ target: string; label: string }> {
  const { path, params } = splitTarget(target);
  const out: Array<{ target: string; label: string }> = [];
  params.forEach((param, j) => {
    const name = nameOf(param);
    if (!['sig', 'kid', 'exp'].includes(name)) return;
    const texts = name === 'sig' ? [name, valueOf(param)] : [name];
    texts.forEach((text, k) => {
      for (let i = 0; i < text.length; i++)
        for (const lower of [false, true]) {
          const respelled = percentEncodeAt(text, i, lower);
          if (lower && respelled === percentEncodeAt(text, i)) continue;
          const next = [...params];
          next[j] = k === 0 ? `${respelled}${param.slice(name.length)}` : `${name}=${respelled}`;
          out.push({
            target: `${path}?${next.join('&')}`,
            label: `${name}'s ${k === 0 ? 'name' : 'value'}, character ${i} percent-encoded${lower ? ' (lowercase hex)' : ''}`,
          });
        }
    });
  });
  return out;
}

/** Values a re-signed URL's parameters take: some valid, most not (a signature is no licence for a bad request). */
const RESIGNED_VALUES: Record<string, string[]> = {
  r: ['', 'eyJhIjoxfQ', 'x', 'A'.repeat(200)],
  format: ['png', 'webp', 'PNG', 'jpeg', 'svg', 'css', ''],
  w: ['16', '17', '15', '4097', '0', '-16', '16.5', 'abc', '', '1e1'],
  h: ['16', '17', '15', '4097', '0', '-16', '16.5', 'abc', '', '1e1'],
  pr: ['1', '2', '0.5', '0.4', '3.5', 'x', '1.0'],
  x: ['1'],
};
/** exp values, and whether each is well-formed (unix seconds, up to 12 digits). */
const RESIGNED_EXPIRIES = (now: number): Array<{ exp: string; wellFormed: boolean; past: boolean }> => [
  { exp: '0', wellFormed: true, past: true },
  { exp: '1', wellFormed: true, past: true },
  { exp: String(now - 60), wellFormed: true, past: true },
  { exp: String(now + 3600), wellFormed: true, past: false },
  { exp: '999999999999', wellFormed: true, past: false },
  { exp: '9999999999999', wellFormed: false, past: false },
  { exp: '-1', wellFormed: false, past: false },
  { exp: '1e9', wellFormed: false, past: false },
  { exp: '', wellFormed: false, past: false },
  { exp: `${now}.5`, wellFormed: false, past: false },
];

/**
 * A signed target whose signature matches, made with the key's secret from a valid one: its recipe
 * parameters changed (values from RESIGNED_VALUES, parameters added or removed, no name repeated),
 * its path's extension changed, and its `exp` any of RESIGNED_EXPIRIES or none; sometimes one of
 * its parameters in a spelling the service never writes (respellParam). What it must get when the
 * service can tell from the URL alone: 401 unauthorized for another spelling or a malformed exp,
 * 410 signed_url_expired past a well-formed exp; otherwise any answer that is not a 5xx.
 */
export function resignSignedTarget(
  target: string,
  secret: string,
  rng: Rng,
  nowSeconds: number,
): { target: string; label: string; expect?: { status: number; code: string } } {
  const { path: original, params: all } = splitTarget(target);
  const kid = all.find((p) => nameOf(p) === 'kid')!;
  let params = all.filter((p) => !['kid', 'exp', 'sig'].includes(nameOf(p)));
  const labels: string[] = [];
  for (let n = rng.int(3); n > 0; n--) {
    const name = rng.pick(Object.keys(RESIGNED_VALUES));
    const at = params.findIndex((p) => nameOf(p) === name);
    if (at >= 0 && rng.chance(0.3)) {
      params = params.filter((_p, j) => j !== at);
      labels.push(`${name} removed`);
      continue;
    }
    const param = `${name}=${rng.pick(RESIGNED_VALUES[name]!)}`;
    if (at >= 0) params[at] = param;
    else params.splice(rng.int(params.length + 1), 0, param);
    labels.push(param.slice(0, 40));
  }
  const hashPath = original.replace(/\.[a-z]+$/, '');
  const path = rng.chance(0.3) ? `${hashPath}${rng.pick(['', '.png', '.webp', '.svg'])}` : original;
  if (path !== original) labels.push(`path ${path.slice(path.lastIndexOf('/') + 1 + 64) || 'without extension'}`);
  // A spelling the service never writes, signed with the key's secret all the same: refused (401) before the signature is read.
  const respelled = params.length > 0 && rng.chance(0.25);
  if (respelled) {
    const j = rng.int(params.length);
    const other = respellParam(params[j]!, rng);
    params[j] = other.param;
    labels.push(other.label);
  }
  const expiry = rng.chance(0.2) ? undefined : rng.pick(RESIGNED_EXPIRIES(nowSeconds));
  labels.push(expiry ? `exp=${expiry.exp}` : 'no exp');
  const message = `${path}?${[...params, kid, ...(expiry ? [`exp=${expiry.exp}`] : [])].join('&')}`;
  const signed = `${message}&sig=${sign(signingKeyOf(secret), message)}`;
  const expect =
    respelled || (expiry && !expiry.wellFormed)
      ? { status: 401, code: 'unauthorized' }
      : expiry?.past
        ? { status: 410, code: 'signed_url_expired' }
        : undefined;
  return { target: signed, label: `re-signed: ${labels.join(', ')}`, ...(expect ? { expect } : {}) };
}

/** The bytes on the wire. */
export function serialize(req: FuzzRequest): Buffer {
  const lines = [
    `${req.method} ${req.target} ${req.version ?? 'HTTP/1.1'}`,
    ...(req.noHost ? [] : ['Host: 127.0.0.1']),
    'Connection: close',
    ...req.headers.map(([n, v]) => `${n}: ${v}`),
  ];
  if (req.body && !req.customFraming) lines.push(`Content-Length: ${req.body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), req.body ?? Buffer.alloc(0)]);
}

/** A printable form of a request, for failure reports. */
export function describe(req: FuzzRequest): string {
  const text = serialize(req).toString('latin1');
  return JSON.stringify(text.length > 600 ? `${text.slice(0, 500)}…(${text.length} bytes)…${text.slice(-80)}` : text);
}
