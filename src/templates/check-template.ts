// What a template's JSON Schema cannot check, checked when a version is created: layer ids
// unique, generators that exist with static params their schema accepts, at most one animated
// layer, variables that are declared, bundled families that exist, gradient stops in order,
// boxes with a size, colours that parse, fit sizes in order. Each problem names its field
// (`body.layers.2.fit.min`).
import { BUNDLED_FAMILIES } from '../generators/lib/font-coverage.ts';
import type { GeneratorRegistry } from '../generators/registry.ts';
import { layerGenerator } from './layer-versions.ts';
import { generatorParamIssues } from './generator-params.ts';
import { isHexColor } from './raster.ts';
import { DEFAULT_LINE_HEIGHT, fitMin } from './template-text.ts';
import type { Box, Gradient, TemplateSpec } from './template.types.ts';
import { references, wholeReference, wholeReferencesIn } from './variables.ts';

export interface TemplateProblem {
  path: string;
  message: string;
}

/** Problems of a template spec the schema cannot see; `root` prefixes every path (default `body`). */
export function checkTemplate(spec: TemplateSpec, generators: GeneratorRegistry, root = 'body'): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  const add = (path: string, message: string) => problems.push({ path: `${root}.${path}`, message });
  const declared = new Set(Object.keys(spec.variables?.properties ?? {}));
  const variable = (path: string, name: string) => {
    if (!declared.has(name)) add(path, `refers to {{${name}}}, which is not a declared variable (variables.properties)`);
  };
  const color = (path: string, value: unknown, opaque = false) => {
    if (value === undefined) return;
    if (!isHexColor(value)) add(path, 'must be a colour: #rgb, #rrggbb or #rrggbbaa');
    else if (opaque && value.length === 9) add(path, 'must be opaque: #rgb or #rrggbb');
  };
  const box = (path: string, b: Box | undefined) => {
    if (!b) return;
    if (!(b.width > 0)) add(`${path}.width`, 'must be greater than 0');
    if (!(b.height > 0)) add(`${path}.height`, 'must be greater than 0');
  };
  const asset = (path: string, value: string | undefined) => {
    if (value === undefined) return;
    const name = wholeReference(value);
    if (name !== undefined) variable(path, name);
    else if (!value.startsWith('ast_')) add(path, 'must be an asset id (ast_…) or "{{variable}}"');
  };
  const gradient = (path: string, g: Gradient) => {
    if (g.stops.length < 2) add(`${path}.stops`, 'must have at least 2 stops');
    g.stops.forEach((s, i) => {
      if (!(s.offset >= 0 && s.offset <= 1)) add(`${path}.stops.${i}.offset`, 'must be from 0 to 1');
      else if (i > 0 && s.offset < g.stops[i - 1].offset) add(`${path}.stops.${i}.offset`, 'must not be less than the stop before it');
      color(`${path}.stops.${i}.color`, s.color);
    });
  };

  if (!(spec.size.width > 0)) add('size.width', 'must be greater than 0');
  if (!(spec.size.height > 0)) add('size.height', 'must be greater than 0');
  color('background', spec.background, true);

  const ids = new Map<string, number>();
  let animated: number | undefined;
  spec.layers.forEach((layer, i) => {
    const at = `layers.${i}`;
    if (ids.has(layer.id)) add(`${at}.id`, `repeats the id "${layer.id}" of layers.${ids.get(layer.id)}`);
    else ids.set(layer.id, i);
    if (layer.opacity !== undefined && !(layer.opacity >= 0 && layer.opacity <= 1)) add(`${at}.opacity`, 'must be from 0 to 1');
    switch (layer.kind) {
      case 'fill':
        box(`${at}.box`, layer.box);
        if ((layer.color === undefined) === (layer.gradient === undefined)) add(at, 'must have one of color and gradient');
        color(`${at}.color`, layer.color);
        if (layer.gradient) gradient(`${at}.gradient`, layer.gradient);
        break;
      case 'image':
        box(`${at}.box`, layer.box);
        asset(`${at}.asset`, layer.asset);
        if (layer.radius !== undefined && !(layer.radius >= 0)) add(`${at}.radius`, 'must be 0 or more');
        break;
      case 'shape':
        box(`${at}.box`, layer.box);
        color(`${at}.fill`, layer.fill);
        if (layer.stroke) {
          color(`${at}.stroke.color`, layer.stroke.color);
          if (!(layer.stroke.width > 0)) add(`${at}.stroke.width`, 'must be greater than 0');
        }
        if (layer.fill === undefined && layer.stroke === undefined) add(at, 'must have a fill, a stroke or both');
        if (layer.radius !== undefined && !(layer.radius >= 0)) add(`${at}.radius`, 'must be 0 or more');
        break;
      case 'text': {
        box(`${at}.box`, layer.box);
        for (const name of references(layer.text)) variable(`${at}.text`, name);
        color(`${at}.color`, layer.color);
        const family = layer.font?.family;
        if (family !== undefined && !BUNDLED_FAMILIES.includes(family))
          add(`${at}.font.family`, `must be one of the bundled families: ${BUNDLED_FAMILIES.join(', ')}`);
        asset(`${at}.font.asset`, layer.font?.asset);
        const weight = layer.font?.weight;
        if (weight !== undefined && !(weight >= 100 && weight <= 900)) add(`${at}.font.weight`, 'must be from 100 to 900');
        if (layer.lineHeight !== undefined && !(layer.lineHeight > 0)) add(`${at}.lineHeight`, 'must be greater than 0');
        const fit = layer.fit;
        if (fit) {
          if (!(fit.max > 0)) add(`${at}.fit.max`, 'must be greater than 0');
          if (fit.min !== undefined && !(fit.min > 0)) add(`${at}.fit.min`, 'must be greater than 0');
          else if (fit.min !== undefined && fit.min > fit.max) add(`${at}.fit.min`, `must not be more than fit.max (${fit.max})`);
          if (fit.maxLines !== undefined && !(Number.isInteger(fit.maxLines) && fit.maxLines >= 1))
            add(`${at}.fit.maxLines`, 'must be a whole number, 1 or more');
        }
        const lineAtMin = fitMin(layer) * (layer.lineHeight ?? DEFAULT_LINE_HEIGHT);
        if (layer.box.height > 0 && lineAtMin > layer.box.height)
          add(`${at}.box.height`, `must hold one line at the smallest size: at least ${lineAtMin} (fit.min × lineHeight)`);
        break;
      }
      case 'generator': {
        box(`${at}.box`, layer.box);
        if (!generators.get(layer.slug)) {
          add(`${at}.slug`, `no generator has the slug "${layer.slug}" (GET /v1/generators)`);
          break;
        }
        const gen = layerGenerator(generators, layer);
        if (!gen || (layer.version !== undefined && generators.release(layer.slug, layer.version)?.status === 'retired')) {
          add(`${at}.version`, `${layer.slug} has no version ${layer.version} that renders (GET /v1/generators/${layer.slug} lists them)`);
          break;
        }
        if (gen.animated) {
          if (animated !== undefined)
            add(`${at}.slug`, `is animated, and so is layers.${animated}: a template has at most one animated layer`);
          else animated = i;
        }
        const seedVar = wholeReference(layer.seed);
        if (seedVar !== undefined) variable(`${at}.seed`, seedVar);
        else if (
          layer.seed !== undefined &&
          !(typeof layer.seed === 'number' && Number.isInteger(layer.seed) && layer.seed >= 0 && layer.seed <= 0xffffffff)
        )
          add(`${at}.seed`, 'must be an integer from 0 to 4294967295, or "{{variable}}"');
        const own = layer.params ?? {};
        const refs = wholeReferencesIn(own);
        for (const r of refs) variable(`${at}.params.${r.path}`, r.variable);
        // Static params over the defaults; a param whose value (or part of it) is a variable keeps its default here.
        const fromVariables = new Set(refs.map((r) => r.path.split('.')[0]));
        const merged: Record<string, unknown> = { ...gen.defaults };
        for (const [k, v] of Object.entries(own)) if (!fromVariables.has(k)) merged[k] = v;
        for (const issue of generatorParamIssues(gen, merged))
          if (!fromVariables.has(issue.param)) add(`${at}.params${issue.path ? `.${issue.path}` : ''}`, issue.message);
        break;
      }
    }
  });
  return problems;
}
