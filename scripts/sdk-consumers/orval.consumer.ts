// orval (fetch client, with the README's content-type mutator): functions from ./render-service.
import { createJob, createKey, generate, getJob, getJobResult, listKeys, renderRecipe, revokeKey } from './render-service';
import type { JobCreate } from './render-service';
import { check, pngBytes, pollJobToCompletion, RECIPE, recipeHash, sameBytes, step } from './consumer-kit';

// Binary responses are typed Blob (format: binary); the mutator reads them with res.blob().
const rendered = await generate('mesh-gradient', RECIPE);
check(rendered.status === 200 && rendered.data instanceof Blob, `generate: ${rendered.status} ${JSON.stringify(rendered.data)}`);
const png = await pngBytes(rendered.data, 'generate');
const hash = recipeHash(rendered.headers.get('X-Service-Recipe-Hash'), 'generate');
const encoded = rendered.headers.get('X-Service-Recipe');
check(encoded, 'generate: X-Service-Recipe missing');
step('generate → png bytes, X-Service-Recipe-Hash');

const viaUrl = await renderRecipe(hash, { r: encoded });
check(viaUrl.status === 200 && viaUrl.data instanceof Blob, `renderRecipe: ${viaUrl.status}`);
check(sameBytes(await pngBytes(viaUrl.data, 'renderRecipe'), png), 'renderRecipe: other bytes than generate');
step('renderRecipe → the same bytes');

// createJob's body is typed as its properties and slug-or-generator, not `unknown`.
// @ts-expect-error a job body must name its generator
const nameless: JobCreate = { seed: 1 };
void nameless;
const created = await createJob({ slug: 'mesh-gradient', ...RECIPE });
check(created.status === 202, `createJob: ${created.status}`);
const id = created.data.id;
check(created.headers.get('Location') === `/v1/jobs/${id}`, 'createJob: Location');
const done = await pollJobToCompletion(async () => {
  const res = await getJob(id);
  if (res.status !== 200) throw new Error(`getJob: ${res.status}`);
  return res.data;
});
step('createJob, getJob polled to completed');

const result = await getJobResult(id);
check(result.status === 200 && result.data instanceof Blob, `getJobResult: ${result.status}`);
check(sameBytes(await pngBytes(result.data, 'getJobResult'), png), 'getJobResult: other bytes than generate');
step('getJobResult → the same bytes');

const key = await createKey({ label: 'sdk-check orval' });
check(key.status === 201, `createKey: ${key.status}`);
check(key.data.secret?.startsWith('svc_'), 'createKey: secret');
const keys = await listKeys();
check(keys.status === 200 && keys.data.some((k) => k.id === key.data.id && !k.revoked), 'listKeys: the new key');
const revoked = await revokeKey(key.data.id);
check(revoked.status === 200 && revoked.data.revoked, 'revokeKey: revoked');
step('createKey, listKeys, revokeKey');
