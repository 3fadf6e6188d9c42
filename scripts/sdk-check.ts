// npm run sdk:check — do clients generated from the served contract work?
// Starts the service (local mode, a temporary data directory, a free port), generates a client from
// its /v1/openapi.json with each of three generators (default flags, CLIs from node_modules/.bin, no
// network beyond the service), type-checks a consumer per client plus its snippets from docs/clients.md in
// strict TypeScript (5.9), and runs them against the service. Each consumer must call every operation of
// the served contract that has a request body (a body's types are what an SDK gets wrong: a default
// that makes a field required, say). Exit 1 names each generator that failed and the step (coverage,
// generate, typecheck, run) where it failed.
//   --keep   leave .sdk-check/run-* in place to inspect
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { readmeSnippets } from '../test/support/readme-snippets.ts';
import { ROOT, runService, type ServerProcess } from '../test/support/black-box/server-process.ts';

const run = promisify(execFile);
const BIN = path.join(ROOT, 'node_modules/.bin');
/**
 * TypeScript 5.9's compiler by its own path: node_modules/.bin/tsc may be either TypeScript the project
 * installs (the repository's own type check runs TypeScript 7, the package typescript-native).
 */
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const CONSUMERS = path.join(ROOT, 'scripts/sdk-consumers');
const README_URL = 'http://127.0.0.1:8080';

/** An operation of the contract, as a consumer would call it. */
interface Operation {
  operationId: string;
  method: string;
  path: string;
}

interface Generator {
  name: string;
  /** Whether the consumer's source calls `op`. */
  calls(source: string, op: Operation): boolean;
  /** Documentation snippets (by marker, docs/clients.md) written into the client's directory as these files. */
  snippets: Record<string, string>;
  /** Generates the client into `dir` from the served document. */
  generate(dir: string, url: string): Promise<unknown>;
}

const GENERATORS: Generator[] = [
  {
    name: 'openapi-fetch',
    calls: (source, op) => new RegExp(`\\bclient\\.${op.method.toUpperCase()}\\(\\s*'${op.path.replace(/[{}]/g, '\\$&')}'`).test(source),
    snippets: { 'openapi-fetch': 'readme.ts' },
    generate: (dir, url) => run(path.join(BIN, 'openapi-typescript'), [`${url}/v1/openapi.json`, '-o', 'render-service.ts'], { cwd: dir }),
  },
  {
    name: 'hey-api',
    calls: (source, op) => new RegExp(`\\b${op.operationId}\\(`).test(source),
    snippets: { 'hey-api': 'readme.ts' },
    generate: (dir, url) =>
      run(path.join(BIN, 'openapi-ts'), ['-i', `${url}/v1/openapi.json`, '-o', 'render-service'], { cwd: dir, timeout: 240_000 }),
  },
  {
    name: 'orval',
    // An upload is sent to orval's URL helper through the mutator: orval 7 JSON-encodes every body (docs/clients.md).
    calls: (source, op) =>
      new RegExp(`\\b${op.operationId}\\(`).test(source) ||
      new RegExp(`\\bget${op.operationId[0]!.toUpperCase()}${op.operationId.slice(1)}Url\\(`).test(source),
    snippets: { 'orval-config': 'orval.config.ts', 'orval-mutator': 'render-service-fetch.ts', orval: 'readme.ts' },
    generate: (dir) => run(path.join(BIN, 'orval'), ['--config', 'orval.config.ts'], { cwd: dir, timeout: 240_000 }),
  },
];

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    noUncheckedIndexedAccess: true,
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  },
  include: ['**/*.ts'],
};

function failure(err: unknown): string {
  const e = err as { stdout?: string; stderr?: string; message?: string };
  return [e.stdout, e.stderr].filter(Boolean).join('\n').trim() || String(e.message ?? err);
}

