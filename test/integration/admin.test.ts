// `render-service admin …` on both databases, beside a running app on the same database: what an
// operator does is what the API then sees (a new workspace and its key work at once, a revoked
// key answers 401 at once, granted credits pay for renders), and every mistake is refused with a
// clear message, exit 2 and nothing changed. The bin's wiring is checked in test/acceptance/cli.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runAdmin } from '../../src/admin.ts';
import { composeAdmin } from '../../src/compose-admin.ts';
import { ENGINES } from '../support/black-box/databases.ts';
import { armEvent } from '../support/black-box/waiters.ts';
import { HOSTED_ENV, startTestApp, type TestApp } from '../support/harness.ts';

const SETUPS = [
  ...ENGINES.map((engine) => ({ name: `local mode on ${engine}`, engine, hosted: false })),
  { name: 'hosted mode on postgres', engine: 'postgres' as const, hosted: true },
];

for (const setup of SETUPS) {
  describe(`admin commands: ${setup.name}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(setup.engine, { env: setup.hosted ? HOSTED_ENV : {} });
    });
    after(async () => t?.close());

    /** Runs one admin command against the app's database; its exit code and what it printed. */
    async function admin(...args: string[]) {
      let out = '';
      let err = '';
      const code = await runAdmin(
        args,
        { out: (s) => void (out += s), err: (s) => void (err += s) },
        composeAdmin,
        t.runtime.deps.config,
        t.runtime.deps.logger,
      );
      return { code, out, err };
    }
    const asKey = (secret: string) => ({ auth: false as const, headers: { Authorization: `Bearer ${secret}` } });
    const balance = async (id: string) => (await t.runtime.deps.services.credits.balance(id)).credits;

    test('a new team workspace, its key and credits work through the API at once; a revoked key answers 401 at once', async () => {
      const created = await admin('workspace', 'create', '--name', 'Acme Inc', '--id', 'ws_acme');
      assert.equal(created.code, 0, created.err);
      assert.equal(created.out, 'ws_acme\n');
      const key = await admin('key', 'create', 'ws_acme', '--label', 'ci');
      assert.equal(key.code, 0, key.err);
      const secret = key.out.trim();
      assert.match(secret, setup.hosted ? /^svc_live_/ : /^svc_local_/);
      assert.match(key.err, /shown once/);
      const me = await t.request('get', '/v1/me', asKey(secret));
      assert.equal(me.status, 200);
      assert.deepEqual([me.body.workspace.id, me.body.workspace.kind, me.body.workspace.name], ['ws_acme', 'team', 'Acme Inc']);

      const granted = await admin('credits', 'grant', 'ws_acme', '500', '--reason', 'trial for Acme');
      assert.equal(granted.code, 0, granted.err);
      assert.equal(granted.out, 'ws_acme: 500 credits, 0 reserved, 500 available\n');
      assert.equal((await admin('credits', 'deduct', 'ws_acme', '100', '--reason', 'goodwill reversed')).code, 0);
      assert.equal(await balance('ws_acme'), 400);
      const entries = await t.runtime.db('credit_entries').where({ workspace_id: 'ws_acme' }).orderBy('created_at');
      assert.deepEqual(
        entries.map((e: { kind: string; amount: number; description: string }) => [e.kind, Number(e.amount), e.description]),
        [
          ['grant', 500, 'trial for Acme'],
          ['adjustment', -100, 'goodwill reversed'],
        ],
      );
      if (setup.hosted) {
        // The credits pay for a render in hosted mode.
        const render = await t.request('post', '/v1/generate/mesh-gradient', {
          ...asKey(secret),
          body: { seed: 3, size: { width: 64, height: 64 } },
        });
        assert.equal(render.status, 200, render.text);
        assert.equal(await balance('ws_acme'), 400 - Number(render.headers['x-service-credits']));
      }

      const keyId = (await admin('keys', 'ws_acme')).out.split(/\s+/)[0]!;
      assert.match(keyId, /^key_/);
      // On Postgres the app keeps verified keys in memory until the revocation's notification reaches
      // it (sent when the admin command's transaction commits); on SQLite it reads the row.
      const heard = armEvent<[string]>(t.runtime.deps.services.keys, 'forgotten', (id) => id === keyId);
      const revoked = await admin('key', 'revoke', 'ws_acme', keyId);
      assert.equal(revoked.code, 0, revoked.err);
      if (setup.engine === 'postgres') await heard.wait('the revocation heard by the app');
      else heard.stop();
      assert.equal((await t.request('get', '/v1/me', asKey(secret))).status, 401);
      assert.match((await admin('keys', 'ws_acme')).out, /revoked/);
    });

    test('the workspace list shows balance and renders; a job is shown as JSON', async () => {
      const list = await admin('workspaces', '--json');
      assert.equal(list.code, 0, list.err);
      const rows = JSON.parse(list.out) as Array<{ id: string; kind: string; credits: number; renders: number }>;
      assert.ok(rows.some((r) => r.id === 'ws_acme' && r.kind === 'team' && r.credits >= 0));
      const table = await admin('workspaces');
      assert.match(table.out, /^ID\s+KIND\s+CREDITS\s+RESERVED\s+RENDERS 30D\s+NAME\n/);
      assert.match(table.out, /ws_acme\s+team\s+\d+\s+0\s+\d+\s+Acme Inc\n/);

      const secret = (await admin('key', 'create', 'ws_acme')).out.trim();
      // The job runs in this process; it ends before the next test counts the balance.
      const finished = armEvent(t.runtime.jobs.lifecycle, 'finished');
      const job = await t.request('post', '/v1/jobs', {
        ...asKey(secret),
        body: { slug: 'mesh-gradient', size: { width: 32, height: 32 } },
      });
      assert.equal(job.status, 202, job.text);
      const shown = await admin('job', job.body.id);
      assert.equal(shown.code, 0, shown.err);
      const view = JSON.parse(shown.out);
      assert.deepEqual([view.id, view.workspaceId, view.slug], [job.body.id, 'ws_acme', 'mesh-gradient']);
      await finished.wait('the job to end');
    });

    test('mistakes are refused with exit 2 and a message naming them; nothing changes', async () => {
      const before = await balance('ws_acme');
      const cases: Array<[string[], RegExp]> = [
        [['credits', 'grant', 'ws_nope', '5', '--reason', 'x'], /there is no workspace "ws_nope"/],
        [['credits', 'grant', 'ws_acme', '0', '--reason', 'x'], /whole number from 1/],
        [['credits', 'grant', 'ws_acme', '2.5', '--reason', 'x'], /whole number from 1/],
        [['credits', 'grant', 'ws_acme', '5'], /--reason is required/],
        [['credits', 'grant', 'ws_acme', '5', '--reason', '   '], /--reason is required/],
        [['credits', 'deduct', 'ws_acme', String(before + 1), '--reason', 'too much'], new RegExp(`${before} are`)],
        [['credits', 'give', 'ws_acme', '5'], /unknown credits command "give"/],
        [['workspace', 'create'], /--name is required/],
        [['workspace', 'create', '--name', 'X', '--id', 'acme'], /--id must look like ws_/],
        [['workspace', 'create', '--name', 'Again', '--id', 'ws_acme'], /exists already/],
        [['key', 'revoke', 'ws_acme', 'key_nope'], /No key key_nope/],
        [['key', 'create', 'ws_nope'], /there is no workspace/],
        [['job', 'job_nope'], /there is no job "job_nope"/],
        [['frobnicate'], /unknown admin command "frobnicate"/],
        [['workspaces', '--colour'], /Unknown option '--colour'/],
      ];
      for (const [args, message] of cases) {
        const result = await admin(...args);
        assert.equal(result.code, 2, `${args.join(' ')}: ${result.err}`);
        assert.match(result.err, message, args.join(' '));
        assert.equal(result.out, '', args.join(' '));
      }
      assert.equal(await balance('ws_acme'), before);
      assert.equal((await t.runtime.db('workspaces').where({ name: 'Again' })).length, 0);
    });
  });
}
