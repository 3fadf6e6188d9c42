// The compositor: a template version seen as a generator (templateGenerator), whose frame is its
// layers drawn in order at the render's size. The composition is laid out in the template's own
// pixel space (spec.size) and scaled uniformly by s = width / spec.size.width, times pixelRatio for
// device pixels. The frame is opaque RGBA held in JavaScript and every layer is blended into it in
// integer arithmetic (raster.ts); Skia only fills and strokes shapes and glyph outlines in white to
// give their coverage, which is exact on every CPU. Gradients are painted by lib/gradient.ts,
// images scaled by image-scale.ts, text set by template-text.ts: nothing that reaches a pixel
// depends on the CPU's SIMD or on the machine's fonts (docs/templates.md).
import { createCanvas } from '../generators/lib/canvas.ts';
import type { FrameInput, GeneratorDefinition } from '../generators/generator.types.ts';
import { dmath } from '../generators/lib/dmath.ts';
import { paintGradient, scaling } from '../generators/lib/gradient.ts';
import { drawPixels, emptyBlock } from '../generators/lib/pixels.ts';
import { mulberry32 } from '../generators/lib/random.ts';
import { shaperReady } from '../generators/lib/shaper.ts';
import { unsupportedGraphemes } from '../generators/lib/text-setter.ts';
import type { GeneratorRegistry } from '../generators/registry.ts';
import { layerGenerator } from './layer-versions.ts';
import type { OutputFormat } from '../lib/formats.ts';
import { placeImage, premultiply } from './image-scale.ts';
import {
  blendPremultiplied,
  blendSolid,
  clip,
  coverage,
  Group,
  opacityLevel,
  parseColor,
  regionAround,
  solidFrame,
  type Frame,
  type PathTracer,
  type Region,
} from './raster.ts';
import type {
  Box,
  FillLayer,
  GeneratorLayer,
  ImageLayer,
  ShapeLayer,
  TemplateAsset,
  TemplateLayer,
  TemplateSpec,
  TextLayer,
} from './template.types.ts';
import { layerText, setText, textFaceOf, textFills, fitMin } from './template-text.ts';
import { substitute, textPieces, wholeReference } from './variables.ts';
import { generatorParamIssues } from './generator-params.ts';

export const DEFAULT_BACKGROUND = '#ffffff';
export const DEFAULT_TEXT_COLOR = '#000000';

export interface TemplateGeneratorOptions {
  /** The template's id (`tpl_…`): the generator's slug. */
  id: string;
  /** The template version: the generator's version. */
  version: number;
  spec: TemplateSpec;
  /** Every asset the spec's layers may name (by id), and those the render's variables name. */
  assets: ReadonlyMap<string, TemplateAsset>;
  generators: GeneratorRegistry;
  /** Shown as the generator's name (default: the id). */
  name?: string;
}

/** A problem with a render's variables that the schema cannot see, named by variable (or layer path). */
export interface TemplateParamIssue {
  /** The variable's name, or the layer's field (`layers.2.text`) when the template itself holds the value. */
  param: string;
  message: string;
  keyword: string;
}

/** The defaults in a template's variables schema. */
export function variableDefaults(spec: TemplateSpec): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(spec.variables.properties ?? {})) if ('default' in schema) out[name] = schema.default;
  return out;
}

/** The generator layer whose generator is animated (at most one: checkTemplate), and its index. */
export function animatedLayerOf(spec: TemplateSpec, generators: GeneratorRegistry): { layer: GeneratorLayer; index: number } | undefined {
  const index = spec.layers.findIndex((l) => l.kind === 'generator' && layerGenerator(generators, l)?.animated);
  return index < 0 ? undefined : { layer: spec.layers[index] as GeneratorLayer, index };
}

/** A generator layer's params: its own (variables filled in) over the generator's defaults. */
export function generatorLayerParams(layer: GeneratorLayer, gen: GeneratorDefinition, params: Readonly<Record<string, unknown>>) {
  const own = substitute(layer.params ?? {}, params) as Record<string, unknown>;
  const merged: Record<string, unknown> = { ...gen.defaults };
  for (const [k, v] of Object.entries(own)) if (v !== undefined) merged[k] = v;
  return merged;
}

