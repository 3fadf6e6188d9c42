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
  assert.equal(check('/v1/render/h?r=x&r=y&kid=usk_1&sig=' + sig), 'duplicate_parameter');
  assert.equal(check('/v1/render/h?r=x&sig=' + sig), 'missing_key_id');
  assert.equal(check('/v1/render/h?r=x&kid=usk_1&exp=soon&sig=' + sig), 'malformed_expiry');
  assert.equal(check('/v1/render/h?r=x&kid=usk_1&sig=short'), 'malformed_signature');
  assert.equal(check('/v1/render/h?r=x&kid=usk_1'), 'unsigned_key_id');
  assert.equal(check('/v1/render/h?r=x&exp=5'), 'unsigned_key_id');
  assert.equal(check('/v1/render/h?r=x&kid=&sig=' + sig), 'missing_key_id');
  assert.equal(check('/v1/render/h?kid=usk_1&r=x&sig=' + sig), 'key_id_not_in_place');
  assert.equal(check('/v1/render/h?r=x&exp=5&kid=usk_1&sig=' + sig), 'key_id_not_in_place');
  assert.equal(check('/v1/render/h?r=x&kid=usk_1&exp=5&w=16&sig=' + sig), 'key_id_not_in_place');
});

test('canonicalSignedTarget: one spelling, byte for byte as the service writes it; every other spelling is refused', () => {
  for (const v of vectors) {
    const target = v.url.slice(v.baseUrl.length);
    const t = canonicalSignedTarget(target);
    assert.ok(t.signed && t.ok, v.name);
    const [path, query] = target.split('?') as [string, string];
    const params = query.split('&');
    const encode = (text: string, i: number) => `${text.slice(0, i)}%${text.charCodeAt(i).toString(16).toUpperCase()}${text.slice(i + 1)}`;
    const respelled = [
      // The signature's name and value: each decodes to the same parameter, so none changes the signed message.
      target.replace('&sig=', '&%73ig='),
      target.replace('&sig=', '&si%67='),
      target.replace('&sig=', '&%73%69%67='),
      ...Array.from({ length: 43 }, (_, i) => `${target.slice(0, -43)}${encode(t.signature, i)}`),
      `${target.slice(0, -43)}${encode(t.signature, 0).toLowerCase()}`,
      // kid and exp, and the other parameters' names and values, percent-encoded (a key holder could sign these).
      ...params.map((p, i) => [...params.slice(0, i), encode(p, 0), ...params.slice(i + 1)].join('&')).map((q) => `${path}?${q}`),
      ...params
        .map((p, i) => [...params.slice(0, i), encode(p, p.length - 1), ...params.slice(i + 1)].join('&'))
        .map((q) => `${path}?${q}`),
      // The path percent-encoded, + and empty parameters, a bare name.
      `${encode(path, path.length - 1)}?${query}`,
      `${path}?${params.slice(0, -1).join('&')}&&${params.at(-1)}`,
      `${path}?&${query}`,
      `${path}?${params[0]}&x&${params.slice(1).join('&')}`,
      `${path}?${params[0]}+&${params.slice(1).join('&')}`,
    ];
    for (const other of respelled) {
      assert.notEqual(other, target);
      const got = canonicalSignedTarget(other);
      assert.ok(got.signed && !got.ok, `${v.name}: ${other.slice(-80)} → ${JSON.stringify(got).slice(0, 80)}`);
    }
  }
  // Not signed: no parameter the server reads as sig, kid or exp, however spelled.
  assert.deepEqual(canonicalSignedTarget('/v1/render/h?r=x&w=%31%36'), { signed: false });
  for (const name of ['%73ig', 'si%67', '%6Bid', '%65xp', '%6b%69%64'])
    assert.deepEqual(canonicalSignedTarget(`/v1/render/h?r=x&${name}=1`), { signed: true, ok: false, problem: 'not_canonical' }, name);
});
