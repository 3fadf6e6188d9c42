// The starter templates (starters/*.json, docs/templates.md "Starters"): each is a POST /v1/templates
// body that goes into any workspace unchanged — it matches the contract's request schema, names no
// asset id and no uploaded font, documents and bounds every variable — and is checked whole and
// rendered as the command line renders it (scripts/docs/starters.ts), with its sample assets, at a
// small size; the longest text its variables allow still renders (shrunk, then cut with "…").
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import type { ResolvedRecipe } from '../../src/engine/recipe.ts';
import { FORMATS } from '../../src/lib/formats.ts';
import { createRenderEngine, type RenderEngine } from '../../src/services/render-engine.factory.ts';
import { resolveTemplateFiles } from '../../src/services/template-files.ts';
import type { TemplateSpec } from '../../src/templates/template.types.ts';
import { registry } from '../../scripts/docs/catalogue.ts';
import { STARTERS, STARTER_PATHS, readStarter, starterFile, starterNames } from '../../scripts/docs/starters.ts';
import { ajv, dereferencedDocument, validatorFor } from '../support/contract.ts';

type Schema = Record<string, unknown>;
interface VariableSchema {
  type?: string;
  description?: string;
  default?: unknown;
  maxLength?: number;
  maxItems?: number;
}

/** createTemplate's request body schema, every $ref resolved. */
const bodySchema = (
  dereferencedDocument as unknown as {
    paths: Record<string, { post: { requestBody: { content: Record<string, { schema: Schema }> } } }>;
  }
).paths['/v1/templates']!.post.requestBody.content['application/json']!.schema;
const body = (name: string) => JSON.parse(readFileSync(starterFile(name), 'utf8')) as Record<string, unknown> & TemplateSpec;
const variablesOf = (name: string) =>
  body(name).variables as unknown as { required?: string[]; properties: Record<string, VariableSchema> };
/** The params of a starter's first docs picture (images name files of starters/assets/). */
const sampleParams = (name: string) => STARTERS.find((s) => s.name === name)!.samples[0]!.params;

test('starters/ holds exactly the four starters the docs show', () => {
  assert.deepEqual(starterNames(), STARTERS.map((s) => s.name).sort());
  assert.deepEqual(starterNames(), ['avatar-initials', 'blog-og-image', 'event-banner', 'product-announcement']);
});

describe('every starter is a POST /v1/templates body for any workspace', () => {
  for (const name of starterNames()) {
    test(`${name}: matches the contract's request schema (TemplateCreate)`, () => {
      const validate = validatorFor(bodySchema);
      assert.ok(validate(body(name)), `starters/${name}.json: ${ajv.errorsText(validate.errors)}`);
    });

    test(`${name}: no asset id and no uploaded font; every image comes from a declared string variable`, () => {
      const text = readFileSync(starterFile(name), 'utf8');
      assert.doesNotMatch(text, /ast_[0-9a-f]{32}/);
      const { properties } = variablesOf(name);
      for (const layer of body(name).layers) {
        if (layer.kind === 'image') {
          const variable = /^\{\{(\w+)\}\}$/.exec(layer.asset)?.[1];
          assert.ok(variable, `${name}: layer ${layer.id} takes its asset from a variable`);
          assert.equal(properties[variable]?.type, 'string', `${name}: ${variable} is declared as a string`);
        }
        if (layer.kind === 'text') assert.equal(layer.font?.asset, undefined, `${name}: layer ${layer.id} draws a bundled family`);
      }
    });

    test(`${name}: every variable is described and bounded; an optional one has a default, a required one none`, () => {
      const { required = [], properties } = variablesOf(name);
      for (const [key, v] of Object.entries(properties)) {
        assert.ok(v.description && v.description.length > 10, `${name}.${key} needs a description`);
        if (v.type === 'string') assert.ok(v.maxLength, `${name}.${key} needs a maxLength`);
        if (v.type === 'array') assert.ok(v.maxItems, `${name}.${key} needs a maxItems`);
        assert.equal(v.default === undefined, required.includes(key), `${name}.${key}: a default exactly when it is optional`);
      }
    });
  }

  test('the avatar has exactly one variable; the event banner is animated (gif and mp4), the others still', async () => {
    assert.deepEqual(Object.keys(variablesOf('avatar-initials').properties), ['initials']);
    for (const name of starterNames()) {
      const resolved = await resolveTemplateFiles(
        await readStarter(name),
        registry,
        { params: sampleParams(name), format: 'png' },
        STARTER_PATHS,
      );
      const motion = resolved.generator.formats.filter((f) => FORMATS[f].kind === 'motion').sort();
      if (name === 'event-banner') {
        assert.equal(resolved.generator.animated, true);
        assert.deepEqual(motion, ['gif', 'mp4']);
        const gif = await resolveTemplateFiles(
          await readStarter(name),
          registry,
          { params: sampleParams(name), format: 'gif' },
          STARTER_PATHS,
        );
        assert.ok(gif.frames > 1 && gif.frames <= 60, `${gif.frames} frames: a short loop`);
      } else {
        assert.equal(resolved.generator.animated, false, name);
        assert.deepEqual(motion, [], name);
      }
    }
  });
});

