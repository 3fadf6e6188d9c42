// @hey-api/openapi-ts (default flags, its bundled fetch client): SDK functions from ./render-service.
import { client } from './render-service/client.gen';
import {
  createAsset,
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
  SERVICE_KEY,
  SERVICE_URL,
  step,
} from './consumer-kit';

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

// The README's batch.
const batch = await renderBatch({
  body: {
    items: [
      { slug: 'blob', seed: 1, format: 'webp', size: { width: 600, height: 315 } },
      { slug: 'voronoi', seed: 2, format: 'svg', size: { width: 600, height: 315 } },
    ],
  },
});
if (batch.error) throw new Error(`renderBatch: ${batch.error.code}`);
check(batch.data.results.length === 2 && batch.data.results.every((r) => r.ok), `renderBatch: ${JSON.stringify(batch.data)}`);
step('renderBatch → two results');

// A quote names the one call it prices; the batch just rendered is all hits now, free (and local mode charges nothing).
// @ts-expect-error a quote must name the call it prices
const callless: QuoteRequest = {};
void callless;
const quotedBatch = await createQuote({
  body: {
    batch: {
      items: [
        { slug: 'blob', seed: 1, format: 'webp', size: { width: 600, height: 315 } },
        { slug: 'voronoi', seed: 2, format: 'svg', size: { width: 600, height: 315 } },
      ],
    },
  },
});
if (quotedBatch.error) throw new Error(`createQuote: ${quotedBatch.error.code}`);
check(
  quotedBatch.data.cached && quotedBatch.data.credits === 0 && quotedBatch.data.items?.length === 2,
  `createQuote: ${JSON.stringify(quotedBatch.data)}`,
);
const quotedRender = await createQuote({ body: { render: { slug: 'mesh-gradient', ...RECIPE } } });
check(quotedRender.data?.cached === true && quotedRender.data.pixels === 32 * 32, `createQuote: ${JSON.stringify(quotedRender.data)}`);
step('createQuote → the batch and a render, cached');

