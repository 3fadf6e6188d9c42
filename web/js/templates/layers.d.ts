// Types of layers.js for the tests that import it (the web app itself is plain JS).
import type { Box } from './geometry.js';

export interface Layer {
  id: string;
  kind: 'text' | 'image' | 'shape' | 'fill' | 'generator';
  box?: Box;
  [field: string]: unknown;
}
export interface TemplateDraft {
  name: string;
  size: { width: number; height: number };
  background?: string;
  variables?: { type?: string; required?: string[]; properties?: Record<string, Record<string, unknown>>; [k: string]: unknown };
  layers: Layer[];
}

export const KINDS: Layer['kind'][];
export const MAX_LAYERS: number;
export function draftOf(t: TemplateDraft & Record<string, unknown>): TemplateDraft;
export function uniqueId(layers: { id: string }[], base: string): string;
export function newLayer(
  kind: Layer['kind'] | string,
  size: { width: number; height: number },
  layers: { id: string }[],
  opts?: { id?: string; text?: string; asset?: string; slug?: string },
): Layer;
export function addLayer<T extends TemplateDraft>(t: T, layer: Layer, index?: number): T;
export function moveLayer<T extends TemplateDraft>(t: T, from: number, to: number): T;
export function removeLayer<T extends TemplateDraft>(t: T, id: string): T;
export function updateLayer<T extends TemplateDraft>(t: T, id: string, path: string, value: unknown): T;
export function fieldOf(layer: Layer, path: string): unknown;
export function layerLabel(layer: Layer): string;
export function visibleDraft<T extends TemplateDraft>(t: T, hidden?: Set<string>): T;
