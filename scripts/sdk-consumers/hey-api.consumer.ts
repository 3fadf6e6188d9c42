// @hey-api/openapi-ts (default flags, its bundled fetch client): SDK functions from ./render-service.
import { client } from './render-service/client.gen';
import { createJob, createKey, generate, getJob, getJobResult, listKeys, renderRecipe, revokeKey } from './render-service';
import type { JobCreate } from './render-service';
import { check, pngBytes, pollJobToCompletion, RECIPE, recipeHash, sameBytes, SERVICE_KEY, SERVICE_URL, step } from './consumer-kit';

client.setConfig({ baseUrl: SERVICE_URL, headers: { Authorization: `Bearer ${SERVICE_KEY}` } });

// Binary responses are typed Blob (format: binary) and arrive as Blob (parseAs 'auto' reads the Content-Type).
const rendered = await generate({ path: { slug: 'mesh-gradient' }, body: RECIPE });
if (rendered.error) throw new Error(`generate: ${rendered.error.code}`);
const png = await pngBytes(rendered.data, 'generate');
const hash = recipeHash(rendered.response.headers.get('X-Service-Recipe-Hash'), 'generate');
const encoded = rendered.response.headers.get('X-Service-Recipe');
check(encoded, 'generate: X-Service-Recipe missing');
step('generate → png bytes, X-Service-Recipe-Hash');

const viaUrl = await renderRecipe({ path: { recipeHash: hash }, query: { r: encoded } });
if (viaUrl.error) throw new Error(`renderRecipe: ${viaUrl.error.code}`);
check(sameBytes(await pngBytes(viaUrl.data, 'renderRecipe'), png), 'renderRecipe: other bytes than generate');
step('renderRecipe → the same bytes');

// createJob's body is typed as its properties and slug-or-generator, not `unknown`.
// @ts-expect-error a job body must name its generator
const nameless: JobCreate = { seed: 1 };
void nameless;
const created = await createJob({ body: { generator: 'mesh-gradient', ...RECIPE } });
if (created.error) throw new Error(`createJob: ${created.error.code}`);
const id = created.data.id;
check(created.response.headers.get('Location') === `/v1/jobs/${id}`, 'createJob: Location');
const done = await pollJobToCompletion(async () => {
  const { data, error } = await getJob({ path: { id } });
  if (error) throw new Error(`getJob: ${error.code}`);
  return data;
});
step('createJob, getJob polled to completed');

const result = await getJobResult({ path: { id } });
if (result.error) throw new Error(`getJobResult: ${result.error.code}`);
check(sameBytes(await pngBytes(result.data, 'getJobResult'), png), 'getJobResult: other bytes than generate');
step('getJobResult → the same bytes');

const key = await createKey({ body: { label: 'sdk-check hey-api' } });
if (key.error) throw new Error(`createKey: ${key.error.code}`);
check(key.data.secret?.startsWith('svc_'), 'createKey: secret');
const keys = await listKeys();
check(
  keys.data?.some((k) => k.id === key.data.id && !k.revoked),
  'listKeys: the new key',
);
const revoked = await revokeKey({ path: { id: key.data.id } });
check(revoked.data?.revoked === true, 'revokeKey: revoked');
step('createKey, listKeys, revokeKey');
