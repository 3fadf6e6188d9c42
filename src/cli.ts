// `render-service` command line: renders exactly the bytes the API returns for the same recipe,
// through the same engine (recipe resolution, worker, encoders).
//   render-service list
//   render-service render <slug> [--seed N] [--size WxH[@PR]] [--format F] [--params JSON] [-o FILE]
//   render-service render --recipe <base64url> [-o FILE]
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { loadConfig } from './config/config.ts';
import { ProblemError } from './errors/problem.ts';
import { ALL_GENERATORS } from './generators/index.ts';
import { GeneratorRegistry } from './generators/registry.ts';
import { OUTPUT_FORMATS, type OutputFormat } from './generators/generator.types.ts';
import { type ResolvedRecipe, recipePaths, resolveEncodedRecipe, resolveRecipe } from './engine/recipe.ts';
import { createRenderEngine } from './services/render-engine.factory.ts';

const USAGE = `Usage:
  render-service list
  render-service render <slug> [--seed N] [--size WxH[@PR]] [--format png|webp|gif|mp4|svg|css] [--params JSON] [-o FILE]
  render-service render --recipe <base64url> [-o FILE]

Writes to FILE, or to standard output when -o is omitted or "-".`;

function parseSize(text: string): { width: number; height: number; pixelRatio?: number } {
  const m = /^(\d+)x(\d+)(?:@([\d.]+))?$/.exec(text);
  if (!m) throw new Error(`--size must look like 800x600 or 800x600@2 (got "${text}")`);
  return { width: Number(m[1]), height: Number(m[2]), ...(m[3] ? { pixelRatio: Number(m[3]) } : {}) };
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      seed: { type: 'string' },
      size: { type: 'string' },
      format: { type: 'string' },
      params: { type: 'string' },
      recipe: { type: 'string' },
      output: { type: 'string', short: 'o' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, slug] = positionals;
  const registry = new GeneratorRegistry(ALL_GENERATORS);
  if (values.help || !command) {
    process.stdout.write(USAGE + '\n');
    return values.help ? 0 : 2;
  }
  if (command === 'list') {
    for (const g of registry.list())
      process.stdout.write(`${g.slug.padEnd(20)} ${g.version.padEnd(8)} ${g.formats.join(',').padEnd(28)} ${g.name}\n`);
    return 0;
  }
  if (command !== 'render') throw new Error(`unknown command "${command}"\n${USAGE}`);

  let resolved: ResolvedRecipe;
  if (values.recipe) {
    resolved = resolveEncodedRecipe(registry, undefined, values.recipe);
  } else {
    if (!slug) throw new Error(`render needs a generator slug or --recipe\n${USAGE}`);
    const format = values.format as OutputFormat | undefined;
    if (format && !OUTPUT_FORMATS.includes(format)) throw new Error(`--format must be one of ${OUTPUT_FORMATS.join(', ')}`);
    resolved = resolveRecipe(
      registry,
      slug,
      {
        seed: values.seed !== undefined ? Number(values.seed) : undefined,
        size: values.size ? parseSize(values.size) : undefined,
        format,
        params: values.params ? JSON.parse(values.params) : undefined,
      },
      recipePaths('recipe'),
    );
  }

  // One render, no cache (every run renders), one worker and generous time limits: nothing waits behind it.
  const config = loadConfig(process.env);
  const engine = await createRenderEngine({
    ffmpegPath: config.ffmpegPath,
    render: { workers: 1, queueLimit: 1, timeoutMs: 600_000, animationBudgetMs: 600_000 },
  });
  try {
    const result = await engine.service.render(resolved, { mode: 'job' });
    if (!values.output || values.output === '-') process.stdout.write(result.bytes);
    else {
      await writeFile(values.output, result.bytes);
      process.stderr.write(`${values.output}: ${result.bytes.length} bytes, ${result.contentType}, recipe ${resolved.hash}\n`);
    }
  } finally {
    await engine.close();
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(
      `render-service: ${err instanceof ProblemError ? `${err.code}: ${err.detail ?? err.message}` : (err as Error).message}\n`,
    );
    process.exit(1);
  },
);
