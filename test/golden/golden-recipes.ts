// The golden set: one small recipe for every generator × format. Their output hashes are committed
// in goldens.json; any drift fails the suite. `npm run goldens:update` rewrites the file — do that
// only together with a generator version bump (or an ENGINE_VERSION / renderer change).
import type { RecipeInput } from '../../src/engine/recipe.ts';
import type { GeneratorDefinition } from '../../src/generators/generator.types.ts';
import type { OutputFormat } from '../../src/lib/formats.ts';
import { ALL_GENERATORS } from '../../src/generators/index.ts';
import { textGoldenCases } from './golden-recipes.text.ts';

export interface GoldenCase {
  id: string;
  slug: string;
  input: RecipeInput;
}

/** Short, small animations keep the suite fast while still exercising the motion encoders. */
function shortAnimation(def: GeneratorDefinition): Record<string, unknown> {
  const props = def.paramSchema.properties;
  const params: Record<string, unknown> = {};
  if ('duration' in props) params.duration = (props.duration.minimum as number | undefined) ?? 1;
  if ('fps' in props) params.fps = (props.fps.minimum as number | undefined) ?? 10;
  return params;
}

export function goldenCases(): GoldenCase[] {
  return ALL_GENERATORS.flatMap<GoldenCase>((def) =>
    def.formats.map((format: OutputFormat) => ({
      id: `${def.slug}@${def.version}.${format}`,
      slug: def.slug,
      input: { seed: 42, size: { width: 96, height: 64, pixelRatio: 1 }, format, params: def.animated ? shortAnimation(def) : {} },
    })),
  ).concat(textGoldenCases());
}
