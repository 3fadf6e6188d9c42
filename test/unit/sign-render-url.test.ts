// The copyable client function (clients/sign-render-url.ts, WebCrypto) and the openssl example of
// docs/embedding.md, run with bash, against the committed test vectors.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { signRenderUrl } from '../../clients/sign-render-url.ts';
import { SIGNED_URL_VECTORS } from '../support/signed-url-vectors.ts';

const root = new URL('../../', import.meta.url);
const vectors = SIGNED_URL_VECTORS;

test('clients/sign-render-url.ts signs every test vector', async () => {
  for (const v of vectors) {
    const url = await signRenderUrl({
      baseUrl: v.baseUrl,
      target: v.unsignedTarget,
      keyId: v.keyId,
      secret: v.secret,
      expiresAt: v.expiresAt ?? undefined,
    });
    assert.equal(url, v.url, v.name);
  }
});

test('clients/sign-render-url.ts refuses a target the service would not take in that spelling', async () => {
  const v = vectors[0]!;
  const sign = (target: string, keyId = v.keyId) => signRenderUrl({ baseUrl: v.baseUrl, target, keyId, secret: v.secret });
  const [path, query] = v.unsignedTarget.split('?') as [string, string];
  for (const target of [
    `${path}?r=%65${query.slice(3)}`,
    `${path}?${query}&w=6%30`,
    `${path}?${query}&format=png+`,
    `${path}?${query}&&w=600`,
    `${path}?${query}&kid=usk_other`,
    `${path}?${query}&sig=x`,
    `${path.replace('/render/', '/render%2F')}?${query}`,
  ])
    await assert.rejects(sign(target), /write the target as the service does/, target);
  await assert.rejects(sign(v.unsignedTarget, 'usk_a b'), /write the target as the service does/);
  assert.equal(await sign(v.unsignedTarget), v.url);
});

test("docs/embedding.md's openssl example gives every vector's key and signature", () => {
  const doc = readFileSync(new URL('docs/embedding.md', root), 'utf8');
  const snippet = /<!-- openssl-example -->\s*```bash\n([\s\S]*?)```/.exec(doc)?.[1];
  assert.ok(snippet, 'the openssl example is marked <!-- openssl-example --> in docs/embedding.md');
  for (const v of vectors) {
    const out: string = execFileSync('bash', ['-euo', 'pipefail', '-c', `${snippet}\necho "$KEY_HEX"\necho "$URL"`], {
      env: {
        PATH: process.env.PATH,
        SECRET: v.secret,
        BASE_URL: v.baseUrl,
        TARGET: v.unsignedTarget,
        KID: v.keyId,
        EXP: v.expiresAt === null ? '' : String(v.expiresAt),
      },
      encoding: 'utf8',
    });
    const [keyHex, url] = out.trim().split('\n');
    assert.equal(keyHex, v.signingKeyHex, v.name);
    assert.equal(url, v.url, v.name);
  }
});
