// The MCP server's tools (docs/mcp.md). Every tool is a client of the service's public HTTP API with
// the caller's key — `render-service mcp` over the network, the service's own endpoint (POST /v1/mcp)
// over loopback — so charges, rate limits, the key's scopes and every check apply to an agent as to
// any client. Input schemas are openapi.yaml's component schemas (schemas.ts). A render answers with
// the file (MCP image content for png, webp and jpeg; a link for the rest) and the exact recipe, its
// hash and its recipe URL, so an agent can iterate on it, compare it and cite it.
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { packagePath } from '../lib/package-root.ts';
import { composeContactSheet, SHEET_MAX_SIDE } from './contact-sheet.ts';
import { compact, componentSchema, namedSchema, objectSchema, parameterSchema, type JsonSchema } from './schemas.ts';

/** Where the tools send their requests, with which credentials, and the origin of the URLs they hand out. */
export interface ServiceConnection {
  /** The API's base URL the tools call (the service's own address for the HTTP endpoint). */
  apiUrl: string;
  /** The origin URLs given to the agent start with (recipe URLs, job results). */
  publicUrl: string;
  /** The Authorization header sent with every call (`Bearer <key>`); none: only public operations work. */
  authorization?: string;
}

interface Answer {
  status: number;
  headers: Headers;
  bytes: Buffer;
  json<T = Record<string, unknown>>(): T;
}

/** A refusal of the API, told to the agent as the problem it is (code, detail, each field's issue). */
class ApiRefusal extends Error {
  constructor(readonly answer: Answer) {
    let text = `${answer.status}`;
    try {
      const problem = answer.json<{ code?: string; title?: string; detail?: string; issues?: { path: string; message: string }[] }>();
      text = `${answer.status} ${problem.code ?? ''}: ${problem.detail ?? problem.title ?? ''}`;
      for (const issue of problem.issues ?? []) text += `\n- ${issue.path} ${issue.message}`;
    } catch {
      text += ` ${answer.bytes.toString('utf8').slice(0, 500)}`;
    }
    super(text);
  }
}

const IMAGE_FORMATS = new Set(['png', 'webp', 'jpeg']);
const MAX_SWEEP_CELLS = 12;
/** A sweep's cells default to this many pixels on their longer side: small enough for an agent's context. */
const SWEEP_CELL_SIDE = 256;
const JOB_WAIT_DEFAULT_SECONDS = 20;
const JOB_WAIT_MAX_SECONDS = 60;

const packageVersion = (): string => (JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string }).version;

/** The API client the tools share: JSON in, the answer's bytes out, a refusal thrown. */
function apiClient(connection: ServiceConnection) {
  const base = connection.apiUrl.replace(/\/+$/, '');
  return async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const headers: Record<string, string> = {};
    if (connection.authorization) headers.Authorization = connection.authorization;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const bytes = Buffer.from(await res.arrayBuffer());
    const answer: Answer = {
      status: res.status,
      headers: res.headers,
      bytes,
      json: <T>() => JSON.parse(bytes.toString('utf8')) as T,
    };
    if (res.status >= 400) throw new ApiRefusal(answer);
    return answer;
  };
}

type Args = Record<string, unknown>;
type Call = ReturnType<typeof apiClient>;

interface GeneratorSummary {
  slug: string;
  name: string;
  description?: string;
  formats: string[];
  animated: boolean;
  suggestedSize: { width: number; height: number };
}

const text = (value: string) => ({ type: 'text' as const, text: value });
const json = (value: unknown) => JSON.stringify(value, null, 2);
const pick = (args: Args, names: readonly string[]) =>
  Object.fromEntries(names.filter((n) => args[n] !== undefined).map((n) => [n, args[n]])) as Args;
const RECIPE_FIELDS = ['params', 'seed', 'size', 'format', 'quality'] as const;

/** One file rendered by POST /v1/generate/{slug}, with what says how to make it again. */
async function renderOne(call: Call, publicUrl: string, slug: string, recipe: Args) {
  const answer = await call('POST', `/v1/generate/${encodeURIComponent(slug)}`, recipe);
  const encoded = answer.headers.get('x-service-recipe') ?? '';
  const hash = answer.headers.get('x-service-recipe-hash') ?? '';
  const mimeType = (answer.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]!.trim();
  const canonical = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as { format: string };
  return {
    bytes: answer.bytes,
    mimeType,
    format: canonical.format,
    facts: {
      slug,
      recipe: canonical,
      encodedRecipe: encoded,
      hash,
      recipeUrl: `${publicUrl}/v1/render/${hash}?r=${encoded}`,
      bytes: answer.bytes.length,
      credits: Number(answer.headers.get('x-service-credits') ?? 0),
      cache: answer.headers.get('x-service-cache') ?? undefined,
    },
  };
}

