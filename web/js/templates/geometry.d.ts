// Types of geometry.js for the tests that import it (the web app itself is plain JS).

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface Guide {
  axis: 'x' | 'y';
  at: number;
}
export interface Targets {
  x: number[];
  y: number[];
}
export type Handle = 'n' | 's' | 'e' | 'w' | 'ne' | 'nw' | 'se' | 'sw';

export const SNAP_PX: number;
export const MIN_SIZE: number;
export const BOX_LIMIT: number;
export function scaleOf(size: { width: number; height: number }, shownWidth: number): number;
export function toShown(box: Box, scale: number): Box;
export function toTemplate(px: number, scale: number): number;
export function roundBox(box: Box): Box;
export function boxOf(layer: { box?: Box }, size: { width: number; height: number }): Box;
export function snapTargets(size: { width: number; height: number }, others?: Box[]): Targets;
export function snapMove(box: Box, targets: Targets, reach: number): { box: Box; guides: Guide[] };
export function moveBox(start: Box, dx: number, dy: number): Box;
export function resizeBox(start: Box, handle: Handle | string, dx: number, dy: number, min?: number): Box;
export function snapResize(box: Box, handle: Handle | string, targets: Targets, reach: number, min?: number): { box: Box; guides: Guide[] };
export function clampBox(box: Box, size: { width: number; height: number }, keep?: number): Box;
export function nudge(box: Box, key: string, shift?: boolean): Box | null;
export const PREVIEW_MAX_PIXELS: number;
export interface PreviewSize {
  width: number;
  height: number;
  pixelRatio: number;
}
export function previewSize(size: { width: number; height: number }, cssWidth: number, dpr: number | undefined): PreviewSize;
export function quickSize(shown: PreviewSize, size: { width: number; height: number }): PreviewSize | null;
