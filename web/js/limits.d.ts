// Types of limits.js for the tests that import it (the web app itself is plain JS).
export interface Limits {
  minSide: number;
  maxSide: number;
  minPixelRatio: number;
  maxPixelRatio: number;
  maxFramePixels: number;
  maxAnimationPixels: number;
  gifMaxFps: number;
  animationBudgetMs: number;
}
export let limits: Limits;
export function setLimits(health: { limits: Omit<Limits, 'animationBudgetMs'>; animationBudgetMs: number } | undefined): void;
export function clampRatio(ratio: number): number;
export function gifFrames(fps: number, frames: number): number;
export function sideRange(): { min: number; max: number };
export function ratioRange(): { min: number; max: number; step: number };
