// What the export page says about a job: its stage, its row in the history, its file name and the
// recipe Retry and Re-export… take from it. No DOM (unit-tested in Node: test/unit/web-jobs.test.ts).
import { formats } from './formats.js';
import { decodeRecipe, fileName } from './recipe.js';

/**
 * The honest stage of a job. The API reports progress only (frames rendered, capped at 0.99), not
 * the stage: past 90 % a running job is mostly encoding (and writing) the file, so it says so.
 */
export function stageOf(job) {
  if (job.status === 'queued') return 'queued…';
  if (job.status === 'running') {
    if (job.cancelled) return 'cancelling…';
    return job.progress >= 0.9 ? 'encoding…' : `rendering frames… ${Math.round(job.progress * 100)}%`;
  }
  return job.status;
}

/** Progress 0–1 as the bar's whole percent (clamped). */
export const percent = (progress) => Math.round(Math.max(0, Math.min(1, progress)) * 100);

/** A job's recipe (decoded from its `recipe`), or null for a service that does not send it. */
export const recipeOf = (job) => (job.recipe ? decodeRecipe(job.recipe) : null);

/** The recipe Retry submits again and Re-export… puts in the settings: {slug, params, seed, size, format}, or null. */
export function jobRecipe(job) {
  const r = recipeOf(job);
  return r && { slug: job.slug, params: r.params, seed: r.seed, size: r.size, format: r.format, ...(r.quality && { quality: r.quality }) };
}

/** A job's file name: the playground's rule (fileName) for the recipe it rendered. */
export function jobFileName(job) {
  const r = recipeOf(job);
  return r ? fileName(job.slug, r) : `${job.slug}-${job.id}.${formats[job.format]?.extension ?? 'bin'}`;
}

/** The history's Output cell: format and dimensions, "gif · 64×64", with " @2x" when the pixel ratio is not 1. */
export function jobOutput(job) {
  const { size } = recipeOf(job) ?? {};
  const dims = size ? `${size.width}×${size.height}${size.pixelRatio && size.pixelRatio !== 1 ? ` @${size.pixelRatio}x` : ''}` : '';
  return [job.format ?? '', dims].filter(Boolean).join(' · ');
}

/** The history's Progress cell: a running job's stage, else its percent. */
export const jobProgress = (job) => (job.status === 'running' ? stageOf(job) : `${Math.round(job.progress * 100)}%`);
