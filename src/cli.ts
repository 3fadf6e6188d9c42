// `render-service` command line: renders exactly the bytes the API returns for the same recipe,
// through the same engine (recipe resolution, the render worker's code, encoders), on its own
// thread. Mistakes are caught before any rendering (the output path, the format, the options) and
// named by the option that holds them.
// Exit codes: 0 done, 1 the render failed, 2 the command line is wrong.
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ENGINE_VERSION } from './engine/versions.ts';
import { FORMATS, OUTPUT_FORMATS, type OutputFormat } from './lib/formats.ts';
import { ProblemError } from './errors/problem.ts';
import { packagePath } from './lib/package-root.ts';
import type { GeneratorDefinition } from './generators/generator.types.ts';
import type { GeneratorRegistry } from './generators/registry.ts';
import type { FieldPaths, ResolvedRecipe } from './engine/recipe.ts';
import type { RenderEngine } from './services/render-engine.factory.ts';
import { signTarget, signingKeyOf } from './lib/url-signature.ts';
import { sha256Hex } from './lib/hashing.ts';
import { extract } from './engine/recipe-metadata.ts';

// The generators, the recipe rules and the render engine are imported only by the commands that use
// them (list, describe, render, sign): --version, help and inspect start in a fraction of the time.

/** Where `render-service sign` reads the signing secret: never an argument, which would land in shell history. */
const SIGNING_SECRET_ENV = 'RENDER_SERVICE_SIGNING_SECRET';

const USAGE = `Usage:
  render-service list                       the generators, their versions and formats
  render-service describe <slug>            one generator's formats and parameters
  render-service render <slug> [options]    one file, byte for byte what the API returns
  render-service render --recipe <base64url> [-o FILE]
  render-service render --template card.json [--assets DIR] [options]    a template and its assets, as the API renders it
  render-service sign <slug> --key-id usk_… [options]    a signed public URL, offline (docs/embedding.md)
  render-service sign --recipe <base64url> --key-id usk_… [options]
  render-service inspect FILE               the recipe a rendered file carries, as JSON (any format)
  render-service help | --help | --version
  render-service admin …                    operator commands (render-service admin help)
  render-service mcp                        an MCP server on standard input and output, for AI agents
                                            (docs/mcp.md): its tools call the service at RENDER_SERVICE_URL
                                            (default http://127.0.0.1:8080) with the key in RENDER_SERVICE_KEY

Options of render:
  -o, --output FILE   write to FILE; its extension (.png .webp .jpg .gif .mp4 .svg .css) picks the
                      format unless --format does. Without -o (or with -o -) the file goes to standard
                      output, which must not be a terminal for png, webp, gif and mp4.
  --format F          ${OUTPUT_FORMATS.join(', ')}
  --quality N         jpeg's quality, 1–100 (default ${FORMATS.jpeg.defaultQuality}); jpeg only
  --seed N            the seed (0, the default, derives it from the params)
  --size WxH[@R]      width × height in CSS pixels, optionally at pixel ratio R (e.g. 1200x630@2)
  --params JSON       the generator's parameters, e.g. '{"cells":6}' (see describe <slug>); a
                      template's variables, where an image variable may name a file of --assets
  --template FILE     a template: a version as GET /v1/templates/{id}/versions/{n} answers it (the
                      API's bytes), or a body as POST /v1/templates takes it (rendered as tpl_local@1)
  --assets DIR        the images and fonts the template draws; a layer may name a file for its id

Options of sign (and the recipe options of render; the secret only from RENDER_SERVICE_SIGNING_SECRET):
  --key-id ID         the URL signing key's id (usk_…)
  --base-url URL      the service's public URL (default http://127.0.0.1:8080)
  --expires-in N      the URL expires N seconds from now (default: never)
  --extension         the path form with the file extension (/v1/render/<hash>.png?…, .jpg for jpeg)`;

/** A mistake on the command line: exit 2, with the usage hint when the command itself is wrong. */
class UsageError extends Error {}