type Rendered = Awaited<ReturnType<typeof renderOne>>;

/** The file as MCP content: the image itself for png, webp and jpeg; svg and css as text; gif and mp4 by their recipe URL. */
function fileContent(rendered: Rendered): CallToolResult['content'] {
  if (IMAGE_FORMATS.has(rendered.format)) return [{ type: 'image', data: rendered.bytes.toString('base64'), mimeType: rendered.mimeType }];
  const link = {
    type: 'resource_link' as const,
    uri: rendered.facts.recipeUrl,
    name: `${rendered.facts.slug}.${rendered.format === 'jpeg' ? 'jpg' : rendered.format}`,
    mimeType: rendered.mimeType,
    description: 'The recipe URL of the file (it needs the API key; sign_url makes a public one).',
  };
  if (rendered.format === 'svg' || rendered.format === 'css') return [link, text(rendered.bytes.toString('utf8'))];
  return [link];
}

/** The largest size of the generator's suggested shape whose longer side is `side`. */
function cellSize(suggested: { width: number; height: number }, side: number) {
  const scale = side / Math.max(suggested.width, suggested.height);
  return { width: Math.max(16, Math.round(suggested.width * scale)), height: Math.max(16, Math.round(suggested.height * scale)) };
}

/** The tools and what each does, with the generators' slugs in the descriptions (so render can be the first call). */
function toolList(slugs: readonly string[]): Tool[] {
  const catalogue = slugs.length ? ` Generators: ${slugs.join(', ')}.` : '';
  const recipe = componentSchema('BatchItem');
  const recipeProperties = recipe.properties as Record<string, JsonSchema>;
  return [
    {
      name: 'list_generators',
      description: `Lists every generator of the render service: slug, name, description, formats (png, webp, jpeg, gif, mp4, svg, css), the size it is made for, and whether it is animated.${catalogue} Templates of the workspace: list_templates.`,
      inputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: 'describe_generator',
      description:
        'One generator (or a template, tpl_…): its params as a JSON Schema with their defaults, its formats, the size it is made for and its versions. Use it to choose the params of render.',
      inputSchema: objectSchema({ slug: namedSchema('RecipeSlug') }, ['slug']),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: 'list_templates',
      description:
        "The workspace's templates (tpl_…): layouts with text, images and generator layers, rendered by their id as a slug (render with slug tpl_…, params = the template's variables).",
      inputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: 'render',
      description: `Renders one file from a recipe — slug, params (the generator's; unset ones take their defaults), seed, size, format — and returns it (an image for png, webp and jpeg; a link for gif and mp4; the text of svg and css), with its canonical recipe, its hash and its recipe URL. The same recipe always gives the same bytes. Charges credits like any render (a cached file is free). Defaults: seed 0 (derived from the params), 1920×1080 (ask for less, e.g. 800×450, to keep the answer small), png.${catalogue}`,
      inputSchema: recipe,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    {
      name: 'sweep',
      description: `A contact sheet: the same recipe rendered for several seeds (seeds: a count or a list) or for several values of one param (param: { name, values }), at most ${MAX_SWEEP_CELLS} cells, each small (${SWEEP_CELL_SIDE} px on its longer side unless size is given). Answers ONE image, the cells in a grid numbered from 1 (PNG, at most ${SHEET_MAX_SIDE} px on its longer side), then each cell's number, seed or param value, recipe, hash, recipe URL and credits. The sheet is a view, not a recipe: to keep, cite or change a cell, use its recipe (render it, or its recipe URL). Each cell is a render and charged as one. cells: true adds each cell's own image after the list.`,
      inputSchema: compact({
        ...recipe,
        properties: {
          ...recipeProperties,
          seeds: {
            description: `Seeds to render: a count (that many seeds from the recipe's seed, or 1, up) or a list of seeds. Default 6 when param is not given.`,
            oneOf: [
              { type: 'integer', minimum: 1, maximum: MAX_SWEEP_CELLS },
              { type: 'array', minItems: 1, maxItems: MAX_SWEEP_CELLS, items: recipeProperties.seed },
            ],
          },
          param: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'values'],
            description: 'One param of the generator and the values to render it at (the other params as in params).',
            properties: {
              name: { type: 'string' },
              values: { type: 'array', minItems: 1, maxItems: MAX_SWEEP_CELLS },
            },
          },
          cells: {
            type: 'boolean',
            default: false,
            description:
              "Also answer each cell's own file after the sheet (as render does). Off by default: they cost the context as much as the sheet again.",
          },
        },
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    {
      name: 'sign_url',
      description:
        'A signed public URL of a recipe, for <img>, og:image or a CDN: it renders with no key. keyId names the URL signing key (usk_…); without it the first active key of the workspace signs. Optional expiry (expiresAt or expiresInSeconds).',
      inputSchema: compact({
        ...componentSchema('SignRenderUrlRequest'),
        properties: {
          keyId: { ...parameterSchema('UrlSigningKeyId'), description: "The URL signing key's id (usk_…)." },
          ...(componentSchema('SignRenderUrlRequest').properties as Record<string, JsonSchema>),
        },
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    {
      name: 'quote',
      description:
        'What a render, a batch or an export job would cost in credits, its pixels and frames, an estimate of its time and whether it fits a synchronous render (else use export), without rendering or charging. Give exactly one of render (a render tool argument), batch ({ items }) or job (an export argument).',
      inputSchema: componentSchema('QuoteRequest'),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: 'export',
      description:
        'Submits an export job for a render too long to wait for (a long gif or mp4, a large size): same recipe fields as render; answers at once with the job. Follow it with job_status. Its credits are held at submission and charged when it completes.',
      inputSchema: componentSchema('JobCreate', { omit: ['webhookUrl'] }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    {
      name: 'job_status',
      description: `An export job's status; waits up to waitSeconds (default ${JOB_WAIT_DEFAULT_SECONDS}, at most ${JOB_WAIT_MAX_SECONDS}) for it to finish. A completed job has resultUrl, where its file downloads (the API path needs the key).`,
      inputSchema: objectSchema(
        {
          id: { ...parameterSchema('JobId'), description: 'The job id (job_…) export answered.' },
          waitSeconds: { type: 'integer', minimum: 0, maximum: JOB_WAIT_MAX_SECONDS, default: JOB_WAIT_DEFAULT_SECONDS },
        },
        ['id'],
      ),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
  ];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs one tool. A refusal of the API is the tool's error result, not a protocol error (the agent reads it). */
async function runTool(name: string, args: Args, call: Call, publicUrl: string): Promise<CallToolResult> {
  const absolute = (url: string) => (/^https?:/.test(url) ? url : `${publicUrl}${url}`);
  switch (name) {
    case 'list_generators': {
      const generators = (await call('GET', '/v1/generators')).json<GeneratorSummary[]>();
      const summary = generators.map((g) => ({
        slug: g.slug,
        name: g.name,
        description: g.description,
        formats: g.formats,
        animated: g.animated,
        suggestedSize: g.suggestedSize,
      }));
      const lines = summary.map(
        (g) =>
          `${g.slug} — ${g.name}${g.animated ? ' (animated)' : ''}: ${g.formats.join(', ')}; made for ${g.suggestedSize.width}×${g.suggestedSize.height}. ${g.description ?? ''}`,
      );
      return { content: [text(lines.join('\n'))], structuredContent: { generators: summary } };
    }
    case 'describe_generator': {
      const slug = String(args.slug ?? '');
      if (slug.startsWith('tpl_')) {
        const template = (await call('GET', `/v1/templates/${encodeURIComponent(slug.replace(/@.*$/, ''))}`)).json();
        const facts = { slug, name: template.name, version: template.version, size: template.size, variables: template.variables };
        return {
          content: [text(`${json(facts)}\n\nRender it with render { slug: "${slug}", params: <its variables> }.`)],
          structuredContent: facts,
        };
      }
      const g = (await call('GET', `/v1/generators/${encodeURIComponent(slug)}`)).json<GeneratorSummary & Record<string, unknown>>();
      const facts = {
        slug: g.slug,
        name: g.name,
        description: g.description,
        version: g.version,
        formats: g.formats,
        animated: g.animated,
        suggestedSize: g.suggestedSize,
        defaults: g.defaults,
        paramSchema: g.paramSchema,
        animation: g.animation,
        versions: g.versions,
      };
      const example = { slug: g.slug, size: g.suggestedSize, format: g.formats.includes('png') ? 'png' : g.formats[0] };
      return { content: [text(`${json(facts)}\n\nExample render arguments: ${JSON.stringify(example)}`)], structuredContent: facts };
    }
    case 'list_templates': {
      const templates = (await call('GET', '/v1/templates')).json<Args[]>();
      const listed = templates.map((t) => ({ slug: t.id, name: t.name, version: t.version, size: t.size }));
      return {
        content: [text(listed.length ? json(listed) : 'The workspace has no templates; render a generator (list_generators).')],
        structuredContent: { templates: listed },
      };
    }
    case 'render': {
      const rendered = await renderOne(call, publicUrl, String(args.slug), pick(args, RECIPE_FIELDS));
      return { content: [...fileContent(rendered), text(json(rendered.facts))], structuredContent: rendered.facts };
    }
    case 'sweep': {
      const slug = String(args.slug);
      const base = pick(args, RECIPE_FIELDS);
      const param = args.param as { name: string; values: unknown[] } | undefined;
      if (param && args.seeds !== undefined) throw new Error('give seeds or param, not both');
      const firstSeed = typeof base.seed === 'number' && base.seed > 0 ? base.seed : 1;
      const cells: { label: string; value: unknown; recipe: Args }[] = param
        ? param.values.map((value) => ({
            label: `${param.name}=${JSON.stringify(value)}`,
            value,
            recipe: { ...base, params: { ...((base.params as Args | undefined) ?? {}), [param.name]: value } },
          }))
        : (Array.isArray(args.seeds)
            ? (args.seeds as number[])
            : Array.from({ length: typeof args.seeds === 'number' ? args.seeds : 6 }, (_, i) => firstSeed + i)
          ).map((seed) => ({ label: `seed=${seed}`, value: seed, recipe: { ...base, seed } }));
      if (cells.length > MAX_SWEEP_CELLS) throw new Error(`a sweep has at most ${MAX_SWEEP_CELLS} cells (got ${cells.length})`);
      if (base.size === undefined || base.format === undefined) {
        const g = (await call('GET', `/v1/generators/${encodeURIComponent(slug)}`).catch(() => undefined))?.json<GeneratorSummary>();
        const shape = g?.suggestedSize ?? { width: 16, height: 9 };
        const format = g ? (['webp', 'png', 'jpeg'].find((f) => g.formats.includes(f)) ?? g.formats[0]) : 'png';
        for (const cell of cells) cell.recipe = { size: cellSize(shape, SWEEP_CELL_SIDE), format, ...cell.recipe };
      }
      // Each cell is a render of its own, charged as one, in turn (a sweep is at most 12 small renders).
      const rendered: Rendered[] = [];
      for (const cell of cells) rendered.push(await renderOne(call, publicUrl, slug, cell.recipe));
      const stills = rendered.every((r) => IMAGE_FORMATS.has(r.format));
      // The cells are paid for by now: a sheet that cannot be composed leaves them to be answered one by one.
      let noSheet = stills ? '' : `one is composed of png, webp or jpeg cells, and these are ${rendered[0]!.format}`;
      const sheet = stills
        ? await composeContactSheet(rendered.map((r) => r.bytes)).catch((err: Error) => {
            noSheet = `it could not be composed (${err.message})`;
            return undefined;
          })
        : undefined;
      const facts = cells.map((cell, i) => ({
        index: i + 1,
        label: cell.label,
        value: cell.value,
        ...rendered[i]!.facts,
        ...(sheet ? { onSheet: sheet.cells[i] } : {}),
      }));
      const varies = param ? `params.${param.name}` : 'seed';
      const credits = facts.reduce((sum, f) => sum + f.credits, 0);
      const head = sheet
        ? `Contact sheet of ${slug}: ${cells.length} cells by ${varies}, ${sheet.layout.rows} row${sheet.layout.rows === 1 ? '' : 's'} of ${sheet.layout.columns}, numbered from 1 left to right, top to bottom; ${credits} credit${credits === 1 ? '' : 's'} in all. The sheet is a view, not a recipe: a cell's recipe (or its recipe URL) is what reproduces it.`
        : `${slug}: ${cells.length} cells by ${varies}, ${credits} credit${credits === 1 ? '' : 's'} in all. No sheet: ${noSheet}; each cell's file follows the list.`;
      const list = facts.map(
        (f) =>
          `${f.index}. ${f.label}: hash ${f.hash}, ${f.credits} credit${f.credits === 1 ? '' : 's'}${f.cache ? ` (${f.cache})` : ''}, recipe ${JSON.stringify(f.recipe)}, recipe URL ${f.recipeUrl}`,
      );
      const content: CallToolResult['content'] = [];
      if (sheet) content.push({ type: 'image', data: sheet.png.toString('base64'), mimeType: 'image/png' });
      content.push(text([head, '', ...list].join('\n')));
      // The cells' own files cost the agent's context as much again: only when asked for (or when there is no sheet).
      if (!sheet || args.cells === true) for (const r of rendered) content.push(...fileContent(r));
      const sheetFacts = sheet
        ? { format: 'png', width: sheet.layout.width, height: sheet.layout.height, rows: sheet.layout.rows, columns: sheet.layout.columns }
        : null;
      return { content, structuredContent: { slug, varies, credits, sheet: sheetFacts, cells: facts } };
    }
    case 'sign_url': {
      const { keyId, ...body } = args;
      let id = typeof keyId === 'string' ? keyId : undefined;
      if (!id) {
        const keys = (await call('GET', '/v1/url-signing-keys')).json<{ id: string; revoked: boolean }[]>();
        id = keys.find((k) => !k.revoked)?.id;
        if (!id) throw new Error('the workspace has no URL signing key: create one (POST /v1/url-signing-keys, or the account area)');
      }
      const signed = (await call('POST', `/v1/url-signing-keys/${encodeURIComponent(id)}/sign`, body)).json();
      return { content: [text(json(signed))], structuredContent: signed };
    }
    case 'quote': {
      const quote = (await call('POST', '/v1/quote', args)).json();
      return { content: [text(json(quote))], structuredContent: quote };
    }
    case 'export': {
      const job = (await call('POST', '/v1/jobs', args)).json();
      return {
        content: [text(`${json(job)}\n\nFollow it with job_status { id: "${String(job.id)}" }.`)],
        structuredContent: job,
      };
    }
    case 'job_status': {
      const id = encodeURIComponent(String(args.id));
      const wait = Math.min(JOB_WAIT_MAX_SECONDS, Math.max(0, Number(args.waitSeconds ?? JOB_WAIT_DEFAULT_SECONDS)));
      const deadline = Date.now() + wait * 1000;
      let job = (await call('GET', `/v1/jobs/${id}`)).json();
      // Polled once a second: a job's event stream would need a connection held open per call.
      while (job.finished !== true && Date.now() < deadline) {
        await sleep(Math.min(1000, deadline - Date.now()));
        job = (await call('GET', `/v1/jobs/${id}`)).json();
      }
      if (typeof job.resultUrl === 'string') job = { ...job, resultUrl: absolute(job.resultUrl) };
      const note =
        job.finished === true
          ? job.status === 'completed'
            ? `\n\nThe file: ${String(job.resultUrl)}`
            : ''
          : '\n\nNot finished yet: call job_status again.';
      return { content: [text(`${json(job)}${note}`)], structuredContent: job };
    }
    default:
      throw new Error(`no tool named ${name}`);
  }
}

/**
 * An MCP server whose tools call the service at `connection`. The tool list names the generators,
 * read once per server from GET /v1/generators (public; a failure leaves them out).
 */
export function createMcpServer(connection: ServiceConnection): Server {
  const call = apiClient(connection);
  const publicUrl = connection.publicUrl.replace(/\/+$/, '');
  const server = new Server(
    { name: 'render-service', version: packageVersion() },
    {
      capabilities: { tools: {} },
      instructions:
        'Deterministic images from named generators: the same recipe always gives the same bytes. Render directly with a slug from the render tool, or list_generators → describe_generator → render. Every render answers its recipe, hash and recipe URL: cite them, or change one field and render again.',
    },
  );
  let slugs: Promise<string[]> | undefined;
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    slugs ??= call('GET', '/v1/generators').then(
      (answer) => answer.json<{ slug: string }[]>().map((g) => g.slug),
      () => [],
    );
    return { tools: toolList(await slugs) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    try {
      return await runTool(request.params.name, (request.params.arguments ?? {}) as Args, call, publicUrl);
    } catch (err) {
      return { isError: true, content: [text((err as Error).message)] };
    }
  });
  return server;
}
