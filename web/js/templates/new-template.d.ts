// Types of new-template.js for the tests that import it (the web app itself is plain JS).
import type { Recipe } from '../types.js';

/** A POST /v1/templates body (TemplateCreate of openapi.yaml), as far as these functions shape it. */
export interface TemplateBody {
  name: string;
  size: { width: number; height: number };
  background?: string;
  variables?: { type?: string; required?: string[]; properties?: Record<string, Record<string, unknown>> };
  layers: ({ id: string; kind: string } & Record<string, unknown>)[];
}

export const BLANK_SIZES: [number, number, string][];
export const NAME_MAX: number;
export const SIDE_MAX: number;
export const SAMPLE_TITLE: string;
export function nameOr(typed: unknown, fallback: string): string;
export function blankTemplate(options?: { name?: string; width?: number | string; height?: number | string }): TemplateBody;
export function starterTemplate(
  starter: { id: string; name: string; description?: string; template: TemplateBody },
  name?: string,
): TemplateBody;
export function recipeTemplate(recipe: Pick<Recipe, 'slug' | 'params' | 'seed' | 'size'>, name?: string): TemplateBody;
export function templateBody(template: TemplateBody & Record<string, unknown>): TemplateBody;
export function duplicateTemplate(template: TemplateBody & Record<string, unknown>): TemplateBody;
