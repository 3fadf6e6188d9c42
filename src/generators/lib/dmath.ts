// Deterministic maths: the same bits on every CPU and architecture. V8's Math.sin, cos, tan, exp,
// pow, atan, atan2, tanh (and `**`) are C++ compiled per architecture; on arm64 the compiler fuses
// multiply-adds, so 0.1–20 % of results differ from x86-64 by an ulp (issue 32 measured it; sqrt,
// hypot, floor, round, imul and the basic operators are exactly rounded and agree). Everything here
// is built from + − × ÷ and sqrt only — JavaScript never fuses them — after fdlibm (Sun's freely
// distributable libm, the algorithms V8 itself ports), so a picture never depends on the machine.
// Accuracy is within a few ulps of the true value for the arguments generators use (trigonometry
// is reduced exactly for |x| < 2^19·π/2; beyond that it stays deterministic, only less accurate).
// The linter keeps the Math versions out of src/generators (eslint.config.js).

// Bit access for 2^k scaling and log's decomposition (both architectures are little-endian; the
// module refuses to load on a big-endian machine rather than compute wrong bits).
const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
f64[0] = 1;
if (u32[1] !== 0x3ff00000) throw new Error('dmath needs a little-endian machine');

/** 2^k for an integer k, exactly (through the exponent bits; no pow). */
function pow2(k: number): number {
  if (k > 1023) return pow2(1023) * pow2(k - 1023);
  if (k < -1022) return pow2(-1022) * pow2(k + 1022);
  u32[0] = 0;
  u32[1] = (k + 1023) << 20;
  return f64[0]!;
}

// --- sin, cos, tan ------------------------------------------------------------------------------
const INV_PIO2 = 6.36619772367581382433e-1;
// π/2 in three 33-bit parts and their tails (fdlibm e_rem_pio2.c): n·PIO2_1 is exact for |n| < 2^20.
const PIO2_1 = 1.57079632673412561417;
const PIO2_1T = 6.07710050650619224932e-11;
const PIO2_2 = 6.0771005063039659766e-11;
const PIO2_2T = 2.02226624879595063154e-21;
const PIO2_3 = 2.0222662487111664558e-21;
const PIO2_3T = 8.47842766036889956997e-32;

const S1 = -1.66666666666666324348e-1;
const S2 = 8.33333333332248946124e-3;
const S3 = -1.98412698298579493134e-4;
const S4 = 2.75573137070700676789e-6;
const S5 = -2.50507602534068634195e-8;
const S6 = 1.58969099521155010221e-10;
const C1 = 4.16666666666666019037e-2;
const C2 = -1.38888888888741095749e-3;
const C3 = 2.48015872894767294178e-5;
const C4 = -2.75573143513906633035e-7;
const C5 = 2.0875723212981748279e-9;
const C6 = -1.13596475577881948265e-11;

/** sin on [−π/4, π/4] of x + y (y: the tail of the reduced argument). */
function kernelSin(x: number, y: number): number {
  const z = x * x;
  const v = z * x;
  const r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
  return x - (z * (0.5 * y - v * r) - y - v * S1);
}

/** cos on [−π/4, π/4] of x + y. */
function kernelCos(x: number, y: number): number {
  const z = x * x;
  const r = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
  const hz = 0.5 * z;
  const w = 1 - hz;
  return w + (1 - w - hz + (z * r - x * y));
}

// The reduced argument of the last reduce() call: x − n·π/2 = reducedHi + reducedLo, n mod 4 returned.
let reducedHi = 0;
let reducedLo = 0;

function reduce(x: number): number {
  const n = Math.floor(x * INV_PIO2 + 0.5);
  let r = x - n * PIO2_1;
  let w = n * PIO2_1T;
  let y0 = r - w;
  // Two more rounds of the Cody–Waite reduction (fdlibm's medium case), always: same work for every x.
  let t = r;
  w = n * PIO2_2;
  r = t - w;
  w = n * PIO2_2T - (t - r - w);
  y0 = r - w;
  t = r;
  w = n * PIO2_3;
  r = t - w;
  w = n * PIO2_3T - (t - r - w);
  y0 = r - w;
  reducedHi = y0;
  reducedLo = r - y0 - w;
  return ((n % 4) + 4) % 4;
}