/** The operations of a served contract that take a request body. */
async function operationsWithBody(url: string): Promise<Operation[]> {
  const document = (await (await fetch(`${url}/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { operationId?: string; requestBody?: unknown }>>;
  };
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, op]) => typeof op === 'object' && op.operationId && op.requestBody)
      .map(([method, op]) => ({ operationId: op.operationId!, method, path })),
  );
}

/** Writes a generator's consumer, snippets and tsconfig into `dir` and generates its client; a problem, or undefined. */
async function prepareGenerator(
  gen: Generator,
  dir: string,
  service: ServerProcess,
  snippets: Map<string, string>,
  withBody: readonly Operation[],
): Promise<string | undefined> {
  const consumer = readFileSync(path.join(CONSUMERS, `${gen.name}.consumer.ts`), 'utf8');
  const uncalled = withBody.filter((op) => !gen.calls(consumer, op));
  if (uncalled.length > 0)
    return `coverage failed: scripts/sdk-consumers/${gen.name}.consumer.ts calls no ${uncalled
      .map((op) => `${op.operationId} (${op.method.toUpperCase()} ${op.path})`)
      .join(', ')}; every operation with a request body is called, with the body the docs send`;
  mkdirSync(dir, { recursive: true });
  for (const [marker, file] of Object.entries(gen.snippets)) {
    const source = snippets.get(marker);
    if (!source) return `neither README.md nor docs/ has a \`<!-- snippet: ${marker} -->\` block (docs/clients.md holds them)`;
    writeFileSync(path.join(dir, file), source.replaceAll(README_URL, service.url));
  }
  copyFileSync(path.join(CONSUMERS, 'consumer-kit.ts'), path.join(dir, 'consumer-kit.ts'));
  copyFileSync(path.join(CONSUMERS, `${gen.name}.consumer.ts`), path.join(dir, 'consumer.ts'));
  // Its own tsconfig, to type-check one client by hand (--keep); the run checks them all at once.
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  return phase('generate', () => gen.generate(dir, service.url));
}

async function phase(name: string, work: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await work();
    return undefined;
  } catch (err) {
    return `${name} failed:\n${failure(err)}`;
  }
}

/**
 * Type-checks the clients' directories under `work` in one strict program (one tsc reads TypeScript's
 * and Node's declarations once, not once per client): each client's problem, by its directory name.
 */
async function typecheck(work: string, names: readonly string[]): Promise<Map<string, string>> {
  writeFileSync(path.join(work, 'tsconfig.json'), JSON.stringify({ ...TSCONFIG, include: names.map((n) => `${n}/**/*.ts`) }, null, 2));
  const problems = new Map<string, string>();
  const failed = await phase('typecheck (tsc, strict)', () => run(TSC, ['-p', 'tsconfig.json'], { cwd: work, timeout: 360_000 }));
  if (!failed) return problems;
  // tsc names each file relative to the project: `<client>/consumer.ts(12,3): error TS…`.
  const lines = failed.split('\n');
  for (const name of names) {
    const own = lines.filter((line) => line.startsWith(`${name}/`));
    if (own.length > 0) problems.set(name, `typecheck (tsc, strict) failed:\n${own.join('\n')}`);
  }
  // Nothing attributable (tsc itself failed): every client's problem.
  if (problems.size === 0) for (const name of names) problems.set(name, failed);
  return problems;
}

/** Runs a client's consumer and its docs snippet against the service; a problem, or undefined. */
async function runGenerator(gen: Generator, dir: string, service: ServerProcess, key: string): Promise<string | undefined> {
  const env = { ...process.env, RENDER_SERVICE_URL: service.url, RENDER_SERVICE_KEY: key };
  return (
    (await phase('run consumer.ts', async () => {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', 'consumer.ts'], { cwd: dir, env, timeout: 240_000 });
      process.stdout.write(`${stdout.trimEnd().replace(/^/gm, `[${gen.name}] `)}\n`);
    })) ??
    (await phase('run readme.ts (the docs/clients.md snippet)', () =>
      run(process.execPath, ['--import', 'tsx', 'readme.ts'], { cwd: dir, env, timeout: 240_000 }),
    ))
  );
}

async function main(): Promise<number> {
  const started = Date.now();
  const snippets = readmeSnippets();
  mkdirSync(path.join(ROOT, '.sdk-check'), { recursive: true });
  // Inside the project (git-ignored), so the generated clients resolve openapi-fetch, orval and tsx from its node_modules.
  const work = mkdtempSync(path.join(ROOT, '.sdk-check', 'run-'));
  const service = await runService({ DATA_DIR: path.join(work, 'data'), HOST: '127.0.0.1', SERVICE_LOCAL_MODE: '1' });
  try {
    const key = readFileSync(path.join(work, 'data', 'local-api-key'), 'utf8').trim();
    console.log(`sdk:check against ${service.url} (${work})`);
    const withBody = await operationsWithBody(service.url);
    console.log(`operations with a request body, each called by every consumer: ${withBody.map((op) => op.operationId).join(', ')}`);
    const dir = (gen: Generator) => path.join(work, gen.name);
    const began = Date.now();
    const prepared = await Promise.all(GENERATORS.map((gen) => prepareGenerator(gen, dir(gen), service, snippets, withBody)));
    const generated = GENERATORS.filter((_, i) => !prepared[i]);
    const typeProblems = await typecheck(
      work,
      generated.map((gen) => gen.name),
    );
    const results = await Promise.all(
      GENERATORS.map(async (gen, i) => {
        const problem = prepared[i] ?? typeProblems.get(gen.name) ?? (await runGenerator(gen, dir(gen), service, key));
        if (!problem) console.log(`[${gen.name}] passed in ${((Date.now() - began) / 1000).toFixed(1)} s`);
        return [gen.name, problem] as const;
      }),
    );
    const failed = results.filter(([, problem]) => problem);
    for (const [name, problem] of failed) console.error(`\n[${name}] FAILED — ${problem}`);
    console.log(
      `\nsdk:check: ${results.length - failed.length}/${results.length} generators passed in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    return failed.length ? 1 : 0;
  } finally {
    await service.stop();
    if (!process.argv.includes('--keep')) rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main();