/** Levenshtein distance, for "did you mean". */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}

/** ` Did you mean "x"?` for the closest candidate within a few edits, else ''. */
function didYouMean(input: string, candidates: readonly string[]): string {
  const [best] = candidates
    .map((c) => ({ c, d: c.startsWith(input) || input.startsWith(c) ? 1 : distance(input, c) }))
    .sort((x, y) => x.d - y.d);
  return best && best.d <= Math.max(2, Math.floor(input.length / 3)) ? ` Did you mean "${best.c}"?` : '';
}

function parseSize(text: string): { width: number; height: number; pixelRatio?: number } {
  const m = /^(\d+)x(\d+)(?:@([\d.]+))?$/.exec(text);
  if (!m) throw new UsageError(`--size must look like 800x600 or 800x600@2 (got "${text}")`);
  return { width: Number(m[1]), height: Number(m[2]), ...(m[3] ? { pixelRatio: Number(m[3]) } : {}) };
}

function parseSeed(text: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`--seed must be a whole number (got "${text}")`);
  return Number(text);
}

function parseQuality(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new UsageError(`--quality must be a whole number from 1 to 100 (got "${text}")`);
  return Number(text);
}

function parseParams(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--params must be a JSON object, e.g. '{"cells":6}' with the names in double quotes (${(err as Error).message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UsageError('--params must be a JSON object');
  return value as Record<string, unknown>;
}

/** The format a file name asks for, by its extension (or the format's name: .jpeg as .jpg); undefined for an extension no format has. */
function formatOfFile(file: string): OutputFormat | undefined {
  const extension = path.extname(file).slice(1).toLowerCase();
  return OUTPUT_FORMATS.find((f) => FORMATS[f].extension === extension || f === extension);
}

/** Refuses an output file that cannot be written, before anything is rendered. */
function checkWritable(file: string): void {
  const dir = path.dirname(path.resolve(file));
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    // missing: reported below
  }
  if (!isDir) throw new UsageError(`-o ${file}: the directory ${dir} does not exist`);
  try {
    if (statSync(file).isDirectory()) throw new UsageError(`-o ${file} is a directory; give a file name`);
  } catch (err) {
    if (err instanceof UsageError) throw err;
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new UsageError(`-o ${file}: the directory ${dir} is not writable`);
  }
}

function describe(gen: GeneratorDefinition, defaultSize: () => { width: number; height: number }): string {
  const lines = [
    `${gen.name} (${gen.slug} ${gen.version})${gen.animated ? ', animated' : ''}`,
    gen.description,
    '',
    `Formats: ${gen.formats.join(', ')}`,
    `Default size: ${defaultSize().width}×${defaultSize().height} (--size changes it)${gen.suggestedSize ? `; made for ${gen.suggestedSize.width}×${gen.suggestedSize.height}` : ''}`,
    '',
    'Parameters (--params):',
  ];
  for (const [name, schema] of Object.entries(gen.paramSchema.properties)) {
    const s = schema as {
      type?: string;
      minimum?: number;
      maximum?: number;
      enum?: unknown[];
      description?: string;
      items?: { type?: string };
    };
    const range =
      s.enum !== undefined
        ? `one of ${s.enum.map((v) => JSON.stringify(v)).join(', ')}`
        : s.minimum !== undefined || s.maximum !== undefined
          ? `${s.type} ${s.minimum ?? '…'}–${s.maximum ?? '…'}`
          : s.type === 'array'
            ? `array of ${s.items?.type ?? 'values'}`
            : (s.type ?? 'value');
    const value = (gen.defaults as Record<string, unknown>)[name];
    lines.push(`  ${name.padEnd(16)} ${range}; default ${JSON.stringify(value)}`);
    if (s.description) lines.push(`  ${''.padEnd(16)} ${s.description}`);
  }
  lines.push('', `Example: render-service render ${gen.slug} --size 1200x630 -o ${gen.slug}.${FORMATS[gen.formats[0]].extension}`);
  return lines.join('\n');
}

function version(): string {
  const { version: packageVersion } = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as { version: string };
  return `render-service ${packageVersion} (engine ${ENGINE_VERSION}, node ${process.versions.node})`;
}

/** Where the options' mistakes are reported: a problem's issue paths name the option. */
const OPTION_PATHS: FieldPaths = { params: '--params', seed: '--seed', size: '--size', format: '--format', quality: '--quality' };

/** The recipe of a template file with the assets of a folder, resolved as the API resolves a template's (templates.service.ts). */
async function templateRecipe(
  values: { template?: string; assets?: string; params?: string; seed?: string; size?: string; format?: string; quality?: string },
  registry: GeneratorRegistry,
  fileFormat: OutputFormat | undefined,
): Promise<ResolvedRecipe> {
  const { readTemplateFiles, resolveTemplateFiles, TemplateFileError } = await import('./services/template-files.ts');
  const format = values.format ?? fileFormat;
  if (format !== undefined && !OUTPUT_FORMATS.includes(format as OutputFormat))
    throw new UsageError(`--format must be one of ${OUTPUT_FORMATS.join(', ')} (got "${format}").${didYouMean(format, OUTPUT_FORMATS)}`);
  try {
    const files = await readTemplateFiles(values.template!, values.assets);
    return await resolveTemplateFiles(
      files,
      registry,
      {
        seed: values.seed !== undefined ? parseSeed(values.seed) : undefined,
        size: values.size ? parseSize(values.size) : undefined,
        format: format as OutputFormat | undefined,
        params: values.params ? parseParams(values.params) : {},
        quality: parseQuality(values.quality),
      },
      OPTION_PATHS,
    );
  } catch (err) {
    throw err instanceof TemplateFileError ? new UsageError(err.message) : err;
  }
}

async function main(argv: string[]): Promise<number> {
  // Operator commands need the database and the account services, which renders never load.
  if (argv[0] === 'admin') {
    const [{ runAdmin }, { composeAdmin }, { createLogger }, { loadConfig }] = await Promise.all([
      import('./admin.ts'),
      import('./compose-admin.ts'),
      import('./lib/logger.ts'),
      import('./config/config.ts'),
    ]);
    const io = { out: (t: string) => void process.stdout.write(t), err: (t: string) => void process.stderr.write(t) };
    return runAdmin(argv.slice(1), io, composeAdmin, loadConfig(process.env), createLogger('warn', process.stderr));
  }
  // The MCP server calls the service over HTTP: it loads neither the engine nor the generators.
  if (argv[0] === 'mcp') {
    if (argv.length > 1)
      throw new UsageError(`mcp takes no arguments (got "${argv[1]}"); it reads RENDER_SERVICE_URL and RENDER_SERVICE_KEY`);
    const { serveStdio } = await import('./mcp/stdio.ts');
    try {
      await serveStdio(process.env);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    return 0;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        seed: { type: 'string' },
        size: { type: 'string' },
        format: { type: 'string' },
        quality: { type: 'string' },
        params: { type: 'string' },
        recipe: { type: 'string' },
        template: { type: 'string' },
        assets: { type: 'string' },
        output: { type: 'string', short: 'o' },
        'key-id': { type: 'string' },
        'base-url': { type: 'string' },
        'expires-in': { type: 'string' },
        extension: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  const [command, slug, ...extra] = positionals;

  if (values.version) {
    process.stdout.write(version() + '\n');
    return 0;
  }
  if (values.help || command === 'help') {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  if (!command) {
    process.stderr.write(USAGE + '\n');
    return 2;
  }
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  if (command === 'inspect') {
    process.stdout.write(JSON.stringify(await inspect(slug), null, 2) + '\n');
    return 0;
  }
  if (command !== 'list' && command !== 'describe' && command !== 'render' && command !== 'sign')
    throw new UsageError(
      `unknown command "${command}".${didYouMean(command, ['list', 'describe', 'render', 'sign', 'inspect', 'mcp', 'help'])}\n\n${USAGE}`,
    );

  // Everything that can be checked is checked before the render starts, the output first.
  const renders = command === 'render' || command === 'sign';
  const output = renders && values.output && values.output !== '-' ? values.output : undefined;
  if (output && command === 'sign') throw new UsageError('sign writes the URL to standard output; -o is for render');
  if (output) checkWritable(output);
  const fileFormat = output ? formatOfFile(output) : undefined;
  // A name that promises another format (x.tiff) would hold bytes of one of ours: refused, not written.
  if (output && fileFormat === undefined && path.extname(output) !== '')
    throw new UsageError(
      `-o ${output}: ${path.extname(output)} is not a format this service renders; name the file .${OUTPUT_FORMATS.map((f) => FORMATS[f].extension).join(', .')} (or leave the extension off and use --format)`,
    );
  // The engine starts now: its render module and the encoders load beside the generators and the
  // recipe's checks. FFmpeg is probed only once the recipe is known to need it.
  let motion: (needed: boolean) => void = () => undefined;
  const engineStarting = command === 'render' ? startEngine(new Promise<boolean>((resolve) => (motion = resolve))) : undefined;
  engineStarting?.catch(() => undefined); // a failure is reported where it is awaited, after the recipe's checks

  const [{ ALL_GENERATORS }, { GeneratorRegistry }, { defaultSize, resolveEncodedRecipe, resolveRecipe }] = await Promise.all([
    import('./generators/index.ts'),
    import('./generators/registry.ts'),
    import('./engine/recipe.ts'),
  ]);
  // A --recipe (or a template's layer) may pin a superseded version: only then are they loaded (a slug renders the current one).
  const registry = new GeneratorRegistry(
    ALL_GENERATORS,
    values.recipe || values.template
      ? (await import('./generators/releases/index.ts')).ALL_RELEASES
      : (await import('./generators/releases/current.ts')).CURRENT_RELEASES,
  );
  const slugs = registry.list().map((g) => g.slug);
  const generator = (name: string | undefined, what: string) => {
    if (!name) throw new UsageError(`${what} needs a generator slug (render-service list shows them)`);
    const found = registry.get(name);
    if (!found) throw new UsageError(`there is no generator "${name}".${didYouMean(name, slugs)} render-service list shows them all.`);
    return found;
  };
  if (command === 'list') {
    for (const g of registry.list())
      process.stdout.write(`${g.slug.padEnd(20)} ${g.version.padEnd(8)} ${g.formats.join(',').padEnd(28)} ${g.name}\n`);
    return 0;
  }
  if (command === 'describe') {
    process.stdout.write(describe(generator(slug, 'describe'), defaultSize) + '\n');
    return 0;
  }

  // A recipe's text is checked by the shaper, which loads asynchronously (list and describe need none;
  // a generator without text does not either).
  if (values.assets !== undefined && values.template === undefined) throw new UsageError('--assets goes with --template');
  // A template's generator layers prepare themselves (templates.service.ts); a slug prepares its own.
  if (values.template === undefined) await registry.ready(values.recipe ? recipeGenerator(values.recipe) : slug);
  let resolved: ResolvedRecipe;
  if (values.template !== undefined) {
    if (slug || values.recipe) throw new UsageError('give one of a generator slug, --recipe or --template');
    resolved = await templateRecipe(values, registry, fileFormat);
  } else if (values.recipe) {
    if (slug) throw new UsageError('give either a generator slug or --recipe, not both');
    for (const option of ['seed', 'size', 'format', 'params', 'quality'] as const)
      if (values[option] !== undefined) throw new UsageError(`--${option} cannot change a --recipe (it holds the whole recipe)`);
    try {
      resolved = resolveEncodedRecipe(registry, undefined, values.recipe);
    } catch (err) {
      // The recipe decoded but names a generator this version does not have: say so as for a slug.
      const named = err instanceof ProblemError && err.code === 'generator_not_found' ? /"([^"]*)"/.exec(err.detail ?? '')?.[1] : undefined;
      if (named === undefined) throw err;
      throw new UsageError(
        `--recipe names generator "${named}", which this version does not have.${didYouMean(named, slugs)} render-service list shows them all.`,
      );
    }
  } else {
    const gen = generator(slug, command);
    const format = values.format ?? fileFormat;
    if (format !== undefined && !OUTPUT_FORMATS.includes(format as OutputFormat))
      throw new UsageError(`--format must be one of ${OUTPUT_FORMATS.join(', ')} (got "${format}").${didYouMean(format, OUTPUT_FORMATS)}`);
    resolved = resolveRecipe(
      registry,
      gen.slug,
      {
        seed: values.seed !== undefined ? parseSeed(values.seed) : undefined,
        size: values.size ? parseSize(values.size) : undefined,
        format: format as OutputFormat | undefined,
        params: values.params ? parseParams(values.params) : undefined,
        quality: parseQuality(values.quality),
      },
      OPTION_PATHS,
    );
  }
  if (command === 'sign') {
    process.stdout.write(signedUrl(resolved, values) + '\n');
    return 0;
  }
  const { format } = resolved.recipe;
  if (output && fileFormat && fileFormat !== format)
    throw new UsageError(`-o ${output} names a ${fileFormat} file, but the recipe renders ${format}; change the file name or --format`);
  if (!output && FORMATS[format].kind !== 'text' && process.stdout.isTTY)
    throw new UsageError(`a ${format} file is binary: give -o FILE, or redirect standard output (> file.${FORMATS[format].extension})`);

  motion(FORMATS[format].kind === 'motion');
  const engine = await engineStarting!;
  const started = performance.now();
  const { width, height, pixelRatio } = resolved.recipe.size;
  const what = `${resolved.recipe.generator} ${format} ${width}×${height}${pixelRatio !== 1 ? `@${pixelRatio}` : ''}`;
  // Progress on standard error: a line that updates itself on a terminal, a line per quarter otherwise.
  let lastQuarter = -1;
  const onProgress = (frame: number, frames: number) => {
    if (process.stderr.isTTY) process.stderr.write(`\r${what}: frame ${frame}/${frames}`);
    else if (Math.floor((4 * frame) / frames) > lastQuarter) {
      lastQuarter = Math.floor((4 * frame) / frames);
      process.stderr.write(`${what}: frame ${frame}/${frames}\n`);
    }
  };
  try {
    const result = await engine.service.render(resolved, { mode: 'job', ...(FORMATS[format].kind === 'motion' ? { onProgress } : {}) });
    if (process.stderr.isTTY && lastQuarter === -1 && FORMATS[format].kind === 'motion') process.stderr.write('\n');
    if (output) await writeFile(output, result.bytes);
    else process.stdout.write(result.bytes);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stderr.write(
      `${output ?? 'standard output'}: ${what}, ${result.bytes.length} bytes in ${seconds} s; recipe ${resolved.hash}\n`,
    );
  } finally {
    await engine.close();
  }
  return 0;
}

/** The generator a --recipe names, read without checking anything (resolveEncodedRecipe does); undefined when it cannot be read. */
function recipeGenerator(encoded: string): string | undefined {
  try {
    const { generator } = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as { generator?: unknown };
    return typeof generator === 'string' ? generator : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The engine of one render: no cache (every run renders), rendering on this thread (a worker thread
 * would load the canvas, the encoders and the generators again) and generous time limits (nothing
 * waits behind it). `needsFfmpeg` settles once the recipe is known: a still or a text
 * never runs FFmpeg, so it is probed (a process of its own) only for gif and mp4.
 */
async function startEngine(needsFfmpeg: Promise<boolean>): Promise<RenderEngine> {
  const [{ loadConfig }, { createRenderEngine }, { probeFfmpegVersion, resolveFfmpeg }] = await Promise.all([
    import('./config/config.ts'),
    import('./services/render-engine.factory.ts'),
    import('./engine/ffmpeg.ts'),
  ]);
  const config = loadConfig(process.env);
  return createRenderEngine(
    {
      ffmpegPath: config.ffmpegPath,
      render: { workers: 1, queueLimit: 1, timeoutMs: 600_000, animationBudgetMs: 600_000, inThread: true },
    },
    { ffmpegVersion: needsFfmpeg.then((needed) => (needed ? probeFfmpegVersion(resolveFfmpeg(config.ffmpegPath)) : undefined)) },
  );
}

/** `render-service inspect FILE`: the recipe the file carries (recipe-metadata.ts), checked against its hash. */
async function inspect(file: string | undefined): Promise<Record<string, unknown>> {
  if (!file) throw new UsageError('inspect needs a file: render-service inspect FILE');
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const found = extract(bytes);
  if (!found)
    throw new UsageError(
      `${file} carries no render-service recipe (files rendered by engine 1.3.0 or later carry one unless their metadata was stripped)`,
    );
  const json = Buffer.from(found.recipe, 'base64url').toString('utf8');
  if (sha256Hex(json) !== found.hash)
    throw new UsageError(`${file}: the recipe it carries does not match its hash (the metadata was altered)`);
  const recipe = JSON.parse(json) as Record<string, unknown>;
  return {
    generator: recipe.generator,
    version: recipe.version,
    params: recipe.params,
    seed: recipe.seed,
    size: recipe.size,
    format: recipe.format,
    ...(recipe.quality !== undefined ? { quality: recipe.quality } : {}),
    ...(recipe.assets !== undefined ? { assets: recipe.assets } : {}),
    hash: found.hash,
    engineVersion: found.engineVersion,
    recipe: found.recipe,
  };
}

/** `render-service sign`: the signed URL of a recipe, built offline with the secret from the environment. */
function signedUrl(
  resolved: ResolvedRecipe,
  values: { 'key-id'?: string; 'base-url'?: string; 'expires-in'?: string; extension?: boolean },
): string {
  const secret = process.env[SIGNING_SECRET_ENV]?.trim();
  if (!secret) throw new UsageError(`sign reads the URL signing key's secret from ${SIGNING_SECRET_ENV} (never an argument); set it`);
  const keyId = values['key-id'];
  if (!keyId || !/^usk_[A-Za-z0-9_-]+$/.test(keyId)) throw new UsageError("sign needs --key-id usk_… (the URL signing key's id)");
  let base: URL;
  try {
    base = new URL(values['base-url'] ?? 'http://127.0.0.1:8080');
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new UsageError(`--base-url must be an http or https URL (got "${values['base-url']}")`);
  }
  const expiresIn = values['expires-in'];
  if (expiresIn !== undefined && !/^[1-9]\d{0,9}$/.test(expiresIn))
    throw new UsageError(`--expires-in must be a number of seconds (got "${expiresIn}")`);
  const exp = expiresIn === undefined ? null : Math.floor(Date.now() / 1000) + Number(expiresIn);
  const extension = values.extension ? `.${FORMATS[resolved.recipe.format].extension}` : '';
  const target = `/v1/render/${resolved.hash}${extension}?r=${resolved.encoded}`;
  return `${base.origin}${base.pathname.replace(/\/+$/, '')}${signTarget(signingKeyOf(secret), target, keyId, exp)}`;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof UsageError) {
      process.stderr.write(`render-service: ${err.message}\n`);
      return process.exit(2);
    }
    if (err instanceof ProblemError) {
      // Validation problems list each field (named by its option); others say what went wrong.
      const text = err.issues?.length ? err.issues.map((i) => `${i.path} ${i.message}`).join('\n  ') : (err.detail ?? err.message);
      process.stderr.write(`render-service: ${text}\n`);
      // A recipe the engine refuses is the caller's mistake; anything else is the render failing.
      return process.exit(err.status < 500 ? 2 : 1);
    }
    process.stderr.write(`render-service: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
