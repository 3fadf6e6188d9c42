import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SIGNED_URL_VECTORS } from '../../test/support/signed-url-vectors.ts';
import { canonicalSignedTarget, sign, signTarget, signingKeyOf, verify } from './url-signature.ts';

const vectors = SIGNED_URL_VECTORS;

test('the committed test vectors: key, canonical string, signature and URL', () => {
  assert.ok(vectors.length >= 3);
  assert.ok(vectors.some((v) => v.expiresAt !== null));
  assert.ok(vectors.some((v) => /\/v1\/render\/[0-9a-f]{64}\.\w+\?/.test(v.unsignedTarget)));
  for (const v of vectors) {
    const key = signingKeyOf(v.secret);
    assert.equal(key.toString('hex'), v.signingKeyHex, v.name);
    assert.equal(sign(key, v.canonical), v.signature, v.name);
    assert.equal(v.baseUrl + signTarget(key, v.unsignedTarget, v.keyId, v.expiresAt), v.url, v.name);
    const target = canonicalSignedTarget(v.url.slice(v.baseUrl.length));
    assert.ok(target.signed && target.ok, v.name);
    assert.equal(target.message, v.canonical);
    assert.equal(target.keyId, v.keyId);
    assert.equal(target.expiresAt, v.expiresAt);
    assert.ok(verify(key, target.message, target.signature), v.name);
  }
});

test('verify refuses another message, another key and every other spelling of the signature', () => {
  const v = vectors[0]!;
  const key = signingKeyOf(v.secret);
  assert.equal(verify(key, `${v.canonical}&w=1`, v.signature), false);
  assert.equal(verify(signingKeyOf(`${v.secret}x`), v.canonical, v.signature), false);
  // The last of 43 base64url characters carries 2 spare bits: other spellings decode to the same bytes.
  const last = v.signature.at(-1)!;
  for (const c of 'AEIMQUYcgkosw048'.replace(last, '')) assert.equal(verify(key, v.canonical, v.signature.slice(0, -1) + c), false);
  assert.equal(verify(key, v.canonical, v.signature.slice(0, 20)), false);
});

test('canonicalSignedTarget: sig last, once, after kid; kid or exp alone mean a missing signature', () => {
  const sig = 'a'.repeat(43);
  const check = (target: string) => {
    const t = canonicalSignedTarget(target);
    return !t.signed ? 'unsigned' : t.ok ? t.message : t.problem;
  };
  assert.equal(check('/v1/render/h?r=x'), 'unsigned');
  assert.equal(check('/v1/render/h?r=x&kid=usk_1&exp=5&sig=' + sig), '/v1/render/h?r=x&kid=usk_1&exp=5');
  assert.equal(check('/v1/render/h?r=x&kid=usk_1&sig=' + sig + '&w=5'), 'signature_not_last');
  assert.equal(check('/v1/render/h?r=x&kid=usk_1&%73ig=' + sig + '&w=5'), 'signature_not_last');
  assert.equal(check('/v1/render/h?r=x&r=y&kid=usk_1&sig=' + sig), 'duplicate_parameter');
  assert.equal(check('/v1/render/h?r=x&sig=' + sig), 'missing_key_id');
  assert.equal(check('/v1/render/h?r=x&kid=usk_1&exp=soon&sig=' + sig), 'malformed_expiry');
  assert.equal(check('/v1/render/h?r=x&kid=usk_1&sig=short'), 'malformed_signature');
  assert.equal(check('/v1/render/h?r=x&kid=usk_1'), 'unsigned_key_id');
  assert.equal(check('/v1/render/h?r=x&exp=5'), 'unsigned_key_id');
});