export function sin(x: number): number {
  if (!Number.isFinite(x)) return NaN;
  if (Math.abs(x) < 0.7853981633974483) return kernelSin(x, 0);
  switch (reduce(x)) {
    case 0:
      return kernelSin(reducedHi, reducedLo);
    case 1:
      return kernelCos(reducedHi, reducedLo);
    case 2:
      return -kernelSin(reducedHi, reducedLo);
    default:
      return -kernelCos(reducedHi, reducedLo);
  }
}

export function cos(x: number): number {
  if (!Number.isFinite(x)) return NaN;
  if (Math.abs(x) < 0.7853981633974483) return kernelCos(x, 0);
  switch (reduce(x)) {
    case 0:
      return kernelCos(reducedHi, reducedLo);
    case 1:
      return -kernelSin(reducedHi, reducedLo);
    case 2:
      return -kernelCos(reducedHi, reducedLo);
    default:
      return kernelSin(reducedHi, reducedLo);
  }
}

export function tan(x: number): number {
  return sin(x) / cos(x);
}

// --- exp, log, pow ------------------------------------------------------------------------------
const LN2_HI = 6.9314718036912381649e-1;
const LN2_LO = 1.90821492927058770002e-10;
const INV_LN2 = 1.442695040888963387;
const P1 = 1.66666666666666019037e-1;
const P2 = -2.77777777770155933842e-3;
const P3 = 6.61375632143793436117e-5;
const P4 = -1.6533902205465251539e-6;
const P5 = 4.13813679705723846039e-8;

export function exp(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x > 709.782712893384) return Infinity;
  if (x < -745.1332191019411) return 0;
  const k = Math.floor(x * INV_LN2 + 0.5);
  const hi = x - k * LN2_HI;
  const lo = k * LN2_LO;
  const r = hi - lo;
  const t = r * r;
  const c = r - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  const y = 1 - (lo - (r * c) / (2 - c) - hi);
  return k === 0 ? y : y * pow2(k);
}

const LG1 = 6.66666666666673513e-1;
const LG2 = 3.999999999940941908e-1;
const LG3 = 2.857142874366239149e-1;
const LG4 = 2.222219843214978396e-1;
const LG5 = 1.818357216161805012e-1;
const LG6 = 1.531383769920937332e-1;
const LG7 = 1.479819860511658591e-1;

export function log(x: number): number {
  if (Number.isNaN(x) || x < 0) return NaN;
  if (x === 0) return -Infinity;
  if (x === Infinity) return Infinity;
  // x = 2^k · m with m in [√2/2, √2).
  f64[0] = x < 2.2250738585072014e-308 ? x * 18014398509481984 : x; // scale subnormals by 2^54
  let k = (u32[1]! >>> 20) - 1023 - (x < 2.2250738585072014e-308 ? 54 : 0);
  const hx = u32[1]! & 0x000fffff;
  const i = (hx + 0x95f64) & 0x100000; // set when the mantissa is ≥ √2: halve it
  u32[1] = hx | (i ^ 0x3ff00000);
  k += i >>> 20;
  const f = f64[0]! - 1;
  const s = f / (2 + f);
  const z = s * s;
  const w = z * z;
  const r = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7))) + w * (LG2 + w * (LG4 + w * LG6));
  const hfsq = 0.5 * f * f;
  return k * LN2_HI - (hfsq - (s * (hfsq + r) + k * LN2_LO) - f);
}

/** x^y. Whole exponents up to 64 multiply (exact where the products are); others go through exp(y·log x). */
export function pow(x: number, y: number): number {
  if (y === 0) return 1;
  if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
  if (Number.isInteger(y) && Math.abs(y) <= 64) {
    let result = 1;
    let base = x;
    for (let n = Math.abs(y); n > 0; n >>>= 1) {
      if (n & 1) result *= base;
      base *= base;
    }
    return y < 0 ? 1 / result : result;
  }
  if (x === 0) return y > 0 ? 0 : Infinity;
  if (x < 0) return NaN; // a fractional power of a negative number
  return exp(y * log(x));
}

