// orval (fetch client, with the README's content-type mutator): functions from ./render-service.
import {
  type createAssetResponse,
  getCreateAssetUrl,
  createCheckout,
  createJob,
  createKey,
  createPreset,
  createQuote,
  createTemplate,
  previewTemplate,
  updateBudget,
  listTemplateStarters,
  createUrlSigningKey,
  generate,
  getJob,
  getJobResult,
  handlePaymentWebhook,
  listKeys,
  mcpMessage,
  renderBatch,
  renderRecipe,
  revokeKey,
  signRenderUrl,
  createSigningBase,
  updatePreset,
  updateTemplate,
} from './render-service';
import type { JobCreate, QuoteRequest, SignRenderUrlRequest, UrlSigningKeyCreate } from './render-service';
import { renderServiceFetch } from './render-service-fetch';
import {
  check,
  fetchBase,
  fetchSigned,
  notImplemented,
  PAYMENT_EVENT,
  PAYMENT_SIGNATURE,
  pngBytes,
  pollJobToCompletion,
  RECIPE,
  recipeHash,
  sameBytes,
  step,
} from './consumer-kit';

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

// The README's batch.
const batch = await renderBatch({
  items: [
    { slug: 'blob', seed: 1, format: 'webp', size: { width: 600, height: 315 } },
    { slug: 'voronoi', seed: 2, format: 'svg', size: { width: 600, height: 315 } },
  ],
});
check(batch.status === 200 && batch.data.results.length === 2 && batch.data.results.every((r) => r.ok), `renderBatch: ${batch.status}`);
step('renderBatch → two results');

// A quote names the one call it prices; the batch just rendered is all hits now, free (and local mode charges nothing).
// @ts-expect-error a quote must name the call it prices
const callless: QuoteRequest = {};
void callless;
const quotedBatch = await createQuote({
  batch: {
    items: [
      { slug: 'blob', seed: 1, format: 'webp', size: { width: 600, height: 315 } },
      { slug: 'voronoi', seed: 2, format: 'svg', size: { width: 600, height: 315 } },
    ],
  },
});
check(
  quotedBatch.status === 200 && quotedBatch.data.cached && quotedBatch.data.credits === 0 && quotedBatch.data.items?.length === 2,
  `createQuote: ${quotedBatch.status}`,
);
const quotedRender = await createQuote({ render: { slug: 'mesh-gradient', ...RECIPE } });
check(
  quotedRender.status === 200 && quotedRender.data.cached && quotedRender.data.pixels === 32 * 32,
  `createQuote: ${quotedRender.status}`,
);
step('createQuote → the batch and a render, cached');

