// Types of jobs.js for the tests that import it (the web app itself is plain JS).
import type { Job, Recipe } from './types.js';

export function stageOf(job: Pick<Job, 'status' | 'progress' | 'cancelled'>): string;
export function percent(progress: number): number;
export function recipeOf(job: Pick<Job, 'recipe'>): unknown;
export function jobRecipe(job: Job): Recipe | null;
export function jobFileName(job: Job): string;
export function jobOutput(job: Job): string;
export function jobProgress(job: Job): string;