export function cbrt(x: number): number {
  if (x === 0 || !Number.isFinite(x)) return x;
  const a = Math.abs(x);
  let t = exp(log(a) / 3);
  t = t - (t * t * t - a) / (3 * t * t); // one Newton step: back to within an ulp or two
  return x < 0 ? -t : t;
}

export function tanh(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x > 22) return 1;
  if (x < -22) return -1;
  const e = exp(2 * x);
  return (e - 1) / (e + 1);
}

// --- atan, atan2 --------------------------------------------------------------------------------
const ATAN_HI = [4.63647609000806093515e-1, 7.85398163397448278999e-1, 9.82793723247329054082e-1, 1.570796326794896558];
const ATAN_LO = [2.26987774529616870924e-17, 3.06161699786838301793e-17, 1.39033110312309984516e-17, 6.12323399573676603587e-17];
const AT0 = 3.33333333333329318027e-1;
const AT1 = -1.99999999998764832476e-1;
const AT2 = 1.42857142725034663711e-1;
const AT3 = -1.1111110405462355788e-1;
const AT4 = 9.09088713343650656196e-2;
const AT5 = -7.69187620504482999495e-2;
const AT6 = 6.66107313738753120669e-2;
const AT7 = -5.83357013379057348645e-2;
const AT8 = 4.97687799461593236017e-2;
const AT9 = -3.6531572744216915527e-2;
const AT10 = 1.62858201153657823623e-2;

export function atan(x: number): number {
  if (Number.isNaN(x)) return NaN;
  let a = Math.abs(x);
  if (a >= 7.378697629483821e19) return x > 0 ? ATAN_HI[3]! + ATAN_LO[3]! : -ATAN_HI[3]! - ATAN_LO[3]!;
  let id = -1;
  if (a < 0.4375) {
    if (a < 3.725290298461914e-9) return x;
  } else if (a < 1.1875) {
    if (a < 0.6875) {
      id = 0;
      a = (2 * a - 1) / (2 + a);
    } else {
      id = 1;
      a = (a - 1) / (a + 1);
    }
  } else if (a < 2.4375) {
    id = 2;
    a = (a - 1.5) / (1 + 1.5 * a);
  } else {
    id = 3;
    a = -1 / a;
  }
  const z = a * a;
  const w = z * z;
  const s1 = z * (AT0 + w * (AT2 + w * (AT4 + w * (AT6 + w * (AT8 + w * AT10)))));
  const s2 = w * (AT1 + w * (AT3 + w * (AT5 + w * (AT7 + w * AT9))));
  if (id < 0) return x < 0 ? -(a - a * (s1 + s2)) : a - a * (s1 + s2);
  const r = ATAN_HI[id]! - (a * (s1 + s2) - ATAN_LO[id]! - a);
  return x < 0 ? -r : r;
}

const PI = 3.141592653589793116;
const PI_LO = 1.2246467991473531772e-16;

export function atan2(y: number, x: number): number {
  if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
  if (y === 0) return x > 0 || Object.is(x, 0) ? y : Object.is(y, -0) ? -PI : PI;
  if (x === 0) return y > 0 ? PI / 2 : -PI / 2;
  if (!Number.isFinite(x) || !Number.isFinite(y)) {
    if (!Number.isFinite(y)) {
      const quarter = !Number.isFinite(x) ? (x > 0 ? PI / 4 : (3 * PI) / 4) : PI / 2;
      return y > 0 ? quarter : -quarter;
    }
    return x > 0 ? (y > 0 ? 0 : -0) : y > 0 ? PI : -PI;
  }
  const z = atan(Math.abs(y / x));
  if (x > 0) return y < 0 ? -z : z;
  const r = PI - (z - PI_LO);
  return y < 0 ? -r : r;
}

/** The module as one object, read like Math: `dmath.sin(x)`. */
export const dmath = Object.freeze({ sin, cos, tan, exp, log, pow, cbrt, tanh, atan, atan2 });
