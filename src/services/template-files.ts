// A template and its assets as files, for the command line: a template file (a version as
// `GET /v1/templates/{id}/versions/{n}` answers it, or a body as `POST /v1/templates` takes it) and a
// folder of the images and fonts it draws. Each file becomes the asset the API would make of it —
// the same id (from its bytes), the same normalized image — so the render gives the API's bytes. A
// layer or a param may name a file of the folder (`logo.png`) where the API takes its id.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { assetIdOf, DEFAULT_ASSET_LIMITS, normalizeImage, sha256Of, sniff, type AssetMediaType } from '../assets/asset-files.ts';
import { mergeParams, resolveWith, type FieldPaths, type RecipeInput, type ResolvedRecipe } from '../engine/recipe.ts';
import { ProblemError } from '../errors/problem.ts';
import type { GeneratorRegistry } from '../generators/registry.ts';
import { pinLayerVersions } from '../templates/layer-versions.ts';
import type { TemplateSpec } from '../templates/template.types.ts';
import { TemplateVersions, type TemplateAssetSource } from './templates.service.ts';

/** The id a template file without one renders under (a design that was never uploaded). */
export const LOCAL_TEMPLATE_ID = 'tpl_local';

const IMAGE_TYPES: Partial<Record<string, AssetMediaType>> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

interface FileAsset {
  kind: 'image' | 'font';
  sha256: string;
  data: Buffer;
  width?: number;
  height?: number;
  file: string;
}

export interface TemplateFiles {
  /** The template file's path, as given. */
  file: string;
  id: string;
  version: number;
  spec: TemplateSpec;
  /** The folder's assets, as the templates service reads a workspace's. */
  assets: TemplateAssetSource;
  /** A param that names a file of the folder (`"photo": "ada.jpg"`) takes that file's asset id. */
  withAssetIds(params: Record<string, unknown>): Record<string, unknown>;
}

/** A mistake in the files: the command line reports it as one of its own (exit 2). */
export class TemplateFileError extends Error {}

export async function readTemplateFiles(templateFile: string, assetsDir: string | undefined): Promise<TemplateFiles> {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(await readFile(templateFile, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new TemplateFileError(`--template ${templateFile}: not a JSON template (${(err as Error).message})`);
  }
  const id = typeof json.templateId === 'string' ? json.templateId : typeof json.id === 'string' ? json.id : LOCAL_TEMPLATE_ID;
  const version = typeof json.version === 'number' ? json.version : 1;
  if (!/^tpl_[A-Za-z0-9]{1,60}$/.test(id) || !Number.isInteger(version) || version < 1)
    throw new TemplateFileError(`--template ${templateFile}: "templateId" must be tpl_… and "version" a whole number from 1`);
  if (!Array.isArray(json.layers) || typeof json.size !== 'object' || json.size === null)
    throw new TemplateFileError(`--template ${templateFile}: a template has "size" and "layers"`);
  const spec: TemplateSpec = {
    size: json.size as TemplateSpec['size'],
    ...(typeof json.background === 'string' ? { background: json.background } : {}),
    variables: (json.variables ?? { type: 'object', properties: {} }) as TemplateSpec['variables'],
    layers: json.layers as TemplateSpec['layers'],
  };

  const byId = new Map<string, FileAsset>();
  const byName = new Map<string, string>();
  for (const name of assetsDir ? (await readdir(assetsDir)).sort() : []) {
    const file = path.join(assetsDir!, name);
    const bytes = await readFile(file).catch(() => undefined); // a folder inside is not an asset
    if (!bytes) continue;
    const format = sniff(bytes);
    const sha256 = sha256Of(bytes);
    const imageType = format ? IMAGE_TYPES[format] : undefined;
    let asset: FileAsset;
    if (imageType) {
      try {
        const image = await normalizeImage(imageType, bytes, DEFAULT_ASSET_LIMITS);
        asset = { kind: 'image', sha256, data: image.png, width: image.width, height: image.height, file };
      } catch (err) {
        throw new TemplateFileError(`--assets: ${file}: ${err instanceof ProblemError ? err.detail : (err as Error).message}`);
      }
    } else if (format === 'sfnt' || format === 'woff2') {
      asset = { kind: 'font', sha256, data: bytes, file };
    } else {
      continue; // not an image or font the API would take: not an asset
    }
    byId.set(assetIdOf(sha256), asset);
    byName.set(name, assetIdOf(sha256));
  }

  // A layer may name a file of the folder instead of its id: a design kept in a repository need not know ids.
  const named = (value: string | undefined) => (value !== undefined && byName.has(value) ? byName.get(value)! : value);
  spec.layers = spec.layers.map((layer) =>
    layer.kind === 'image'
      ? { ...layer, asset: named(layer.asset)! }
      : layer.kind === 'text' && layer.font?.asset !== undefined
        ? { ...layer, font: { ...layer.font, asset: named(layer.font.asset) } }
        : layer,
  );
  const missing = (assetId: string) =>
    new ProblemError('asset_not_found', { detail: `No file in ${assetsDir ?? '(no --assets folder)'} is the asset ${assetId}.` });
  return {
    file: templateFile,
    id,
    version,
    spec,
    assets: {
      loadForRender: async (_workspaceId, ids) => {
        const loaded = new Map<string, { kind: 'image' | 'font'; sha256: string; data: Buffer }>();
        for (const assetId of ids) {
          const asset = byId.get(assetId);
          if (!asset) throw missing(assetId);
          loaded.set(assetId, { kind: asset.kind, sha256: asset.sha256, data: asset.data });
        }
        return loaded;
      },
      describe: async (_workspaceId, assetId) => {
        const asset = byId.get(assetId);
        if (!asset) throw missing(assetId);
        return { kind: asset.kind, deleted: false, width: asset.width, height: asset.height };
      },
    },
    withAssetIds: (params) =>
      Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' && byName.has(v) ? byName.get(v) : v])),
  };
}

/**
 * The recipe of a template file with its folder's assets, resolved as the API resolves a template's
 * (templates.service.ts): the template checked whole (TemplateFileError naming each field), then the
 * params, with `paths` naming where a caller's mistakes came from. A param may name a file of the folder.
 */
export async function resolveTemplateFiles(
  files: TemplateFiles,
  registry: GeneratorRegistry,
  input: RecipeInput,
  paths: FieldPaths,
): Promise<ResolvedRecipe> {
  const versions = new TemplateVersions(files.assets, registry);
  // A layer without a version draws with the current one, as a new template version would.
  const spec = pinLayerVersions(files.spec, registry);
  const issues = await versions.issues('local', spec, 'template');
  if (issues.length) throw new TemplateFileError(`--template ${files.file}: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`);
  const loaded = await versions.prepare('local', files.id, files.version, spec);
  const params = files.withAssetIds(input.params ?? {});
  const { resolution, task } = await versions.resolution(loaded, mergeParams(loaded.generator.defaults, params), paths);
  return { ...resolveWith(loaded.generator, { ...input, params }, paths, resolution), template: { workspaceId: 'local', task } };
}
