// A template version as a worker thread draws it: the task carries the version's spec and the
// stored form of every asset it draws (render.worker.ts); here they become a generator, once per
// version and set of assets in this thread. Images are stored as 8-bit RGBA PNGs (src/assets), so
// decoding them is exact on every CPU.
import { decodeNormalizedImage } from '../assets/asset-files.ts';
import type { GeneratorDefinition } from '../generators/generator.types.ts';
import type { GeneratorRegistry } from '../generators/registry.ts';
import { templateGenerator } from '../templates/compose-template.ts';
import type { TemplateAsset, TemplateSpec, TemplateTask } from '../templates/template.types.ts';

/** Decoded assets by content hash, and generators by version and assets; a thread keeps the last few. */
const decoded = new Map<string, Promise<TemplateAsset>>();
const built = new Map<string, Promise<GeneratorDefinition>>();
const KEEP = 16;

function remember<T>(map: Map<string, T>, key: string, make: () => T): T {
  const known = map.get(key);
  if (known !== undefined) {
    map.delete(key);
    map.set(key, known);
    return known;
  }
  const value = make();
  map.set(key, value);
  if (map.size > KEEP) map.delete(map.keys().next().value!);
  return value;
}

async function decodeAsset(asset: TemplateTask['assets'][string]): Promise<TemplateAsset> {
  if (asset.kind === 'font') return { kind: 'font', sha256: asset.sha256, data: asset.data };
  const image = await decodeNormalizedImage(Buffer.from(asset.data.buffer, asset.data.byteOffset, asset.data.byteLength));
  return { kind: 'image', sha256: asset.sha256, ...image };
}

export function templateTaskGenerator(task: TemplateTask, generators: GeneratorRegistry): Promise<GeneratorDefinition> {
  const ids = Object.keys(task.assets).sort();
  const key = `${task.id}@${task.version}|${ids.map((id) => task.assets[id]!.sha256).join(',')}`;
  return remember(built, key, async () => {
    const assets = new Map<string, TemplateAsset>();
    for (const id of ids) {
      const asset = task.assets[id]!;
      assets.set(id, await remember(decoded, asset.sha256, () => decodeAsset(asset)));
    }
    const generator = templateGenerator({ id: task.id, version: task.version, spec: task.spec as TemplateSpec, assets, generators });
    await generator.prepare?.();
    return generator;
  });
}
