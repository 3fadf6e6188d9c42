// dmath: close to Math on the arguments generators use, and the same bits everywhere — the digest
// below is of 225,000 results of every function; it is the same on x86-64 and arm64 (the arm64
// determinism tier runs this file under qemu-aarch64), where Math's differs by architecture.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { dmath } from './dmath.ts';

/** A fixed stream of arguments (an LCG: plain integer maths, the same everywhere). */
function args(n: number, scale: number, offset = 0): Float64Array {
  let s = 12345;
  return new Float64Array(n).map(() => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return (s / 2147483648) * scale + offset;
  });
}

const ulps = (a: number, b: number) => (a === b ? 0 : Math.abs(a - b) / (Math.max(Math.abs(a), Math.abs(b)) * 2 ** -52));

const CASES: Array<[string, (x: number) => number, (x: number) => number, Float64Array, number]> = [
  ['sin', dmath.sin, Math.sin, args(20_000, 2000, -1000), 1.5],
  ['cos', dmath.cos, Math.cos, args(20_000, 2000, -1000), 1.5],
  ['tan', dmath.tan, Math.tan, args(5_000, 3, -1.5), 4],
  ['exp', dmath.exp, Math.exp, args(20_000, 60, -30), 1],
  ['log', dmath.log, Math.log, args(20_000, 1000), 1],
  ['pow(x, 1/2.4)', (x) => dmath.pow(x, 1 / 2.4), (x) => Math.pow(x, 1 / 2.4), args(20_000, 1), 4],
  ['pow(x, 2.4)', (x) => dmath.pow(x, 2.4), (x) => Math.pow(x, 2.4), args(20_000, 1, 0.01), 16],
  ['pow(x, 3)', (x) => dmath.pow(x, 3), (x) => x * x * x, args(20_000, 20, -10), 0],
  ['cbrt', dmath.cbrt, Math.cbrt, args(20_000, 10, -5), 1.5],
  ['atan', dmath.atan, Math.atan, args(20_000, 40, -20), 1],
  ['atan2', (x) => dmath.atan2(x, 0.7 - x), (x) => Math.atan2(x, 0.7 - x), args(20_000, 4, -2), 1],
];

test('each function is within a few ulps of Math on the arguments generators use', () => {
  for (const [name, ours, math, xs, bound] of CASES) {
    let worst = 0;
    for (const x of xs) worst = Math.max(worst, ulps(ours(x), math(x)));
    assert.ok(worst <= bound, `${name}: ${worst.toFixed(2)} ulps`);
  }
  // tanh near 0 is (e − 1)/(e + 1): a few 1e-17 off in absolute terms, which no pixel can show.
  for (const x of args(20_000, 6, -3)) assert.ok(Math.abs(dmath.tanh(x) - Math.tanh(x)) < 1e-15, `tanh(${x})`);
});

test('edges: zeros, signs, infinities and NaN answer as Math does', () => {
  const pairs: Array<[number, number]> = [
    [dmath.sin(0), 0],
    [dmath.cos(0), 1],
    [dmath.exp(0), 1],
    [dmath.exp(-1000), 0],
    [dmath.exp(1000), Infinity],
    [dmath.log(1), 0],
    [dmath.log(0), -Infinity],
    [dmath.pow(2, 10), 1024],
    [dmath.pow(-2, 3), -8],
    [dmath.pow(0, 0.5), 0],
    [dmath.pow(5, 0), 1],
    [dmath.cbrt(-8), -2],
    [dmath.atan2(0, -1), Math.PI],
    [dmath.atan2(-0, -1), -Math.PI],
    [dmath.atan2(1, 0), Math.PI / 2],
    [dmath.atan2(-1, 0), -Math.PI / 2],
    [dmath.atan(Infinity), Math.PI / 2],
    [dmath.tanh(50), 1],
  ];
  for (const [i, [got, want]] of pairs.entries()) assert.equal(got, want, `case ${i}`);
  for (const f of [dmath.sin, dmath.cos, dmath.exp, dmath.log, dmath.atan, dmath.tanh]) assert.ok(Number.isNaN(f(NaN)));
  assert.ok(Number.isNaN(dmath.sin(Infinity)));
  assert.ok(Number.isNaN(dmath.log(-1)));
  assert.ok(Number.isNaN(dmath.pow(-2, 0.5)));
});

/** The digest of every function over fixed arguments. */
export function dmathDigest(): string {
  const hash = createHash('sha256');
  for (const [, ours, , xs] of CASES) hash.update(new Uint8Array(xs.map(ours).buffer));
  hash.update(new Uint8Array(args(20_000, 6, -3).map(dmath.tanh).buffer));
  return hash.digest('hex');
}

test('the same bits on every machine: the digest of 225,000 results is the committed one', () => {
  assert.equal(dmathDigest(), DMATH_DIGEST);
});

const DMATH_DIGEST = 'c8cac89058cc781ed394148f541796fbb10b0aa513cf81f704d80fdef410a381';