describe('every starter renders with its sample assets; the longest text its variables allow stays in its box', () => {
  let engine: RenderEngine;
  before(async () => {
    engine = await createRenderEngine({
      ffmpegPath: undefined,
      render: { workers: 1, queueLimit: 10, timeoutMs: 120_000, animationBudgetMs: 120_000, inThread: true },
    });
  });
  after(async () => engine?.close());

  const WIDTH = 240;
  const pixels = async (resolved: ResolvedRecipe) => {
    const { bytes } = await engine.service.render(resolved, { mode: 'job' });
    return sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  };
  /** Words that fill `maxLength` characters, and one word that long (broken with a hyphen, then cut with "…"). */
  const longest = (maxLength: number) => [
    'Deterministic renders with fitted titles and every byte in place '.repeat(4).slice(0, maxLength).trimEnd(),
    'W'.repeat(maxLength),
  ];

  for (const name of STARTERS.map((s) => s.name)) {
    test(`${name}: checked whole and rendered at width ${WIDTH}; long texts shrink and end in … inside their boxes`, async () => {
      const files = await readStarter(name);
      const { width: W, height: H } = files.spec.size;
      const height = Math.round((WIDTH * H) / W);
      const size = { width: WIDTH, height, pixelRatio: 1 };
      const renderWith = async (params: Record<string, unknown>) =>
        pixels(
          await resolveTemplateFiles(
            files,
            registry,
            { params: { ...sampleParams(name), ...params }, seed: 1, size, format: 'png' },
            STARTER_PATHS,
          ),
        );

      const sample = await renderWith({});
      assert.deepEqual([sample.info.width, sample.info.height], [WIDTH, height]);
      const [min, max] = sample.data.reduce(([lo, hi], v) => [Math.min(lo, v), Math.max(hi, v)], [255, 0]);
      assert.ok(max - min > 100, `${name}: a picture, not a flat colour`);

      // The text variables (not the images), and where their layers may draw, in output pixels (±1).
      const images = new Set(body(name).layers.flatMap((l) => (l.kind === 'image' ? [/^\{\{(\w+)\}\}$/.exec(l.asset)?.[1]] : [])));
      const texts = Object.entries(variablesOf(name).properties).filter(([key, v]) => v.type === 'string' && !images.has(key));
      const scale = WIDTH / W;
      const boxes = files.spec.layers.flatMap((l) =>
        l.kind === 'text'
          ? [
              {
                x0: l.box.x * scale - 1,
                y0: l.box.y * scale - 1,
                x1: (l.box.x + l.box.width) * scale + 1,
                y1: (l.box.y + l.box.height) * scale + 1,
              },
            ]
          : [],
      );
      const blank = await renderWith(Object.fromEntries(texts.map(([key]) => [key, ' '])));
      for (const variant of [0, 1]) {
        const params = Object.fromEntries(texts.map(([key, v]) => [key, longest(v.maxLength!)[variant]]));
        const long = await renderWith(params);
        assert.deepEqual([long.info.width, long.info.height], [WIDTH, height]);
        let ink = 0;
        const outside: string[] = [];
        for (let y = 0; y < height; y++)
          for (let x = 0; x < WIDTH; x++) {
            const i = (y * WIDTH + x) * 3;
            if (long.data[i] === blank.data[i] && long.data[i + 1] === blank.data[i + 1] && long.data[i + 2] === blank.data[i + 2])
              continue;
            ink++;
            if (!boxes.some((b) => x + 0.5 >= b.x0 && x + 0.5 <= b.x1 && y + 0.5 >= b.y0 && y + 0.5 <= b.y1)) outside.push(`${x},${y}`);
          }
        assert.ok(ink > 0, `${name}: the long texts are drawn`);
        assert.deepEqual(outside.slice(0, 10), [], `${name}: text drawn outside its boxes with ${JSON.stringify(params)}`);
      }
    });
  }
});
