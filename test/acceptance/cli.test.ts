// The command line writes exactly the bytes the API returns for the same recipe.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { ROOT, runService, type ServerProcess } from '../support/black-box/server-process.ts';

const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), 'render-service-cli-'));
const KEY = 'svc_local_cli_test_key_0123456789';
let server: ServerProcess;
/** The catalogue as the API lists it (GET /v1/generators). */
let ALL_GENERATORS: { slug: string; animated: boolean; formats: string[] }[];

before(async () => {
  server = await runService({ DATA_DIR: path.join(dir, 'data'), API_KEYS: KEY });
  const listed = await fetch(`${server.url}/v1/generators`, { headers: { Authorization: `Bearer ${KEY}` } });
  assert.equal(listed.status, 200);
  ALL_GENERATORS = (await listed.json()) as typeof ALL_GENERATORS;
  assert.ok(ALL_GENERATORS.length > 0);
});
after(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function api(slug: string, body: unknown): Promise<{ bytes: Buffer; recipe: string }> {
  const res = await fetch(`${server.url}/v1/generate/${slug}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200);
  return { bytes: Buffer.from(await res.arrayBuffer()), recipe: res.headers.get('x-service-recipe')! };
}

test('render <slug> --seed --size --format -o writes the API bytes', async () => {
  const still = ALL_GENERATORS.find((g) => !g.animated && g.formats.includes('webp'))!;
  const { bytes } = await api(still.slug, { seed: 7, size: { width: 200, height: 120 }, format: 'webp' });
  const out = path.join(dir, 'out.webp');
  await run(
    process.execPath,
    ['bin/render-service.mjs', 'render', still.slug, '--seed', '7', '--size', '200x120', '--format', 'webp', '-o', out],
    { cwd: ROOT },
  );
  assert.ok(readFileSync(out).equals(bytes));
});

test('render --recipe <base64url> writes the API bytes, animated formats included', async () => {
  const gen = ALL_GENERATORS.find((g) => g.formats.includes('mp4')) ?? ALL_GENERATORS[0];
  const format = gen.formats.includes('mp4') ? 'mp4' : gen.formats[0];
  const { bytes, recipe } = await api(gen.slug, {
    seed: 3,
    size: { width: 96, height: 64 },
    format,
    params: gen.animated ? { duration: 1, fps: 10 } : {},
  });
  const out = path.join(dir, `out.${format}`);
  await run(process.execPath, ['bin/render-service.mjs', 'render', '--recipe', recipe, '-o', out], { cwd: ROOT });
  assert.ok(readFileSync(out).equals(bytes));
});

test('list names every generator; bad input exits non-zero with a message', async () => {
  const { stdout } = await run(process.execPath, ['bin/render-service.mjs', 'list'], { cwd: ROOT });
  for (const g of ALL_GENERATORS) assert.match(stdout, new RegExp(`^${g.slug}\\s`, 'm'));
  await assert.rejects(
    run(process.execPath, ['bin/render-service.mjs', 'render', ALL_GENERATORS[0].slug, '--size', '5x5'], { cwd: ROOT }),
    (err: { code: number; stderr: string }) => {
      assert.equal(err.code, 1);
      assert.match(err.stderr, /size/);
      return true;
    },
  );
});
