// `render-service admin …`: an operator's commands, on the server's own configuration and database
// (the same environment as `npm start`). Every change goes through the services the API uses:
// credits are ledger entries with a reason (never a balance edited in place), keys are created and
// revoked as the API does (a revocation reaches running servers at once on Postgres).
// Exit codes: 0 done, 1 it failed, 2 the command line is wrong.
import { parseArgs } from 'node:util';
import type { Logger } from 'pino';
import type { Config } from './config/config.ts';
import type { AdminRuntime } from './compose-admin.ts';
import { ProblemError } from './errors/problem.ts';
import { jobView } from './jobs/jobs.service.ts';
import { newId } from './lib/ids.ts';

export const ADMIN_USAGE = `Usage (same settings and database as the server: DATABASE_URL or DATA_DIR):
  render-service admin workspaces [--json]                       every workspace: balance, renders in 30 days
  render-service admin workspace create --name NAME [--id ID]    a team workspace (for API keys)
  render-service admin credits grant <workspace> <n> --reason TEXT
  render-service admin credits deduct <workspace> <n> --reason TEXT
  render-service admin keys <workspace>                          its keys (never their secrets)
  render-service admin key create <workspace> [--label TEXT]     prints the secret once
  render-service admin key revoke <workspace> <key-id>
  render-service admin job <job-id>                              the job as JSON`;

/** A mistake on the command line (exit 2). */
class AdminUsageError extends Error {}

const WORKSPACE_ID = /^ws_[A-Za-z0-9_-]{3,60}$/;
const MAX_CREDITS = 1_000_000_000;
const DAY_MS = 86_400_000;

export interface AdminIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

function positiveCredits(text: string | undefined): number {
  if (text === undefined) throw new AdminUsageError('give the number of credits, e.g. 500');
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > MAX_CREDITS)
    throw new AdminUsageError(`the number of credits must be a whole number from 1 to ${MAX_CREDITS} (got "${text}")`);
  return Number(text);
}

function requiredText(value: string | undefined, option: string, max: number): string {
  const text = value?.trim();
  if (!text) throw new AdminUsageError(`${option} is required`);
  if (text.length > max) throw new AdminUsageError(`${option} must be at most ${max} characters`);
  return text;
}

