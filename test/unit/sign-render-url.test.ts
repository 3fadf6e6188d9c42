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
