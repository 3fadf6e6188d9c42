// STUB until the compositor lands (branch issue42-compositor): draws solid fills only.
import type { GeneratorDefinition } from '../generators/generator.types.ts';
import type { GeneratorRegistry } from '../generators/registry.ts';
import type { TemplateAsset, TemplateSpec } from './template.types.ts';

export function templateGenerator(options: {
  id: string;
  version: number;
  spec: TemplateSpec;
  assets: ReadonlyMap<string, TemplateAsset>;
  generators: GeneratorRegistry;
}): GeneratorDefinition {
  const { spec } = options;
  const defaults: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(spec.variables.properties ?? {})) if ('default' in schema) defaults[name] = schema.default;
  return {
    slug: options.id,
    name: options.id,
    description: '',
    version: String(options.version),
    animated: false,
    formats: ['png', 'webp'],
    defaults,
    paramSchema: spec.variables,
    draw(ctx, input) {
      for (const layer of spec.layers) {
        if (layer.kind !== 'fill' || !layer.color) continue;
        ctx.fillStyle = layer.color;
        ctx.fillRect(0, 0, input.width, input.height);
      }
    },
  };
}

export function checkTemplate(_spec: TemplateSpec, _generators: GeneratorRegistry): Array<{ path: string; message: string }> {
  return [];
}

export function textOverflowIssues(
  _generator: GeneratorDefinition,
  _params: Record<string, unknown>,
  _paramsPath: string,
): Array<{ path: string; message: string; keyword?: string }> {
  return [];
}