// The MCP endpoint takes a JSON-RPC message and answers the JSON-RPC response (docs/mcp.md).
const mcp = await mcpMessage({ body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
if (mcp.error) throw new Error(`mcpMessage: ${mcp.error.code}`);
// A notification would be answered 202 with no body: the data is read as the one message it may be.
const listed = mcp.data as { id?: unknown; result?: { tools?: unknown } } | undefined;
check(listed?.id === 1 && Array.isArray(listed.result?.tools), `mcpMessage: ${JSON.stringify(mcp.data).slice(0, 200)}`);
step('mcpMessage → tools/list');

// URL signing keys as docs/embedding.md creates them and signs with them; optional fields with defaults stay optional.
const minimalSigningKey: UrlSigningKeyCreate = { label: 'og images' };
const slugOnly: SignRenderUrlRequest = { slug: 'social-card' };
void [minimalSigningKey, slugOnly];
const signing = await createUrlSigningKey({ body: { label: 'og images', monthlyCreditLimit: 5000 } });
if (signing.error) throw new Error(`createUrlSigningKey: ${signing.error.code}`);
check(
  signing.data.secret.startsWith('svc_sign_') && signing.data.maxAgeSeconds === 31536000,
  'createUrlSigningKey: secret, default maxAgeSeconds',
);
const signed = await signRenderUrl({
  path: { id: signing.data.id },
  body: { slug: 'social-card', params: { title: 'Hello' }, size: { width: 1200, height: 630 }, format: 'png', extension: true },
});
if (signed.error) throw new Error(`signRenderUrl: ${signed.error.code}`);
await fetchSigned(signed.data.url, 'signRenderUrl → the signed URL');
const bare = await signRenderUrl({ path: { id: signing.data.id }, body: { slug: 'mesh-gradient' } });
check(bare.data?.expiresAt === null, `signRenderUrl({ slug }): ${JSON.stringify(bare.data ?? bare.error)}`);
step('createUrlSigningKey, signRenderUrl → a public PNG');
const base = await createSigningBase({
  path: { id: signing.data.id },
  body: {
    slug: 'social-card',
    params: { subtitle: 'The render service blog' },
    size: { width: 1200, height: 630 },
    format: 'jpeg',
    slots: { title: { maxLength: 120 } },
  },
});
if (base.error) throw new Error(`createSigningBase: ${base.error.code}`);
await fetchBase(base.data.url, 'title=Hello%20world', 'createSigningBase → the base URL with a title');
step('createSigningBase → one URL for every title');

// The README's presets.
const preset = await createPreset({
  body: { name: 'Blog header', recipe: { slug: 'mesh-gradient', seed: 7, size: { width: 1200, height: 630 }, format: 'webp' } },
});
if (preset.error) throw new Error(`createPreset: ${preset.error.code}`);
const renamed = await updatePreset({ path: { id: preset.data.id }, body: { name: 'Blog header (wide)' } });
check(renamed.data?.name === 'Blog header (wide)', `updatePreset: ${JSON.stringify(renamed.data ?? renamed.error)}`);
step('createPreset, updatePreset');

// docs/templates.md: a template (its layers a union by `kind`), a second version, a render of it.
const template = await createTemplate({
  body: {
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
  },
});
if (template.error) throw new Error(`createTemplate: ${template.error.code}`);
const version2 = await updateTemplate({
  path: { id: template.data.id },
  body: {
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
  },
});
check(version2.data?.version === 2, `updateTemplate: ${JSON.stringify(version2.data ?? version2.error)}`);
const avatar = await generate({ path: { slug: `${template.data.id}@1` }, body: { params: { initials: 'AD' }, format: 'png' } });
check(!avatar.error, `generate a template: ${JSON.stringify(avatar.error)}`);
step('createTemplate, updateTemplate, generate a template');

// docs/templates.md, "Previewing a draft": an unsaved template, free; and the starters to begin from.
const draft = await previewTemplate({
  body: {
    template: {
      name: 'Initials avatar',
      size: { width: 64, height: 64 },
      layers: [{ id: 'disc', kind: 'shape', shape: 'ellipse', box: { x: 0, y: 0, width: 64, height: 64 }, fill: '#4f46e5' }],
    },
    format: 'webp',
  },
});
check(!draft.error, `previewTemplate: ${JSON.stringify(draft.error)}`);
const starters = await listTemplateStarters();
check(starters.data?.length === 4, `listTemplateStarters: ${JSON.stringify(starters.data ?? starters.error)}`);
step('previewTemplate, listTemplateStarters');

// docs/accounts-keys-credits-billing.md, budgets: 5,000 credits a month, alerts at 50, 80 and 100 %.
const budget = await updateBudget({ body: { monthlyCredits: 5000, alertThresholds: [50, 80, 100] } });
check(budget.data?.monthlyCredits === 5000, `updateBudget: ${JSON.stringify(budget.data ?? budget.error)}`);
step('updateBudget');

// An asset: the file is the raw body, here the PNG rendered above, as a Blob of its type.
const asset = await createAsset({ body: new Blob([new Uint8Array(png)], { type: 'image/png' }), headers: { 'Content-Type': 'image/png' } });
if (asset.error) throw new Error(`createAsset: ${asset.error.code}`);
check(/^ast_[0-9a-f]{32}$/.test(asset.data.id) && asset.data.kind === 'image', `createAsset: ${JSON.stringify(asset.data)}`);
step('createAsset → an image asset');

// Billing: local mode has none.
const checkout = await createCheckout({ body: { packId: 'starter' } });
notImplemented(checkout.response.status, checkout.error?.code, 'createCheckout');
const event = await handlePaymentWebhook({ headers: { 'Payment-Signature': PAYMENT_SIGNATURE }, body: PAYMENT_EVENT });
notImplemented(event.response.status, event.error?.code, 'handlePaymentWebhook');
step('createCheckout, handlePaymentWebhook → 501 in local mode');