// The MCP endpoint takes a JSON-RPC message and answers the JSON-RPC response (docs/mcp.md).
const mcp = await mcpMessage({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
// A notification would be answered 202 with no body: the data is read as the one message it may be.
const listed = mcp.data as { id?: unknown; result?: { tools?: unknown } } | undefined;
check(mcp.status === 200 && listed?.id === 1 && Array.isArray(listed.result?.tools), `mcpMessage: ${mcp.status}`);
step('mcpMessage → tools/list');

// URL signing keys as docs/embedding.md creates them and signs with them; optional fields with defaults stay optional.
const minimalSigningKey: UrlSigningKeyCreate = { label: 'og images' };
const slugOnly: SignRenderUrlRequest = { slug: 'social-card' };
void [minimalSigningKey, slugOnly];
const signing = await createUrlSigningKey({ label: 'og images', monthlyCreditLimit: 5000 });
check(signing.status === 201, `createUrlSigningKey: ${signing.status}`);
check(
  signing.data.secret.startsWith('svc_sign_') && signing.data.maxAgeSeconds === 31536000,
  'createUrlSigningKey: secret, default maxAgeSeconds',
);
const signed = await signRenderUrl(signing.data.id, {
  slug: 'social-card',
  params: { title: 'Hello' },
  size: { width: 1200, height: 630 },
  format: 'png',
  extension: true,
});
check(signed.status === 200, `signRenderUrl: ${signed.status}`);
await fetchSigned(signed.data.url, 'signRenderUrl → the signed URL');
const bare = await signRenderUrl(signing.data.id, { slug: 'mesh-gradient' });
check(bare.status === 200 && bare.data.expiresAt === null, `signRenderUrl({ slug }): ${bare.status}`);
step('createUrlSigningKey, signRenderUrl → a public PNG');
const base = await createSigningBase(signing.data.id, {
  slug: 'social-card',
  params: { subtitle: 'The render service blog' },
  size: { width: 1200, height: 630 },
  format: 'jpeg',
  slots: { title: { maxLength: 120 } },
});
check(base.status === 201, `createSigningBase: ${base.status}`);
await fetchBase(base.data.url, 'title=Hello%20world', 'createSigningBase → the base URL with a title');
step('createSigningBase → one URL for every title');

// The README's presets.
const preset = await createPreset({
  name: 'Blog header',
  recipe: { slug: 'mesh-gradient', seed: 7, size: { width: 1200, height: 630 }, format: 'webp' },
});
check(preset.status === 201, `createPreset: ${preset.status}`);
const renamed = await updatePreset(preset.data.id, { name: 'Blog header (wide)' });
check(renamed.status === 200 && renamed.data.name === 'Blog header (wide)', `updatePreset: ${renamed.status}`);
step('createPreset, updatePreset');

// docs/templates.md: a template (its layers a union by `kind`), a second version, a render of it.
const template = await createTemplate({
  name: 'Initials avatar',
  size: { width: 64, height: 64 },
  variables: { type: 'object', properties: { initials: { type: 'string', maxLength: 3, default: 'AL' } } },
  layers: [
    { id: 'disc', kind: 'shape', shape: 'ellipse', box: { x: 0, y: 0, width: 64, height: 64 }, fill: '#4f46e5' },
    {
      id: 'letters',
      kind: 'text',
      text: '{{initials}}',
      box: { x: 8, y: 8, width: 48, height: 48 },
      align: 'center',
      valign: 'middle',
      color: '#ffffff',
      font: { weight: 700 },
      fit: { max: 32, min: 12, maxLines: 1 },
    },
  ],
});
check(template.status === 201, `createTemplate: ${template.status}`);
const version2 = await updateTemplate(template.data.id, {
  name: 'Initials avatar',
  size: { width: 64, height: 64 },
  variables: { type: 'object', properties: { initials: { type: 'string', maxLength: 3, default: 'AL' } } },
  layers: [
    { id: 'background', kind: 'generator', slug: 'mesh-gradient', seed: 7 },
    {
      id: 'letters',
      kind: 'text',
      text: '{{initials}}',
      box: { x: 8, y: 8, width: 48, height: 48 },
      align: 'center',
      valign: 'middle',
      color: '#ffffff',
      font: { weight: 700 },
      fit: { max: 32, min: 12, maxLines: 1 },
    },
  ],
});
check(version2.status === 200 && version2.data.version === 2, `updateTemplate: ${version2.status}`);
const avatar = await generate(`${template.data.id}@1`, { params: { initials: 'AD' }, format: 'png' });
check(avatar.status === 200, `generate a template: ${avatar.status}`);
step('createTemplate, updateTemplate, generate a template');

// docs/templates.md, "Previewing a draft": an unsaved template, free; and the starters to begin from.
const draft = await previewTemplate({
  template: {
    name: 'Initials avatar',
    size: { width: 64, height: 64 },
    layers: [{ id: 'disc', kind: 'shape', shape: 'ellipse', box: { x: 0, y: 0, width: 64, height: 64 }, fill: '#4f46e5' }],
  },
  format: 'webp',
});
check(draft.status === 200, `previewTemplate: ${draft.status}`);
const starters = await listTemplateStarters();
check(starters.status === 200 && starters.data.length === 4, `listTemplateStarters: ${starters.status}`);
step('previewTemplate, listTemplateStarters');

// docs/accounts-keys-credits-billing.md, budgets: 5,000 credits a month, alerts at 50, 80 and 100 %.
const budget = await updateBudget({ monthlyCredits: 5000, alertThresholds: [50, 80, 100] });
check(budget.status === 200 && budget.data.monthlyCredits === 5000, `updateBudget: ${budget.status}`);
step('updateBudget');

// An asset: the file is the raw body, here the PNG rendered above. orval 7's fetch client sends every
// body through JSON.stringify (a Blob becomes "{}"), so the file goes through the mutator, to orval's URL.
const asset = await renderServiceFetch<createAssetResponse>(getCreateAssetUrl(), {
  method: 'POST',
  headers: { 'Content-Type': 'image/png' },
  body: new Blob([new Uint8Array(png)], { type: 'image/png' }),
});
// 201 for a new asset, 200 when another consumer already uploaded the same bytes.
check((asset.status === 201 || asset.status === 200) && /^ast_[0-9a-f]{32}$/.test(asset.data.id), `createAsset: ${asset.status}`);
step('createAsset → an image asset');

// Billing: local mode has none.
const checkout = await createCheckout({ packId: 'starter' });
notImplemented(checkout.status, checkout.status === 501 ? checkout.data.code : undefined, 'createCheckout');
// orval 7's fetch client leaves header parameters out of its signature: they go in the RequestInit.
const event = await handlePaymentWebhook(PAYMENT_EVENT, { headers: { 'Payment-Signature': PAYMENT_SIGNATURE } });
notImplemented(event.status, event.status === 501 ? event.data.code : undefined, 'handlePaymentWebhook');
step('createCheckout, handlePaymentWebhook → 501 in local mode');
