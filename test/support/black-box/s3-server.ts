// A real S3-compatible server for tests: s3rver on 127.0.0.1 (an ephemeral port, a fresh directory,
// silent) with one bucket. s3rver checks that a request's access key exists, that header-signed
// requests are not skewed and that presigned URLs have not expired, but it does NOT verify SigV4
// signatures, and it serves anonymous requests. So that tests can trust a refused URL, requests pass
// through a guard first that makes the bucket behave like a private AWS bucket: a presigned
// (query-string SigV4) request must carry the signature the secret key gives, and a request with no
// credentials at all is refused (403 AccessDenied).
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The service's settings for this server (BLOB_STORE=s3 and the S3_* variables). */
  env: Record<string, string>;
  /** An outage: stops listening, keeping the objects (connections are refused until start()). */
  stop(): Promise<void>;
  /** Listens again on the same port, with the same objects. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** The little of Koa's context the guard uses (s3rver ships no types). */
interface KoaContext {
  req: IncomingMessage;
  status: number;
  type: string;
  body: unknown;
}
type KoaMiddleware = (ctx: KoaContext, next: () => Promise<unknown>) => Promise<unknown>;
interface S3rverInstance {
  /** Koa's middleware stack, composed when the server starts listening. */
  middleware: KoaMiddleware[];
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  resetOnClose?: boolean;
  configureBuckets: { name: string; configs?: string[] }[];
}) => S3rverInstance;

const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

// s3rver's built-in account.
const ACCESS_KEY_ID = 'S3RVER';
const SECRET_ACCESS_KEY = 'S3RVER';
const REGION = 'us-east-1';

export async function startS3Server(): Promise<S3TestServer> {
  const directory = await mkdtemp(path.join(tmpdir(), 'render-service-s3-'));
  const bucket = 'render-service-test';
  const serve = async (port: number) => {
    const instance = new S3rver({ address: '127.0.0.1', port, silent: true, directory, configureBuckets: [{ name: bucket }] });
    instance.middleware.unshift(privateBucketGuard({ [ACCESS_KEY_ID]: SECRET_ACCESS_KEY }));
    return { instance, address: await instance.run() };
  };
  let server: S3rverInstance | undefined;
  let address: AddressInfo;
  try {
    ({ instance: server, address } = await serve(0));
  } catch (err) {
    await rm(directory, { recursive: true, force: true });
    throw err;
  }
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    accessKeyId: ACCESS_KEY_ID,
    secretAccessKey: SECRET_ACCESS_KEY,
    env: {
      BLOB_STORE: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: REGION,
      S3_FORCE_PATH_STYLE: '1',
      S3_ACCESS_KEY_ID: ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
    },
    stop: async () => {
      const running = server;
      server = undefined;
      await running?.close();
    },
    start: async () => {
      if (!server) server = (await serve(address.port)).instance;
    },
    close: async () => {
      try {
        await server?.close();
      } finally {
        await rm(directory, { recursive: true, force: true });
      }
    },
  };
}

function deny(ctx: KoaContext, code: string, message: string): void {
  ctx.status = 403;
  ctx.type = 'application/xml';
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
}

/** Refuses anonymous requests and presigned requests whose SigV4 signature is wrong; the rest go on to s3rver. */
function privateBucketGuard(secrets: Record<string, string>): KoaMiddleware {
  return async (ctx, next) => {
    const url = ctx.req.url ?? '/';
    const queryStart = url.indexOf('?');
    const rawPath = queryStart < 0 ? url : url.slice(0, queryStart);
    const params = (queryStart < 0 ? '' : url.slice(queryStart + 1))
      .split('&')
      .filter(Boolean)
      .map((pair): [string, string] => {
        const eq = pair.indexOf('=');
        return eq < 0 ? [decodeURIComponent(pair), ''] : [decodeURIComponent(pair.slice(0, eq)), decodeURIComponent(pair.slice(eq + 1))];
      });
    const query = new Map(params);
    if (query.has('X-Amz-Signature')) {
      const expected = presignedSignature(ctx.req, rawPath, params, secrets);
      const provided = Buffer.from(query.get('X-Amz-Signature') ?? '');
      if (!expected || expected.length !== provided.length || !timingSafeEqual(expected, provided))
        return deny(ctx, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
      return next();
    }
    if (!ctx.req.headers.authorization && !query.has('Signature')) return deny(ctx, 'AccessDenied', 'Access Denied');
    return next();
  };
}

/** RFC 3986 encoding, as SigV4 canonicalizes query parameters. */
function encodeRfc3986(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const sha256 = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** The SigV4 query-string signature this request should carry (hex, as a Buffer), or undefined for an unknown key. */
function presignedSignature(
  req: IncomingMessage,
  rawPath: string,
  params: [string, string][],
  secrets: Record<string, string>,
): Buffer | undefined {
  const query = new Map(params);
  const [accessKeyId, date, region, service, terminator] = (query.get('X-Amz-Credential') ?? '').split('/');
  const secret = secrets[accessKeyId];
  const amzDate = query.get('X-Amz-Date') ?? '';
  if (!secret || !date || !region || !service || terminator !== 'aws4_request' || !amzDate.startsWith(date)) return undefined;
  const signedHeaders = (query.get('X-Amz-SignedHeaders') ?? '').split(';').filter(Boolean);
  if (!signedHeaders.includes('host')) return undefined;
  const canonicalQuery = params
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => [encodeRfc3986(name), encodeRfc3986(value)])
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const canonicalHeaders = signedHeaders
    .map((name) => {
      const value = req.headers[name];
      return `${name}:${(Array.isArray(value) ? value.join(',') : (value ?? '')).trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const canonicalRequest = [
    req.method ?? 'GET',
    rawPath,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders.join(';'),
    query.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD',
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
  return Buffer.from(createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex'));
}
