// Same-origin API client. In local mode the local gateway authenticates these requests; in hosted
// mode the session cookie does (fetch sends same-origin cookies by default).
import { debounce, h } from './dom.js';
import { priceText } from './formatting.js';
import { state } from './state.js';
import { dispositionName, operationUrl, problemMessage, resendable } from './api-rules.js';
import { setFormats } from './formats.js';
import { operations } from './generated/operations.js';
import { setLimits } from './limits.js';

let down = null; // while the service is unreachable: resolves when /v1/health answers again

/**
 * One banner, not an error in every panel: a request that cannot reach the service (a network
 * error, not an HTTP status) shows "Service unreachable — retrying…", waits until /v1/health
 * answers (polled every 1.5 s), then the banner goes and the request is sent again.
 */
export function serviceBack() {
  if (!down) {
    const banner = h('div', { id: 'offline-banner', class: 'banner', role: 'alert' }, 'Service unreachable — retrying…');
    document.body.prepend(banner);
    down = new Promise((resolve) => {
      const poll = () =>
        fetch(urlOf('getHealth'), { cache: 'no-store' }).then(
          () => {
            banner.remove();
            down = null;
            resolve();
          },
          () => setTimeout(poll, 1500),
        );
      setTimeout(poll, 1500);
    });
  }
  return down;
}

async function send(path, init) {
  for (;;) {
    try {
      return await fetch(path, init);
    } catch (err) {
      if (err.name === 'AbortError' || init.signal?.aborted) throw err;
      if (!resendable(path, init)) {
        void serviceBack();
        throw err;
      }
      await serviceBack();
    }
  }
}

/**
 * A refused request. Its message is what a person reads: with issues, each in plain words named by
 * its field ("Title: must be at most 80 characters", never `body.params.title`); else the detail.
 */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problemMessage(status, problem));
    this.status = status;
    this.problem = problem ?? {};
    this.code = problem?.code;
    this.issues = Array.isArray(problem?.issues) ? problem.issues : [];
  }
}

async function problemOf(res) {
  const type = res.headers.get('content-type') || '';
  if (type.includes('json')) {
    try {
      return await res.json();
    } catch {
      /* fall through */
    }
  }
  return { title: res.statusText || `HTTP ${res.status}`, status: res.status };
}

/**
 * Sends a request to a URL as it is, for a URL the API returned (a `Link` header's next page); an
 * operation of the contract is sent by `call` instead. A refusal throws ApiError.
 */
export async function request(path, { method = 'GET', body, signal, headers = {} } = {}) {
  const init = {
    method,
    signal,
    headers: { Accept: 'application/json, application/problem+json', ...headers },
    credentials: 'same-origin',
  };
  if (body instanceof Blob) {
    // A file sent as it is (an upload): its Content-Type is the caller's header.
    init.body = body;
  } else if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  } else if (method !== 'GET' && method !== 'HEAD') {
    init.headers['Content-Type'] = 'application/json';
  }
  const res = await send(path, init);
  if (!res.ok) throw new ApiError(res.status, await problemOf(res));
  return res;
}

/**
 * The URL of an operation of the contract by its operationId (openapi.yaml; its path template from
 * web/js/generated/operations.js, written by `npm run codegen`): `path` fills the template's params,
 * `query` the query string. For what `call` does not send: an EventSource's stream.
 */
export function urlOf(operationId, { path, query } = {}) {
  const op = operations[operationId];
  if (!op) throw new Error(`openapi.yaml has no operation ${operationId}`);
  return operationUrl(op[1], path, query);
}

/**
 * Calls an operation of the contract by its operationId, with its method and URL (`urlOf`). Resolves
 * with the JSON answer (null for 204), or with `raw` the Response; a refusal throws ApiError. A body
 * is sent as JSON, a Blob (a File) as it is. Every page calls the API through it, so no URL is
 * hand-written (test/unit/web-api.test.ts checks each call against the contract).
 */
export async function call(operationId, { path, query, body, signal, headers, raw } = {}) {
  const res = await request(urlOf(operationId, { path, query }), { method: operations[operationId][0], body, signal, headers });
  return raw ? res : res.status === 204 ? null : res.json();
}

/** Renders a recipe synchronously; returns the file as a Blob plus the recipe headers. */
export async function render(slug, recipe, { signal } = {}) {
  const res = await call('generate', { path: { slug }, body: recipe, signal, headers: { Accept: '*/*' }, raw: true });
  const blob = await res.blob();
  return {
    blob,
    contentType: res.headers.get('content-type') || blob.type,
    recipe: res.headers.get('x-service-recipe'),
    hash: res.headers.get('x-service-recipe-hash'),
    cache: res.headers.get('x-service-cache'),
    engine: res.headers.get('x-service-engine'),
    credits: res.headers.get('x-service-credits'),
  };
}

/** A file an operation answers (say, getJobResult), as a Blob with the name its Content-Disposition gives. */
export async function download(operationId, { path, query } = {}) {
  const res = await call(operationId, { path, query, headers: { Accept: '*/*' }, raw: true });
  const blob = await res.blob();
  return { blob, filename: dispositionName(res.headers.get('content-disposition')) };
}

/** A read made once and shared by every caller; one that failed is made again by the next caller. */
function readOnce(load) {
  let pending;
  return () =>
    (pending ??= load().catch((err) => {
      pending = undefined;
      throw err;
    }));
}

/** GET /v1/health. */
const health = readOnce(() => call('getHealth'));

/**
 * POST /v1/quote of one call (`{ render }`, `{ batch }` or `{ job }`): what it would charge now, and
 * whether a direct render of it fits the service's time budget. The service owns both rules (its
 * pricing and its render-time model), so the page keeps no copy of either.
 */
export const quote = (body) => call('createQuote', { body });

/**
 * What `body()` (a quote's body, or nothing) would cost, beside Download and Export: `line.update()`
 * asks the service again after a pause in the edits, in hosted mode only (local mode charges nothing);
 * an answer overtaken by a newer one is dropped.
 */
export function priceLine(id, quoteBody) {
  const line = h('span', { id, class: 'muted small', 'aria-live': 'polite' });
  let seq = 0;
  line.update = debounce(async () => {
    const mine = ++seq;
    const body = state.hosted && quoteBody();
    const text = body ? await quote(body).then(priceText, () => '') : '';
    if (mine === seq) line.textContent = text;
  }, 300);
  return line;
}

/**
 * The generators, with the output formats' facts and the service's limits (`formats`, `limits` and
 * `animationBudgetMs` of GET /v1/health, kept in formats.js and limits.js): every page reads the
 * generators first, so both are set before any page is drawn.
 */
export const generators = readOnce(() =>
  Promise.all([call('listGenerators'), health()]).then(([list, facts]) => (setFormats(facts.formats), setLimits(facts), list)),
);

export async function generator(slug) {
  const all = await generators();
  return all.find((g) => g.slug === slug);
}
