// The committed signed-URL test vectors (docs/signed-url-test-vectors.json), read by the server's
// unit test (src/lib/url-signature.test.ts) and the client function's (test/unit/sign-render-url.test.ts).
import { readFileSync } from 'node:fs';

export interface SignedUrlVector {
  name: string;
  secret: string;
  keyId: string;
  expiresAt: number | null;
  unsignedTarget: string;
  signingKeyHex: string;
  canonical: string;
  signature: string;
  baseUrl: string;
  url: string;
}

export const SIGNED_URL_VECTORS: readonly SignedUrlVector[] = (
  JSON.parse(readFileSync(new URL('../../docs/signed-url-test-vectors.json', import.meta.url), 'utf8')) as { vectors: SignedUrlVector[] }
).vectors;
