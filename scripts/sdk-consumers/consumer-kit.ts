// Shared by the SDK-check consumers (copied next to each generated client): plain assertions and a
// bounded poll, so each consumer reads as what a client application writes. Each consumer calls every
// operation that has a request body (scripts/sdk-check.ts fails when one does not), with the bodies
// README.md and docs/ send, written inline as a client writes them so their types are checked.
export const SERVICE_URL = process.env.RENDER_SERVICE_URL ?? 'http://127.0.0.1:8080';
export const SERVICE_KEY = process.env.RENDER_SERVICE_KEY ?? '';
export const RECIPE = { seed: 7, size: { width: 32, height: 32 }, format: 'png' } as const;

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The bytes of a Blob or ArrayBuffer, checked to be a PNG file. */
export async function pngBytes(body: Blob | ArrayBuffer, what: string): Promise<Uint8Array> {
  const bytes = new Uint8Array(body instanceof Blob ? await body.arrayBuffer() : body);
  check(
    PNG_MAGIC.every((b, i) => bytes[i] === b),
    `${what}: not a PNG (first bytes ${[...bytes.slice(0, 8)].join(' ')})`,
  );
  return bytes;
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

export function recipeHash(value: string | null, what: string): string {
  check(value !== null && /^[0-9a-f]{64}$/.test(value), `${what}: X-Service-Recipe-Hash is ${String(value)}`);
  return value;
}

/** Calls `read` until `done` holds, at most `timeoutMs`; job progress has no other pull API. */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    check(Date.now() < deadline, `${what}: not done after ${timeoutMs} ms (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Polls a job through `read` (the client's getJob) until it ends, and checks it completed with a result. */
export async function pollJobToCompletion<T extends { status: string; resultReady: boolean }>(read: () => Promise<T>): Promise<T> {
  const done = await pollUntil(read, (job) => job.status !== 'queued' && job.status !== 'running', 'job');
  check(done.status === 'completed' && done.resultReady, `job ended ${done.status}`);
  return done;
}

export function step(name: string): void {
  console.log(`  ok  ${name}`);
}

/** A signed URL's path and query, fetched from the service under test (its PUBLIC_URL is not the test's port). */
export async function fetchSigned(url: string, what: string): Promise<Uint8Array> {
  const signed = new URL(url);
  check(/[?&]kid=usk_[\w-]+(&exp=\d+)?&sig=[\w-]{43}$/.test(signed.search), `${what}: not a signed URL: ${url}`);
  const res = await fetch(new URL(signed.pathname + signed.search, SERVICE_URL));
  check(res.status === 200, `${what}: ${res.status}`);
  return pngBytes(await res.blob(), what);
}

/** A signed base's public URL with slot values appended (docs/embedding.md): fetched without credentials, an image. */
export async function fetchBase(url: string, slots: string, what: string): Promise<void> {
  const base = new URL(url);
  check(/^\/v1\/bases\/sb_[\w-]+\/[\w-]{43}\.\w+$/.test(base.pathname), `${what}: not a signed base URL: ${url}`);
  const res = await fetch(new URL(`${base.pathname}?${slots}`, SERVICE_URL));
  check(res.status === 200 && (res.headers.get('content-type') ?? '').startsWith('image/'), `${what}: ${res.status}`);
}

/** In local mode billing answers 501 not_implemented: the call was made, its body typed and accepted. */
export function notImplemented(status: number, code: string | undefined, what: string): void {
  check(
    status === 501 && code === 'not_implemented',
    `${what}: ${status} ${String(code)} (local mode has no billing: 501 not_implemented)`,
  );
}

/** A payment event as the payment provider sends it (openapi.yaml's example); local mode never checks its signature. */
export const PAYMENT_EVENT = {
  id: 'evt_1QdX9ZLkdIwHu7ix0aBcDeFg',
  object: 'event',
  type: 'checkout.session.completed',
  created: 1795467132,
  data: { object: { id: 'cs_test_a1B2c3D4e5F6g7H8i9J0kLmN', object: 'checkout.session', payment_status: 'paid' } },
};
export const PAYMENT_SIGNATURE = 't=1795467132,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd';
