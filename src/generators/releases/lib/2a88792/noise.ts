// Seeded simplex noise from the well-kept `simplex-noise` package; seeded through our PRNG so
// the same seed always yields the same field.
import { createNoise2D, createNoise3D, createNoise4D } from 'simplex-noise';
import { subRandom } from './random.ts';

export function noise2D(seed: number, purpose = 'noise2d') {
  return createNoise2D(subRandom(seed, purpose));
}
export function noise3D(seed: number, purpose = 'noise3d') {
  return createNoise3D(subRandom(seed, purpose));
}
export function noise4D(seed: number, purpose = 'noise4d') {
  return createNoise4D(subRandom(seed, purpose));
}

/** Fractal Brownian motion over a 2D noise function. Returns roughly [-1, 1]. */
export function fbm2(noise: (x: number, y: number) => number, x: number, y: number, octaves: number, lacunarity = 2, gain = 0.5): number {
  let sum = 0;
  let amp = 1;
  let freq = 1;
  let norm = 0;
  for (let i = 0; i < octaves; i++) {
    sum += amp * noise(x * freq, y * freq);
    norm += amp;
    amp *= gain;
    freq *= lacunarity;
  }
  return sum / norm;
}