/** Runs one admin command; `open` makes the runtime (the database) only once the command line is valid. */
export async function runAdmin(
  args: string[],
  io: AdminIo,
  open: (config: Config, logger: Logger) => Promise<AdminRuntime>,
  config: Config,
  logger: Logger,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        name: { type: 'string' },
        id: { type: 'string' },
        reason: { type: 'string' },
        label: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    io.err(`render-service admin: ${(err as Error).message}\n\n${ADMIN_USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help || command === undefined || command === 'help') {
    (command === undefined && !values.help ? io.err : io.out)(`${ADMIN_USAGE}\n`);
    return command === undefined && !values.help ? 2 : 0;
  }

  let step: (rt: AdminRuntime) => Promise<void>;
  try {
    step = plan(command, rest, values, io);
  } catch (err) {
    if (!(err instanceof AdminUsageError)) throw err;
    io.err(`render-service admin: ${err.message}\n`);
    return 2;
  }
  const runtime = await open(config, logger);
  try {
    await step(runtime);
    return 0;
  } catch (err) {
    if (err instanceof AdminUsageError) {
      io.err(`render-service admin: ${err.message}\n`);
      return 2;
    }
    if (err instanceof ProblemError) {
      io.err(`render-service admin: ${err.detail ?? err.message}\n`);
      return err.status < 500 ? 2 : 1;
    }
    throw err;
  } finally {
    await runtime.close();
  }
}

type Values = { name?: string; id?: string; reason?: string; label?: string; json?: boolean };

/** Checks the command line completely, then returns what to do with the database. */
function plan(command: string, rest: string[], values: Values, io: AdminIo): (rt: AdminRuntime) => Promise<void> {
  const expect = (count: number, what: string) => {
    if (rest.length !== count) throw new AdminUsageError(`${what}\n\n${ADMIN_USAGE}`);
  };
  const existing = async (rt: AdminRuntime, id: string) => {
    const workspace = await rt.workspaces.findById(id);
    if (!workspace) throw new AdminUsageError(`there is no workspace "${id}" (render-service admin workspaces lists them)`);
    return workspace;
  };
  const balanceLine = async (rt: AdminRuntime, id: string) => {
    const { credits, reserved, available } = await rt.credits.balance(id);
    return `${id}: ${credits} credits, ${reserved} reserved, ${available} available`;
  };

  switch (command) {
    case 'workspaces':
      expect(0, 'workspaces takes no arguments');
      return async (rt) => {
        const since = new Date(rt.clock.now() - 29 * DAY_MS).toISOString().slice(0, 10);
        const rows = await rt.workspaces.listWithTotals(since);
        if (values.json) {
          io.out(
            JSON.stringify(
              rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString() })),
              null,
              2,
            ) + '\n',
          );
          return;
        }
        io.out(
          `${'ID'.padEnd(26)} ${'KIND'.padEnd(9)} ${'CREDITS'.padStart(10)} ${'RESERVED'.padStart(9)} ${'RENDERS 30D'.padStart(11)}  NAME\n`,
        );
        for (const r of rows)
          io.out(
            `${r.id.padEnd(26)} ${r.kind.padEnd(9)} ${String(r.credits).padStart(10)} ${String(r.reserved).padStart(9)} ${String(r.renders).padStart(11)}  ${r.name}\n`,
          );
      };

    case 'workspace': {
      if (rest[0] !== 'create')
        throw new AdminUsageError(`unknown workspace command "${rest[0] ?? ''}"; use: workspace create --name NAME`);
      expect(1, 'workspace create takes no arguments besides --name and --id');
      const name = requiredText(values.name, '--name', 100);
      const id = values.id ?? newId('ws');
      if (!WORKSPACE_ID.test(id))
        throw new AdminUsageError(`--id must look like ws_ followed by 3–60 letters, digits, _ or - (got "${id}")`);
      return async (rt) => {
        if (await rt.workspaces.findById(id)) throw new AdminUsageError(`a workspace "${id}" exists already`);
        await rt.workspaces.ensure({ id, name, kind: 'team', createdAt: rt.clock.now() });
        io.out(`${id}\n`);
        io.err(`Created workspace ${id} ("${name}"). Give it credits: render-service admin credits grant ${id} <n> --reason "…"\n`);
      };
    }

    case 'credits': {
      const [action, workspaceId, amountText] = rest;
      if (action !== 'grant' && action !== 'deduct')
        throw new AdminUsageError(`unknown credits command "${action ?? ''}"; use: credits grant|deduct <workspace> <n> --reason TEXT`);
      expect(3, `credits ${action} takes <workspace> <n> --reason TEXT`);
      const amount = positiveCredits(amountText);
      const reason = requiredText(values.reason, '--reason', 200);
      return async (rt) => {
        await existing(rt, workspaceId!);
        if (action === 'grant')
          await rt.credits.add({
            id: newId('grant'),
            workspaceId: workspaceId!,
            kind: 'grant',
            amount,
            reference: 'admin',
            description: reason,
          });
        else await rt.credits.deduct({ workspaceId: workspaceId!, amount, reference: 'admin', description: reason });
        io.out(`${await balanceLine(rt, workspaceId!)}\n`);
      };
    }

    case 'keys':
      expect(1, 'keys takes <workspace>');
      return async (rt) => {
        await existing(rt, rest[0]!);
        for (const k of await rt.keys.list(rest[0]!))
          io.out(`${k.id}  ${k.prefix}…  ${k.revoked ? 'revoked ' : 'active  '}  ${k.createdAt}  ${k.label}\n`);
      };

    case 'key': {
      const [action, workspaceId, keyId] = rest;
      if (action === 'create') {
        expect(2, 'key create takes <workspace> [--label TEXT]');
        const label = values.label?.trim() || 'created by an operator';
        if (label.length > 100) throw new AdminUsageError('--label must be at most 100 characters');
        return async (rt) => {
          await existing(rt, workspaceId!);
          const key = await rt.keys.create(workspaceId!, label);
          // The secret alone on standard output (for a pipe); it is never shown again.
          io.out(`${key.secret}\n`);
          io.err(`Key ${key.id} for ${workspaceId}: the secret above is shown once; store it now.\n`);
        };
      }
      if (action === 'revoke') {
        expect(3, 'key revoke takes <workspace> <key-id>');
        return async (rt) => {
          await existing(rt, workspaceId!);
          const key = await rt.keys.revoke(workspaceId!, keyId!);
          io.out(`${key.id} revoked\n`);
        };
      }
      throw new AdminUsageError(`unknown key command "${action ?? ''}"; use: key create|revoke`);
    }

    case 'job':
      expect(1, 'job takes <job-id>');
      return async (rt) => {
        const job = await rt.jobs.find(rest[0]!);
        if (!job) throw new AdminUsageError(`there is no job "${rest[0]}"`);
        io.out(JSON.stringify({ workspaceId: job.workspaceId, ...jobView(job, rt.clock.now()) }, null, 2) + '\n');
      };

    default:
      throw new AdminUsageError(`unknown admin command "${command}"\n\n${ADMIN_USAGE}`);
  }
}
