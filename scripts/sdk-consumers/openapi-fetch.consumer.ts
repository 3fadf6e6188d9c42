// openapi-typescript (default flags) + openapi-fetch: types from ./render-service.ts.
import createClient from 'openapi-fetch';
import type { components, paths } from './render-service';
import { check, pngBytes, pollJobToCompletion, RECIPE, recipeHash, sameBytes, SERVICE_KEY, SERVICE_URL, step } from './consumer-kit';

const client = createClient<paths>({ baseUrl: SERVICE_URL, headers: { Authorization: `Bearer ${SERVICE_KEY}` } });

// Binary responses: openapi-fetch parses JSON unless told otherwise; parseAs types `data` too.
const rendered = await client.POST('/v1/generate/{slug}', {
  params: { path: { slug: 'mesh-gradient' } },
  body: RECIPE,
  parseAs: 'arrayBuffer',
});
if (rendered.error) throw new Error(`generate: ${rendered.error.code}`);
const png = await pngBytes(rendered.data, 'generate');
// Declared response headers are typed in `paths` (an undeclared one would be `unknown`).
type RenderedHeaders = paths['/v1/generate/{slug}']['post']['responses'][200]['headers'];
const hash: RenderedHeaders['X-Service-Recipe-Hash'] = recipeHash(rendered.response.headers.get('X-Service-Recipe-Hash'), 'generate');
const cache: RenderedHeaders['X-Service-Cache'] = rendered.response.headers.get('X-Service-Cache') as RenderedHeaders['X-Service-Cache'];
check(['HIT', 'MISS'].includes(cache), `generate: X-Service-Cache ${cache}`);
const encoded = rendered.response.headers.get('X-Service-Recipe');
check(encoded, 'generate: X-Service-Recipe missing');
step('generate → png bytes, X-Service-Recipe-Hash');

const viaUrl = await client.GET('/v1/render/{recipeHash}', {
  params: { path: { recipeHash: hash }, query: { r: encoded } },
  parseAs: 'blob',
});
if (viaUrl.error) throw new Error(`renderRecipe: ${viaUrl.error.code}`);
check(sameBytes(await pngBytes(viaUrl.data, 'renderRecipe'), png), 'renderRecipe: other bytes than generate');
step('renderRecipe → the same bytes');

// createJob's body is typed as its properties and slug-or-generator, not `unknown`.
// @ts-expect-error a job body must name its generator
const nameless: components['schemas']['JobCreate'] = { seed: 1 };
void nameless;
const created = await client.POST('/v1/jobs', { body: { slug: 'mesh-gradient', ...RECIPE } });
if (created.error) throw new Error(`createJob: ${created.error.code}`);
check(created.response.headers.get('Location') === `/v1/jobs/${created.data.id}`, 'createJob: Location');
const done = await pollJobToCompletion(async () => {
  const { data, error } = await client.GET('/v1/jobs/{id}', { params: { path: { id: created.data.id } } });
  if (error) throw new Error(`getJob: ${error.code}`);
  return data;
});
step('createJob, getJob polled to completed');

const result = await client.GET('/v1/jobs/{id}/result', { params: { path: { id: done.id } }, parseAs: 'arrayBuffer' });
if (result.error) throw new Error(`getJobResult: ${result.error.code}`);
check(sameBytes(await pngBytes(result.data, 'getJobResult'), png), 'getJobResult: other bytes than generate');
step('getJobResult → the same bytes');

const key = await client.POST('/v1/keys', { body: { label: 'sdk-check openapi-fetch' } });
if (key.error) throw new Error(`createKey: ${key.error.code}`);
check(key.data.secret?.startsWith('svc_'), 'createKey: secret');
type KeyCreatedHeaders = paths['/v1/keys']['post']['responses'][201]['headers'];
const keyLocation: string = key.response.headers.get('Location') as NonNullable<KeyCreatedHeaders['Location']>;
check(keyLocation === `/v1/keys/${key.data.id}`, 'createKey: Location');
const keys = await client.GET('/v1/keys');
check(
  keys.data?.some((k) => k.id === key.data.id && !k.revoked),
  'listKeys: the new key',
);
const revoked = await client.DELETE('/v1/keys/{id}', { params: { path: { id: key.data.id } } });
check(revoked.data?.revoked === true, 'revokeKey: revoked');
step('createKey, listKeys, revokeKey');
