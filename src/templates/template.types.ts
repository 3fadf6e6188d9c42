// What a template is: a size, the variables a render fills in (a JSON Schema of an object) and
// layers drawn in order. The HTTP contract (openapi.yaml, TemplateLayer) describes the same shapes;
// the compositor (compose-template.ts) draws them (docs/templates.md), and the templates service stores them as
// immutable versions. A `{{name}}` in a text, or a string "{{name}}" as an asset, seed or generator
// param, takes the variable `name`.
import type { ParamSchema } from '../generators/generator.types.ts';

/** A rectangle in the template's own pixel space (its `size`): scaled with the whole composition. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** `#rgb`, `#rrggbb` or `#rrggbbaa`. */
export type HexColor = string;

export interface GradientStop {
  /** 0..1 along the gradient. */
  offset: number;
  color: HexColor;
}

export type Gradient =
  | {
      type: 'linear';
      /** Degrees clockwise from "to the top" as CSS says it: 90 runs left to right, 180 top to bottom. */
      angle: number;
      stops: GradientStop[];
    }
  | {
      type: 'radial';
      /** The centre, 0..1 of the box (default 0.5, 0.5); the radius reaches the farthest corner. */
      cx?: number;
      cy?: number;
      stops: GradientStop[];
    };

interface LayerBase {
  /** Unique within the template: what an error, the editor and a layer override name. */
  id: string;
  /** 0..1, default 1. */
  opacity?: number;
}

/** A generator's picture; without a box it fills the canvas. An animated one makes the template animated (gif, mp4). */
export interface GeneratorLayer extends LayerBase {
  kind: 'generator';
  slug: string;
  /** The generator version it draws with: the current one when the template version was created (layer-versions.ts). */
  version?: string;
  /** Params over the generator's defaults; a value may be "{{variable}}". */
  params?: Record<string, unknown>;
  /** A number, or "{{variable}}"; default (and 0, or a variable that is not a seed): the render's seed. */
  seed?: number | string;
  box?: Box;
}

export interface FillLayer extends LayerBase {
  kind: 'fill';
  /** One of color or gradient. */
  color?: HexColor;
  gradient?: Gradient;
  /** Default: the whole canvas. */
  box?: Box;
}

export interface ImageLayer extends LayerBase {
  kind: 'image';
  /** An image asset id (`ast_…`) or "{{variable}}" naming one. */
  asset: string;
  box: Box;
  /** cover (default): fills the box, cropped to it, centred; contain: whole, centred in the box (the rest of the box left as it is). */
  fit?: 'cover' | 'contain';
  /** Corner radius in template pixels (clamped to half the shorter side: a circle). */
  radius?: number;
}

export interface TextFont {
  /** A bundled family (`Space Grotesk`, `Noto Sans`, …) — or `asset`, an uploaded font. Default Space Grotesk. */
  family?: string;
  asset?: string;
  /** 100..900, default 400 (a font asset draws at its own weight). */
  weight?: number;
}

export interface TextFit {
  /** Largest and smallest font size in template pixels: the text takes the largest that fits the box (a grid of ¼ px). */
  max: number;
  /** Default: half of max. */
  min?: number;
  /** At most this many lines (default: as many as fit). */
  maxLines?: number;
  /** What happens when even `min` does not fit: `ellipsis` (default) cuts the last line with "…"; `error` refuses the render (400). */
  overflow?: 'ellipsis' | 'error';
}

export interface TextLayer extends LayerBase {
  kind: 'text';
  /** The text, with `{{variable}}` interpolation. */
  text: string;
  box: Box;
  font?: TextFont;
  color?: HexColor;
  /** Default: each paragraph's start edge (left, or right for a right-to-left paragraph). */
  align?: 'left' | 'center' | 'right';
  /** Vertical placement in the box (default top). */
  valign?: 'top' | 'middle' | 'bottom';
  /** Line height as a multiple of the size (default 1.2). */
  lineHeight?: number;
  /** Default: { max: 48 }. */
  fit?: TextFit;
}

export interface ShapeLayer extends LayerBase {
  kind: 'shape';
  shape: 'rectangle' | 'ellipse';
  box: Box;
  fill?: HexColor;
  /** Drawn inside the box (as a design tool's inside stroke); width in template pixels. */
  stroke?: { color: HexColor; width: number };
  /** Corner radius of a rectangle, in template pixels. */
  radius?: number;
}

export type TemplateLayer = GeneratorLayer | FillLayer | ImageLayer | TextLayer | ShapeLayer;
export type LayerKind = TemplateLayer['kind'];

/** What a template version holds (immutable once created). */
export interface TemplateSpec {
  size: { width: number; height: number };
  /** The colour under every layer, opaque (`#rgb` or `#rrggbb`); default white. */
  background?: HexColor;
  /** A JSON Schema of an object (the render's `params`); defaults fill what a render leaves out. */
  variables: ParamSchema;
  layers: TemplateLayer[];
}

/** What a worker thread needs to draw a template version (src/engine/render.worker.ts, template-task.ts). */
export interface TemplateTask {
  id: string;
  version: number;
  /** The version's spec (a TemplateSpec). */
  spec: unknown;
  /** Every asset the render draws, in its stored (normalized) form. */
  assets: Record<string, { kind: 'image' | 'font'; sha256: string; data: Uint8Array }>;
}

/** An asset as a render needs it: the normalized form stored at upload, pinned by its hash. */
export type TemplateAsset =
  | {
      kind: 'image';
      /** sha256 (hex) of the uploaded file: what the recipe pins. */
      sha256: string;
      width: number;
      height: number;
      /** Straight (not premultiplied) RGBA, 8 bits, sRGB, EXIF orientation applied: width × height × 4 bytes. */
      rgba: Uint8Array;
    }
  | {
      kind: 'font';
      sha256: string;
      /** The font file as uploaded, validated at upload (sfnt: TrueType or CFF outlines; WOFF2 unpacked). */
      data: Uint8Array;
    };