/** A generator layer's seed: its number, or its variable's value when that is a valid seed, else the render's. */
export function generatorLayerSeed(layer: GeneratorLayer, params: Readonly<Record<string, unknown>>, renderSeed: number): number {
  const name = wholeReference(layer.seed);
  const value = name !== undefined ? params[name] : layer.seed;
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 0xffffffff ? value : renderSeed;
}

/** The asset a layer's `asset` names (its id, after a "{{variable}}" is resolved). */
function assetIdOf(value: string, params: Readonly<Record<string, unknown>>): string | undefined {
  const name = wholeReference(value);
  if (name === undefined) return value;
  const v = params[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

// ---- Geometry ----------------------------------------------------------------------------------

const wholeCanvas = (spec: TemplateSpec): Box => ({ x: 0, y: 0, width: spec.size.width, height: spec.size.height });

/** A rectangle with rounded corners (radius clamped to half the shorter side), in template pixels. */
function roundedRect(box: Box, radius: number): PathTracer {
  const r = Math.max(0, Math.min(radius, box.width / 2, box.height / 2));
  return (c) => {
    if (r === 0) {
      c.rect(box.x, box.y, box.width, box.height);
      return;
    }
    const { x, y, width: w, height: h } = box;
    c.moveTo(x + r, y);
    c.lineTo(x + w - r, y);
    c.arc(x + w - r, y + r, r, -Math.PI / 2, 0);
    c.lineTo(x + w, y + h - r);
    c.arc(x + w - r, y + h - r, r, 0, Math.PI / 2);
    c.lineTo(x + r, y + h);
    c.arc(x + r, y + h - r, r, Math.PI / 2, Math.PI);
    c.lineTo(x, y + r);
    c.arc(x + r, y + r, r, Math.PI, (3 * Math.PI) / 2);
    c.closePath();
  };
}

function ellipse(box: Box): PathTracer {
  return (c) => c.ellipse(box.x + box.width / 2, box.y + box.height / 2, box.width / 2, box.height / 2, 0, 0, 2 * Math.PI);
}

const inset = (box: Box, d: number): Box => ({
  x: box.x + d,
  y: box.y + d,
  width: Math.max(0, box.width - 2 * d),
  height: Math.max(0, box.height - 2 * d),
});

/** The device pixels a box (template pixels) touches, widened by one for anti-aliasing, inside the frame. */
const boxRegion = (box: Box, S: number, frame: Frame): Region =>
  regionAround(box.x * S, box.y * S, (box.x + box.width) * S, (box.y + box.height) * S, frame);

// ---- Layers --------------------------------------------------------------------------------------

/** What a render of the composition knows: its variables, seed and scale. */
interface RenderContext {
  readonly spec: TemplateSpec;
  readonly params: Readonly<Record<string, unknown>>;
  readonly seed: number;
  /** Device pixels per template pixel. */
  readonly S: number;
  readonly pixelRatio: number;
  readonly assets: ReadonlyMap<string, TemplateAsset>;
  readonly generators: GeneratorRegistry;
}

/** One layer, ready to blend into a frame (what does not change between frames is computed once). */
interface LayerOp {
  readonly animated: boolean;
  draw(frame: Frame, input: FrameInput<Record<string, unknown>>): void;
  /**
   * The frame this layer alone leaves when it covers all of it opaquely (a generator filling the
   * canvas at full opacity), so the layers under it need not be drawn; undefined otherwise.
   */
  opaqueFrame?(device: { width: number; height: number }, input: FrameInput<Record<string, unknown>>): Uint8ClampedArray | undefined;
}

/** Computed on the first call, from that call's arguments; the same value after. */
function once<A extends unknown[], T>(make: (...args: A) => T): (...args: A) => T {
  let value: { v: T } | undefined;
  return (...args) => (value ??= { v: make(...args) }).v;
}

function fillOp(layer: FillLayer, rc: RenderContext): LayerOp {
  const opacity = opacityLevel(layer.opacity);
  const box = layer.box ?? wholeCanvas(rc.spec);
  const prepared = once((frame: Frame) => {
    const region = layer.box ? boxRegion(box, rc.S, frame) : { x: 0, y: 0, width: frame.width, height: frame.height };
    const mask = layer.box ? coverage(region, rc.S, roundedRect(box, 0)) : undefined;
    if (!layer.gradient) return { region, mask, solid: parseColor(layer.color ?? '#000000') };
    return { region, mask, solid: undefined, pixels: gradientPixels(layer, box, region, rc.S) };
  });
  return {
    animated: false,
    draw(frame) {
      const p = prepared(frame);
      if (p.solid) blendSolid(frame, p.region, p.mask, p.solid, opacity);
      else blendPremultiplied(frame, p.region, p.pixels!, p.mask, opacity);
    },
  };
}

/**
 * A gradient over a region as premultiplied RGBA: lib/gradient.ts paints it over black (which
 * gives the premultiplied colours) and, when a stop is translucent, its alpha as white over black.
 */
function gradientPixels(layer: FillLayer, box: Box, region: Region, S: number): Uint8ClampedArray {
  const g = layer.gradient!;
  const stops = g.stops.map((s) => {
    const c = parseColor(s.color);
    return { offset: s.offset, color: { r: c.r, g: c.g, b: c.b }, alpha: c.a / 255 };
  });
  let shape: Parameters<typeof paintGradient>[1]['shape'];
  if (g.type === 'linear') {
    // CSS: the angle runs clockwise from "to top"; the line through the centre is as long as the
    // box's projection on it, so the corners get the end colours.
    const rad = (g.angle * Math.PI) / 180;
    const dx = dmath.sin(rad);
    const dy = -dmath.cos(rad);
    const half = (Math.abs(box.width * dx) + Math.abs(box.height * dy)) / 2;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    shape = { kind: 'linear', x0: cx - dx * half, y0: cy - dy * half, x1: cx + dx * half, y1: cy + dy * half };
  } else {
    const cx = box.x + box.width * (g.cx ?? 0.5);
    const cy = box.y + box.height * (g.cy ?? 0.5);
    const far = Math.max(...[box.x, box.x + box.width].flatMap((x) => [box.y, box.y + box.height].map((y) => Math.hypot(x - cx, y - cy))));
    shape = { kind: 'radial', cx, cy, r: Math.max(far, 1e-6) };
  }
  const paint = (white: boolean) => {
    const block = emptyBlock(region.width, region.height, region.x, region.y);
    for (let i = 3; i < block.data.length; i += 4) block.data[i] = 255;
    paintGradient(block, {
      shape,
      stops: white ? stops.map((s) => ({ ...s, color: { r: 255, g: 255, b: 255 } })) : stops,
      transform: scaling(S),
    });
    return block.data;
  };
  const out = paint(false);
  const translucent = stops.some((s) => s.alpha < 1);
  const alpha = translucent ? paint(true) : undefined;
  for (let i = 3; i < out.length; i += 4) out[i] = alpha ? alpha[i - 3] : 255;
  return out;
}

const premultipliedCache = new WeakMap<Uint8Array, Uint8ClampedArray>();

function imageOp(layer: ImageLayer, rc: RenderContext): LayerOp {
  const opacity = opacityLevel(layer.opacity);
  const prepared = once((frame: Frame) => {
    const id = assetIdOf(layer.asset, rc.params);
    const asset = id === undefined ? undefined : rc.assets.get(id);
    if (!asset || asset.kind !== 'image') throw new Error(`image asset ${id ?? layer.asset} is missing`);
    if (asset.rgba.length !== asset.width * asset.height * 4 || asset.width < 1 || asset.height < 1)
      throw new Error(`image asset ${id} is not ${asset.width}×${asset.height} RGBA pixels`);
    let premultiplied = premultipliedCache.get(asset.rgba);
    if (!premultiplied) premultipliedCache.set(asset.rgba, (premultiplied = premultiply(asset.rgba)));
    const S = rc.S;
    const bx = layer.box.x * S,
      by = layer.box.y * S,
      bw = layer.box.width * S,
      bh = layer.box.height * S;
    const k = (layer.fit === 'contain' ? Math.min : Math.max)(bw / asset.width, bh / asset.height);
    const iw = asset.width * k,
      ih = asset.height * k;
    const ix = bx + (bw - iw) / 2,
      iy = by + (bh - ih) / 2;
    const region = regionAround(Math.max(bx, ix), Math.max(by, iy), Math.min(bx + bw, ix + iw), Math.min(by + bh, iy + ih), frame);
    if (region.width === 0 || region.height === 0) return undefined;
    const pixels = placeImage(premultiplied, asset.width, asset.height, { scale: k, x: ix, y: iy }, region);
    // The box, corners rounded, times the image's own edges (contain leaves the rest of the box empty).
    const mask = coverage(region, S, roundedRect(layer.box, layer.radius ?? 0));
    const span = (p: number, from: number, to: number) => Math.max(0, Math.min(p + 1, to) - Math.max(p, from));
    const covX = Float64Array.from({ length: region.width }, (_, x) => span(region.x + x, ix, ix + iw));
    const covY = Float64Array.from({ length: region.height }, (_, y) => span(region.y + y, iy, iy + ih));
    for (let y = 0; y < region.height; y++)
      for (let x = 0; x < region.width; x++) {
        const j = y * region.width + x;
        const c = covX[x] * covY[y];
        if (c < 1) mask[j] = Math.round(mask[j] * c);
      }
    return { region, pixels, mask };
  });
  return {
    animated: false,
    draw(frame) {
      const p = prepared(frame);
      if (p) blendPremultiplied(frame, p.region, p.pixels, p.mask, opacity);
    },
  };
}

function textOp(layer: TextLayer, rc: RenderContext): LayerOp {
  const opacity = opacityLevel(layer.opacity);
  const prepared = once((frame: Frame) => {
    const text = layerText(layer, rc.params);
    if (!text.trim()) return [];
    const face = textFaceOf(layer, text, rc.params, rc.assets);
    const setting = setText(layer, text, face);
    return textFills(layer, setting, layer.color ?? DEFAULT_TEXT_COLOR).map((f) => {
      const [x0, y0, x1, y1] = f.bounds;
      const region = regionAround(x0 * rc.S, y0 * rc.S, x1 * rc.S, y1 * rc.S, frame);
      return { region, mask: coverage(region, rc.S, f.trace), color: parseColor(f.color) };
    });
  });
  return {
    animated: false,
    draw(frame) {
      drawFills(frame, prepared(frame), opacity);
    },
  };
}

/**
 * Solid fills of one layer: blended one by one when the layer is opaque (or has one fill), else
 * drawn as a group first so that its opacity applies once, over the parts as they overlap.
 */
function drawFills(
  frame: Frame,
  fills: ReadonlyArray<{ region: Region; mask: Uint8Array; color: ReturnType<typeof parseColor> }>,
  opacity: number,
) {
  if (fills.length === 0 || opacity === 0) return;
  if (opacity === 255 || fills.length === 1) {
    for (const f of fills) blendSolid(frame, f.region, f.mask, f.color, opacity);
    return;
  }
  const x0 = Math.min(...fills.map((f) => f.region.x));
  const y0 = Math.min(...fills.map((f) => f.region.y));
  const x1 = Math.max(...fills.map((f) => f.region.x + f.region.width));
  const y1 = Math.max(...fills.map((f) => f.region.y + f.region.height));
  const group = new Group({ x: x0, y: y0, width: x1 - x0, height: y1 - y0 });
  for (const f of fills) group.fill(f.region, f.mask, f.color);
  group.blendInto(frame, opacity);
}

function shapeOp(layer: ShapeLayer, rc: RenderContext): LayerOp {
  const opacity = opacityLevel(layer.opacity);
  const prepared = once((frame: Frame) => {
    const region = boxRegion(layer.box, rc.S, frame);
    const path = (box: Box, radius: number) => (layer.shape === 'ellipse' ? ellipse(box) : roundedRect(box, radius));
    const fills: Array<{ region: Region; mask: Uint8Array; color: ReturnType<typeof parseColor> }> = [];
    const radius = layer.radius ?? 0;
    if (layer.fill) fills.push({ region, mask: coverage(region, rc.S, path(layer.box, radius)), color: parseColor(layer.fill) });
    if (layer.stroke && layer.stroke.width > 0) {
      // Inside the box, as a design tool's inside stroke: the path runs half the width in.
      const w = Math.min(layer.stroke.width, layer.box.width / 2, layer.box.height / 2);
      const stroke = coverage(region, rc.S, path(inset(layer.box, w / 2), Math.max(0, radius - w / 2)), w * rc.S);
      fills.push({ region, mask: stroke, color: parseColor(layer.stroke.color) });
    }
    return fills;
  });
  return {
    animated: false,
    draw(frame) {
      drawFills(frame, prepared(frame), opacity);
    },
  };
}

/** A generator's frame as opaque RGBA device pixels, as the render worker draws it. */
function generatorFrame(gen: GeneratorDefinition, input: FrameInput<Record<string, unknown>>, width: number, height: number) {
  if (gen.pixels) return gen.pixels(input, { width, height });
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.scale(input.pixelRatio, input.pixelRatio);
  gen.draw(ctx, input);
  return ctx.getImageData(0, 0, width, height).data as Uint8ClampedArray;
}

function generatorOp(layer: GeneratorLayer, rc: RenderContext): LayerOp {
  const gen = layerGenerator(rc.generators, layer);
  if (!gen) throw new Error(`no generator ${layer.slug}`);
  const opacity = opacityLevel(layer.opacity);
  const params = generatorLayerParams(layer, gen, rc.params);
  const seed = generatorLayerSeed(layer, rc.params, rc.seed);
  const render = (frame: Frame, input: FrameInput<Record<string, unknown>>) => {
    // Whole device pixels: the box's edges rounded, so the generator draws at its own device size.
    const box = layer.box;
    const x0 = box ? Math.round(box.x * rc.S) : 0;
    const y0 = box ? Math.round(box.y * rc.S) : 0;
    const w = box ? Math.round((box.x + box.width) * rc.S) - x0 : frame.width;
    const h = box ? Math.round((box.y + box.height) * rc.S) - y0 : frame.height;
    if (w <= 0 || h <= 0) return undefined;
    const own = gen.animated
      ? { frame: input.frame, frameCount: input.frameCount, time: input.time, loop: input.loop }
      : { frame: 0, frameCount: 1, time: 0, loop: 0 };
    const pixels = generatorFrame(
      gen,
      { params, seed, width: w / rc.pixelRatio, height: h / rc.pixelRatio, pixelRatio: rc.pixelRatio, random: mulberry32(seed), ...own },
      w,
      h,
    );
    const full = { x: x0, y: y0, width: w, height: h };
    const region = clip(full, frame);
    if (region.width === full.width && region.height === full.height) return { region, pixels };
    const part = new Uint8ClampedArray(region.width * region.height * 4);
    for (let y = 0; y < region.height; y++) {
      const from = ((region.y - y0 + y) * w + (region.x - x0)) * 4;
      part.set(pixels.subarray(from, from + region.width * 4), y * region.width * 4);
    }
    return { region, pixels: part };
  };
  const still = once((frame: Frame, input: FrameInput<Record<string, unknown>>) => render(frame, input));
  return {
    animated: gen.animated,
    opaqueFrame(device, input) {
      if (opacity !== 255 || gen.animated) return undefined;
      const p = still({ data: new Uint8ClampedArray(0), ...device }, input);
      const whole = p?.region.x === 0 && p.region.y === 0 && p.region.width === device.width && p.region.height === device.height;
      // A generator's frame is opaque (the generator contract checks it): nothing under it shows.
      // The ops live for one still render, so the frame may be drawn on in place.
      return whole ? p.pixels : undefined;
    },
    draw(frame, input) {
      const p = gen.animated ? render(frame, input) : still(frame, input);
      if (!p) return;
      if (opacity === 255 && p.region.width === frame.width) frame.data.set(p.pixels, p.region.y * frame.width * 4);
      else blendPremultiplied(frame, p.region, p.pixels, undefined, opacity);
    },
  };
}

function layerOp(layer: TemplateLayer, rc: RenderContext): LayerOp {
  switch (layer.kind) {
    case 'fill':
      return fillOp(layer, rc);
    case 'image':
      return imageOp(layer, rc);
    case 'text':
      return textOp(layer, rc);
    case 'shape':
      return shapeOp(layer, rc);
    case 'generator':
      return generatorOp(layer, rc);
  }
}

// ---- The generator -------------------------------------------------------------------------------

/** Formats of a still template and of an animated one (src/lib/formats.ts). */
const STILL_FORMATS: readonly OutputFormat[] = ['png', 'webp', 'jpeg'];
const ANIMATED_FORMATS: readonly OutputFormat[] = ['gif', 'mp4', 'png', 'webp', 'jpeg'];

/** The graphemes of a template's texts that no font draws, named by variable (or by the layer's field). */
export function templateUnsupportedText(
  spec: TemplateSpec,
  params: Readonly<Record<string, unknown>>,
  assets: ReadonlyMap<string, TemplateAsset>,
  generators: GeneratorRegistry,
): Array<{ param: string; graphemes: string[] }> {
  const found = new Map<string, string[]>();
  const add = (param: string, graphemes: readonly string[]) => {
    const list = found.get(param) ?? [];
    for (const g of graphemes) if (!list.includes(g)) list.push(g);
    if (list.length) found.set(param, list);
  };
  spec.layers.forEach((layer, i) => {
    if (layer.kind === 'text') {
      const text = layerText(layer, params);
      let face;
      try {
        face = textFaceOf(layer, text, params, assets);
      } catch {
        return; // a missing font asset: templateParamIssues names it
      }
      for (const piece of textPieces(layer.text, params))
        add(piece.variable ?? `layers.${i}.text`, unsupportedGraphemes(piece.text.replace(/\r\n?|\n/g, ' '), face));
    } else if (layer.kind === 'generator') {
      const gen = layerGenerator(generators, layer);
      if (!gen?.unsupportedText) return;
      for (const u of gen.unsupportedText(generatorLayerParams(layer, gen, params)))
        add(wholeReference(layer.params?.[u.param]) ?? `layers.${i}.params.${u.param}`, u.graphemes);
    }
  });
  return [...found].map(([param, graphemes]) => ({ param, graphemes }));
}

/**
 * What a render's variables do wrong that the variables' schema cannot see, for a 400 before
 * rendering: an asset that is missing or of the wrong kind, a generator param a variable made
 * invalid, and a text whose layer refuses to overflow (`fit.overflow: error`) that does not fit
 * at its smallest size. Await the template's prepare() first (the text is set to know).
 */
export function templateParamIssues(
  spec: TemplateSpec,
  params: Readonly<Record<string, unknown>>,
  assets: ReadonlyMap<string, TemplateAsset>,
  generators: GeneratorRegistry,
): TemplateParamIssue[] {
  const issues: TemplateParamIssue[] = [];
  const checkAsset = (value: string | undefined, kind: 'image' | 'font', field: string) => {
    if (value === undefined) return;
    const variable = wholeReference(value);
    const id = assetIdOf(value, params);
    const asset = id === undefined ? undefined : assets.get(id);
    if (asset?.kind === kind) return;
    issues.push({
      param: variable ?? field,
      message: asset ? `names a ${asset.kind} asset, not a ${kind}` : `must name an existing ${kind} asset (ast_…)`,
      keyword: 'asset',
    });
  };
  spec.layers.forEach((layer, i) => {
    if (layer.kind === 'image') checkAsset(layer.asset, 'image', `layers.${i}.asset`);
    else if (layer.kind === 'text') {
      checkAsset(layer.font?.asset, 'font', `layers.${i}.font.asset`);
      if (layer.fit?.overflow !== 'error' || issues.length > 0) return;
      const text = layerText(layer, params);
      const setting = setText(layer, text, textFaceOf(layer, text, params, assets));
      if (!setting.overflow) return;
      const variable = textPieces(layer.text, params).find((p) => p.variable && p.text.trim())?.variable;
      issues.push({
        param: variable ?? `layers.${i}.text`,
        message: `is too long for text layer "${layer.id}": it does not fit its box at the smallest size (${fitMin(layer)} px)`,
        keyword: 'overflow',
      });
    } else if (layer.kind === 'generator') {
      const gen = layerGenerator(generators, layer);
      if (!gen) return;
      const name = wholeReference(layer.seed);
      const seed = name === undefined ? undefined : params[name];
      if (
        name !== undefined &&
        seed !== undefined &&
        !(typeof seed === 'number' && Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff)
      )
        issues.push({ param: name, message: 'must be an integer from 0 to 4294967295 (a seed)', keyword: 'seed' });
      for (const issue of generatorParamIssues(gen, generatorLayerParams(layer, gen, params))) {
        const variable = wholeReference(layer.params?.[issue.param]);
        issues.push({
          param: variable ?? `layers.${i}.params.${issue.param}`,
          message: `${issue.message} (param ${issue.param} of ${layer.slug} in layer "${layer.id}")`,
          keyword: issue.keyword,
        });
      }
    }
  });
  return issues;
}

/** How one text layer is set: the size it shrank to (template pixels), its lines, and whether it was cut with "…". */
export interface TextFit {
  id: string;
  size: number;
  lines: number;
  overflow: boolean;
}

/** How each text layer is set for these params, in layer order (what X-Service-Text-Fit says). */
export function templateTextFits(
  spec: TemplateSpec,
  params: Readonly<Record<string, unknown>>,
  assets: ReadonlyMap<string, TemplateAsset>,
): TextFit[] {
  return spec.layers.flatMap((layer) => {
    if (layer.kind !== 'text') return [];
    const text = layerText(layer, params);
    const setting = setText(layer, text, textFaceOf(layer, text, params, assets));
    return [{ id: layer.id, size: setting.size, lines: setting.lines.length, overflow: setting.overflow }];
  });
}

/** A template version as a generator: its variables are the params, its layers the picture. */
export function templateGenerator(options: TemplateGeneratorOptions): GeneratorDefinition {
  const { id, version, spec, assets, generators } = options;
  const animatedLayer = animatedLayerOf(spec, generators);
  const hasText = spec.layers.some((l) => l.kind === 'text');
  const background = parseColor(spec.background ?? DEFAULT_BACKGROUND);
  const defaults = variableDefaults(spec);

  /** The layers of the last animated render, kept between its frames. */
  let kept: { key: string; ops: LayerOp[]; prefix?: Uint8ClampedArray } | undefined;

  const pixels = (input: FrameInput<Record<string, unknown>>, device: { width: number; height: number }): Uint8ClampedArray => {
    const rc: RenderContext = {
      spec,
      params: input.params,
      seed: input.seed,
      S: (input.width * input.pixelRatio) / spec.size.width,
      pixelRatio: input.pixelRatio,
      assets,
      generators,
    };
    const frameOf = (data?: Uint8ClampedArray): Frame =>
      data
        ? { data: Uint8ClampedArray.from(data), width: device.width, height: device.height }
        : solidFrame(device.width, device.height, background);
    if (!animatedLayer || input.frameCount <= 1) {
      kept = undefined;
      const ops = spec.layers.map((layer) => layerOp(layer, rc));
      // The topmost layer that covers the whole frame opaquely is where drawing starts.
      for (let i = ops.length - 1; i >= 0; i--) {
        const covered = ops[i].opaqueFrame?.(device, input);
        if (!covered) continue;
        const frame = { data: covered, width: device.width, height: device.height };
        for (const op of ops.slice(i + 1)) op.draw(frame, input);
        return frame.data;
      }
      const frame = frameOf();
      for (const op of ops) op.draw(frame, input);
      return frame.data;
    }
    // An animation: what lies under the animated layer is composed once, the rest keeps its rasters.
    const key = JSON.stringify([input.params, input.seed, input.width, input.height, input.pixelRatio, device.width, device.height]);
    if (kept?.key !== key) kept = { key, ops: spec.layers.map((l) => layerOp(l, rc)) };
    const k = kept;
    if (!k.prefix) {
      const under = frameOf();
      for (const op of k.ops.slice(0, animatedLayer.index)) op.draw(under, input);
      k.prefix = under.data;
    }
    const frame = frameOf(k.prefix);
    for (const op of k.ops.slice(animatedLayer.index)) op.draw(frame, input);
    return frame.data;
  };

  return {
    slug: id,
    name: options.name ?? id,
    description: `Template ${id}, version ${version}.`,
    version: String(version),
    animated: animatedLayer !== undefined,
    formats: animatedLayer ? ANIMATED_FORMATS : STILL_FORMATS,
    suggestedSize: { width: spec.size.width, height: spec.size.height },
    defaults,
    paramSchema: spec.variables,
    async prepare() {
      const layerGenerators = [...new Set(spec.layers.flatMap((l) => (l.kind === 'generator' ? [l.slug] : [])))];
      await Promise.all([hasText ? shaperReady() : undefined, ...layerGenerators.map((slug) => generators.ready(slug))]);
    },
    unsupportedText: (params) => templateUnsupportedText(spec, params, assets, generators),
    checkParams: (params) => templateParamIssues(spec, params, assets, generators),
    ...(animatedLayer
      ? {
          animation: (params: Record<string, unknown>) => {
            const gen = layerGenerator(generators, animatedLayer.layer)!;
            return gen.animation!(generatorLayerParams(animatedLayer.layer, gen, params));
          },
        }
      : {}),
    pixels,
    draw: drawPixels(pixels),
  };
}
