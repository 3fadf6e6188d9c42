// Shapes the web app's pure modules work with, for the tests that import them (the app itself is plain JS).

export interface Size {
  width: number;
  height: number;
  pixelRatio?: number;
}

/** A recipe as the app carries it (the request body plus its generator's slug). */
export interface Recipe {
  slug: string;
  params: Record<string, unknown>;
  seed: number;
  size: Size;
  format: string;
  /** A jpeg's quality (1–100); absent: the service's default. Only a format that takes one carries it. */
  quality?: number;
}

/** The request body of a render or job: a recipe without its slug. */
export type RecipeBody = Omit<Recipe, 'slug'>;

/** A generator as GET /v1/generators lists it: the fields the app reads. */
export interface Generator {
  slug: string;
  name: string;
  version: string;
  formats: string[];
  defaults?: Record<string, unknown> | null;
  suggestedSize?: { width: number; height: number };
  paramSchema?: Record<string, unknown> | null;
}

/** One param's JSON Schema, as far as the app reads it. */
export interface ParamSchema {
  type?: string | string[];
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  title?: string;
}

/** A format's facts (`formats` of GET /v1/health). */
export interface FormatFacts {
  contentType: string;
  extension: string;
  kind: 'still' | 'motion' | 'text';
  /** What a recipe without a quality renders at, for a format that takes one (jpeg); null: it takes none. */
  defaultQuality: number | null;
}

/** A job as GET /v1/jobs lists it: the fields the app reads. */
export interface Job {
  id: string;
  slug: string;
  status: string;
  progress: number;
  cancelled?: boolean;
  format?: string | null;
  recipe?: string | null;
}

/** A ranged number param: its schema's minimum and maximum. */
export interface Range {
  min: number;
  max: number;
  integer?: boolean;
}
