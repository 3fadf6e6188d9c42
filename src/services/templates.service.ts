// Templates: a workspace's own designs, rendered as generators are. A template is checked whole on
// every create and update (the contract checks its shape; here what a schema cannot say: layer ids,
// generators and their params, variables, fonts, and that every asset it names is the workspace's
// and of the right kind) and stored as a new immutable version. Everything is scoped to the
// workspace: another workspace's template answers 404 exactly like a missing one.
import type { ValidateFunction } from 'ajv';
import { LRUCache } from 'lru-cache';
import type { TemplateRecord, TemplatesRepository, TemplateVersionRecord } from '../../db/repositories/templates.repository.ts';
import type { components } from '../../codegen/openapi.ts';
import type { FieldPaths, TemplateResolution, TemplateTask } from '../engine/recipe.ts';
import { ProblemError, type ProblemIssue } from '../errors/problem.ts';
import { decodeCursor, pageOf } from '../lib/page-cursor.ts';
import type { GeneratorDefinition } from '../generators/generator.types.ts';
import type { GeneratorRegistry } from '../generators/registry.ts';
import { pinLayerVersions } from '../templates/layer-versions.ts';
import type { Clock } from '../lib/clock.ts';
import { randomBase62 } from '../lib/ids.ts';
import { createHash } from 'node:crypto';
import { createAjv } from '../lib/schema-validation.ts';
import { checkTemplate } from '../templates/check-template.ts';
import { templateGenerator, templateParamIssues, templateTextFits, type TextFit } from '../templates/compose-template.ts';
import type { TemplateAsset, TemplateLayer, TemplateSpec } from '../templates/template.types.ts';

export type TemplateView = components['schemas']['Template'];
export type TemplateSummaryView = components['schemas']['TemplateSummary'];
export type TemplateVersionView = components['schemas']['TemplateVersion'];
export type TemplateInput = components['schemas']['TemplateCreate'];

/** Templates a workspace may hold. */
export const MAX_TEMPLATES = 500;
const ASSET_ID = /^ast_[0-9a-f]{32}$/;
const VARIABLE = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;

type StoredAsset = { kind: 'image' | 'font'; sha256: string; data: Buffer };

/** The assets the templates service reads: the workspace's own, deleted ones included for renders (src/services/assets.service.ts). */
export interface TemplateAssetSource {
  /** Every id's stored form; a missing one throws 404 `asset_not_found` naming it. Deleted assets are still found. */
  loadForRender(workspaceId: string, ids: string[]): Promise<Map<string, StoredAsset>>;
  /** The asset as the workspace sees it, deleted or not; 404 `asset_not_found` when it has none by this id. */
  describe(workspaceId: string, id: string): Promise<{ kind: 'image' | 'font'; deleted: boolean; width?: number; height?: number }>;
}

export function newTemplateId(): string {
  return `tpl_${randomBase62(20)}`;
}

/** A template version, loaded for rendering: the generator it is seen as, and how its recipes resolve. */
export interface LoadedTemplate {
  workspaceId: string;
  id: string;
  version: number;
  spec: TemplateSpec;
  generator: GeneratorDefinition;
  /** The assets the layers name themselves, as the API thread needs them (fonts whole, images by their size). */
  assets: ReadonlyMap<string, TemplateAsset>;
  /** Asset ids the layers name themselves (not through a variable). */
  fixedAssets: string[];
  /** Variables a layer takes an image asset from. */
  assetVariables: string[];
}

const notFound = (id: string) => new ProblemError('template_not_found', { detail: `No template ${id} in this workspace.` });

function invalid(issues: ProblemIssue[]): ProblemError {
  return new ProblemError('invalid_template', { detail: issues.map((i) => `${i.path} ${i.message}`).join('; '), issues });
}

/** Asset ids and asset variables a spec's layers name. */
function assetReferences(spec: TemplateSpec): { fixed: Array<{ id: string; kind: 'image' | 'font'; path: string }>; variables: string[] } {
  const fixed: Array<{ id: string; kind: 'image' | 'font'; path: string }> = [];
  const variables: string[] = [];
  spec.layers.forEach((layer: TemplateLayer, i) => {
    if (layer.kind === 'image') {
      const variable = VARIABLE.exec(layer.asset)?.[1];
      if (variable) variables.push(variable);
      else fixed.push({ id: layer.asset, kind: 'image', path: `layers.${i}.asset` });
    }
    if (layer.kind === 'text' && layer.font?.asset !== undefined)
      fixed.push({ id: layer.font.asset, kind: 'font', path: `layers.${i}.font.asset` });
  });
  return { fixed, variables: [...new Set(variables)] };
}

function specOf(input: TemplateInput): TemplateSpec {
  return {
    size: input.size,
    ...(input.background !== undefined ? { background: input.background } : {}),
    variables: (input.variables ?? { type: 'object', properties: {} }) as TemplateSpec['variables'],
    layers: input.layers as TemplateLayer[],
  };
}

export interface TemplatesServiceOptions {
  repo: TemplatesRepository;
  assets: TemplateAssetSource;
  generators: GeneratorRegistry;
  clock: Clock;
  limit?: number;
}

export class TemplatesService {
  private readonly repo: TemplatesRepository;
  private readonly versions: TemplateVersions;
  private readonly clock: Clock;
  private readonly limit: number;
  private readonly generators: GeneratorRegistry;
  /** Versions never change, so a loaded one is kept (by workspace, id and version). */
  private readonly loaded = new LRUCache<string, Promise<LoadedTemplate>>({ max: 256 });
  /**
   * Drafts being previewed, by workspace and spec: an editor sends each one twice or more (the quick
   * and the sharp picture). Few, since every edit is a new draft holding its fonts' bytes.
   */
  private readonly drafts = new LRUCache<string, Promise<LoadedTemplate>>({ max: 16 });

  constructor(options: TemplatesServiceOptions) {
    ({ repo: this.repo, clock: this.clock } = options);
    this.generators = options.generators;
    this.versions = new TemplateVersions(options.assets, options.generators);
    this.limit = options.limit ?? MAX_TEMPLATES;
  }

  async create(workspaceId: string, input: TemplateInput): Promise<TemplateView> {
    const spec = pinLayerVersions(specOf(input), this.generators);
    await this.check(workspaceId, spec);
    const now = this.clock.now();
    const record: TemplateRecord = { id: newTemplateId(), workspaceId, name: input.name, latestVersion: 1, createdAt: now, updatedAt: now };
    if (!(await this.repo.insertWithinLimit(record, spec, this.limit))) {
      throw new ProblemError('conflict', { detail: `A workspace holds at most ${this.limit} templates. Delete one first.` });
    }
    return this.get(workspaceId, record.id);
  }

  /** A new version from the whole template; the earlier versions stay as they were. */
  async update(workspaceId: string, id: string, input: TemplateInput): Promise<TemplateView> {
    if (!(await this.repo.find(workspaceId, id))) throw notFound(id);
    const spec = pinLayerVersions(specOf(input), this.generators);
    await this.check(workspaceId, spec);
    if (!(await this.repo.addVersion(workspaceId, id, input.name, spec, this.clock.now()))) throw notFound(id);
    return this.get(workspaceId, id);
  }

  async get(workspaceId: string, id: string): Promise<TemplateView> {
    const template = await this.repo.find(workspaceId, id);
    if (!template) throw notFound(id);
    const [latest, versions] = await Promise.all([this.repo.findVersion(workspaceId, id, template.latestVersion), this.repo.versions(id)]);
    return {
      ...versionBody(template, latest!),
      updatedAt: new Date(template.updatedAt).toISOString(),
      versions: versions.map((v) => ({ version: v.version, name: v.name, createdAt: new Date(v.createdAt).toISOString() })),
    };
  }

  async getVersion(workspaceId: string, id: string, version: number): Promise<TemplateVersionView> {
    const found = await this.repo.findVersion(workspaceId, id, version);
    if (!found) throw new ProblemError('template_not_found', { detail: `No version ${version} of template ${id} in this workspace.` });
    const spec = found.spec as TemplateSpec;
    return {
      templateId: id,
      version,
      name: found.name,
      size: spec.size,
      ...(spec.background !== undefined ? { background: spec.background } : {}),
      variables: spec.variables,
      layers: spec.layers,
      createdAt: new Date(found.createdAt).toISOString(),
    } as TemplateVersionView;
  }

  async list(
    workspaceId: string,
    options: { limit?: number; cursor?: string },
  ): Promise<{ templates: TemplateSummaryView[]; next?: string }> {
    const limit = options.limit ?? 20;
    const before = decodeCursor(options.cursor);
    const { page, next } = pageOf(await this.repo.list(workspaceId, { limit: limit + 1, before }), limit);
    const templates = await Promise.all(
      page.map(async (t) => {
        const latest = await this.repo.findVersion(workspaceId, t.id, t.latestVersion);
        return {
          id: t.id,
          name: t.name,
          version: t.latestVersion,
          size: (latest!.spec as TemplateSpec).size,
          createdAt: new Date(t.createdAt).toISOString(),
          updatedAt: new Date(t.updatedAt).toISOString(),
        };
      }),
    );
    return { templates, next };
  }

  async delete(workspaceId: string, id: string): Promise<void> {
    if (!(await this.repo.delete(workspaceId, id, this.clock.now()))) throw notFound(id);
    for (const key of [...this.loaded.keys()]) if (key.startsWith(`${workspaceId}/${id}@`)) this.loaded.delete(key);
  }

  /**
   * A version of the workspace's template (the latest when `version` is undefined), seen as a generator.
   * Deleted templates are not found, so their recipes answer 404 from then on.
   */
  async load(workspaceId: string, id: string, version?: number): Promise<LoadedTemplate> {
    let pinned = version;
    if (pinned === undefined) {
      const template = await this.repo.find(workspaceId, id);
      if (!template) throw notFound(id);
      pinned = template.latestVersion;
    } else if (!(await this.repo.find(workspaceId, id))) {
      throw notFound(id);
    }
    const key = `${workspaceId}/${id}@${pinned}`;
    let loading = this.loaded.get(key);
    if (!loading) {
      loading = this.build(workspaceId, id, pinned);
      this.loaded.set(key, loading);
      loading.catch(() => this.loaded.delete(key));
    }
    return loading;
  }

  private async build(workspaceId: string, id: string, version: number): Promise<LoadedTemplate> {
    const found = await this.repo.findVersion(workspaceId, id, version);
    if (!found) throw new ProblemError('template_not_found', { detail: `No version ${version} of template ${id} in this workspace.` });
    return this.versions.prepare(workspaceId, id, version, found.spec as TemplateSpec);
  }

  /**
   * An unsaved template (POST /v1/templates/preview), checked as a save checks it (issues named
   * under `root`) and seen as a generator. Its id is derived from the workspace and the spec, so a
   * draft previewed twice (an editor's quick and sharp pictures) is prepared once.
   */
  async draft(workspaceId: string, input: TemplateInput, root: string): Promise<LoadedTemplate> {
    const spec = pinLayerVersions(specOf(input), this.generators);
    const digest = createHash('sha256').update(workspaceId).update('\0').update(JSON.stringify(spec)).digest('hex');
    const key = `${workspaceId}/draft/${digest}`;
    let loading = this.drafts.get(key);
    if (!loading) {
      loading = (async () => {
        const issues = await this.versions.issues(workspaceId, spec, root);
        if (issues.length) throw invalid(issues);
        return this.versions.prepare(workspaceId, `tpl_draft${digest.slice(0, 40)}`, 1, spec);
      })();
      this.drafts.set(key, loading);
      // A refused draft is not kept: the asset it lacked may be uploaded next.
      loading.catch(() => this.drafts.delete(key));
    }
    return loading;
  }

  /** How each text layer of a loaded template is set for these params (the editor's fit readout). */
  textFits(loaded: LoadedTemplate, params: Readonly<Record<string, unknown>>): TextFit[] {
    return templateTextFits(loaded.spec, params, loaded.assets);
  }

  /** How a recipe of this version resolves: see TemplateVersions.resolution. */
  resolution(
    loaded: LoadedTemplate,
    params: Record<string, unknown>,
    paths: FieldPaths,
  ): Promise<{ resolution: TemplateResolution; task: TemplateTask }> {
    return this.versions.resolution(loaded, params, paths);
  }

  /** Everything a schema cannot say about a template; 400 `invalid_template` naming each field. */
  private async check(workspaceId: string, spec: TemplateSpec): Promise<void> {
    const issues = await this.versions.issues(workspaceId, spec, 'body');
    if (issues.length) throw invalid(issues);
  }
}

/**
 * Template versions as renders see them, from their spec and the workspace's assets: the service
 * above loads the spec from the database, the CLI from a file (with the assets of a folder).
 */
export class TemplateVersions {
  /** Strict Ajv: a template's variables are a schema of the customer's, checked as one. */
  private readonly ajv = createAjv({ useDefaults: false, strict: true, validateSchema: true });
  private readonly variableValidators = new LRUCache<string, ValidateFunction>({ max: 256 });
  /** Assets' stored files by workspace and id, up to 64 MB. */
  private readonly stored = new LRUCache<string, StoredAsset>({
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (a) => Math.max(1, a.data.byteLength),
  });

  constructor(
    private readonly assets: TemplateAssetSource,
    private readonly generators: GeneratorRegistry,
  ) {}

  /** A version seen as a generator, with the assets its layers name themselves. */
  async prepare(workspaceId: string, id: string, version: number, spec: TemplateSpec): Promise<LoadedTemplate> {
    const refs = assetReferences(spec);
    const fixedIds = [...new Set(refs.fixed.map((r) => r.id))];
    // The API thread checks recipes and text with the fonts; it never draws, so images are their sizes alone.
    const stored = await this.assets.loadForRender(workspaceId, fixedIds);
    const assets = new Map<string, TemplateAsset>();
    for (const [assetId, a] of stored) {
      if (a.kind === 'font')
        assets.set(assetId, { kind: 'font', sha256: a.sha256, data: new Uint8Array(a.data.buffer, a.data.byteOffset, a.data.byteLength) });
      else {
        const described = await this.describeAsset(workspaceId, assetId);
        assets.set(assetId, {
          kind: 'image',
          sha256: a.sha256,
          width: described?.width ?? 1,
          height: described?.height ?? 1,
          rgba: new Uint8Array(0),
        });
      }
    }
    const generator = templateGenerator({ id, version, spec, assets, generators: this.generators });
    await generator.prepare?.();
    return { workspaceId, id, version, spec, generator, assets, fixedAssets: fixedIds, assetVariables: refs.variables };
  }

  /**
   * How a recipe of this version resolves (src/services/recipes.service.ts): loads the assets its
   * params name (an image variable must name one of the workspace's images: 400 naming the param
   * otherwise) and returns the resolution and the worker's task.
   */
  async resolution(
    loaded: LoadedTemplate,
    params: Record<string, unknown>,
    paths: FieldPaths,
  ): Promise<{ resolution: TemplateResolution; task: TemplateTask }> {
    const issues: ProblemIssue[] = [];
    const variableAssets: string[] = [];
    const assets = new Map(loaded.assets);
    for (const name of loaded.assetVariables) {
      const value = params[name];
      if (typeof value !== 'string' || !ASSET_ID.test(value)) {
        issues.push({ path: `${paths.params}.${name}`, message: 'must be the id of an image asset (ast_…)', keyword: 'asset' });
        continue;
      }
      const described = await this.describeAsset(loaded.workspaceId, value);
      if (!described || described.deleted || described.kind !== 'image')
        issues.push({ path: `${paths.params}.${name}`, message: `names no image asset of this workspace (${value})`, keyword: 'asset' });
      else {
        variableAssets.push(value);
        assets.set(value, {
          kind: 'image',
          sha256: '',
          width: described.width ?? 1,
          height: described.height ?? 1,
          rgba: new Uint8Array(0),
        });
      }
    }
    if (issues.length) throw new ProblemError('invalid_params', { detail: issues.map((i) => `${i.path} ${i.message}`).join('; '), issues });
    const ids = [...new Set([...loaded.fixedAssets, ...variableAssets])].sort();
    const stored = await this.load(loaded.workspaceId, ids);
    const taskAssets: TemplateTask['assets'] = {};
    const hashes: Record<string, string> = {};
    for (const assetId of ids) {
      const a = stored.get(assetId)!;
      taskAssets[assetId] = { kind: a.kind, sha256: a.sha256, data: new Uint8Array(a.data.buffer, a.data.byteOffset, a.data.byteLength) };
      hashes[assetId] = a.sha256;
    }
    return {
      resolution: {
        size: loaded.spec.size,
        assets: () => hashes,
        // What the variables' schema cannot see: a text that must fit and does not, a generator param a variable made invalid.
        check: (validated, at) => {
          const found = templateParamIssues(loaded.spec, validated, assets, this.generators).map((i) => ({
            path: i.param.startsWith('layers.') ? `template.${i.param}` : `${at.params}.${i.param}`,
            message: i.message,
            keyword: i.keyword,
          }));
          if (found.length)
            throw new ProblemError('invalid_params', { detail: found.map((i) => `${i.path} ${i.message}`).join('; '), issues: found });
        },
      },
      task: { id: loaded.id, version: loaded.version, spec: loaded.spec, assets: taskAssets },
    };
  }

  /**
   * The stored files of these assets, through a cache: an asset's id is its content's hash and its
   * file never changes (a delete keeps it), so a recipe URL answered from the render cache reads no
   * asset from the store after its first render.
   */
  private async load(workspaceId: string, ids: string[]): Promise<Map<string, StoredAsset>> {
    const found = new Map<string, StoredAsset>();
    const missing: string[] = [];
    for (const id of ids) {
      const cached = this.stored.get(`${workspaceId}/${id}`);
      if (cached) found.set(id, cached);
      else missing.push(id);
    }
    if (missing.length > 0)
      for (const [id, asset] of await this.assets.loadForRender(workspaceId, missing)) {
        this.stored.set(`${workspaceId}/${id}`, asset);
        found.set(id, asset);
      }
    return found;
  }

  /** The asset, or undefined when the workspace has none by this id. */
  private async describeAsset(workspaceId: string, id: string) {
    try {
      return await this.assets.describe(workspaceId, id);
    } catch (err) {
      if (err instanceof ProblemError && err.code === 'asset_not_found') return undefined;
      throw err;
    }
  }

  /** Everything a schema cannot say about a template, each issue naming its field under `root`. */
  async issues(workspaceId: string, spec: TemplateSpec, root: string): Promise<ProblemIssue[]> {
    const issues: ProblemIssue[] = checkTemplate(spec, this.generators, root);
    const variables = spec.variables;
    if (variables.type !== 'object') issues.push({ path: `${root}.variables.type`, message: 'must be "object"', keyword: 'const' });
    else {
      try {
        const key = JSON.stringify(variables);
        if (!this.variableValidators.has(key)) this.variableValidators.set(key, this.ajv.compile(variables));
      } catch (err) {
        issues.push({ path: `${root}.variables`, message: `is not a valid JSON Schema: ${(err as Error).message}`, keyword: 'schema' });
      }
    }
    const refs = assetReferences(spec);
    for (const name of refs.variables) {
      const declared = variables.properties?.[name] as { type?: unknown } | undefined;
      if (!declared) continue; // checkTemplate names undeclared variables
      if (declared.type !== 'string')
        issues.push({
          path: `${root}.variables.properties.${name}.type`,
          message: 'must be "string": an image layer takes an asset id from it',
          keyword: 'type',
        });
    }
    for (const ref of refs.fixed) {
      const described = await this.describeAsset(workspaceId, ref.id);
      if (!described || described.deleted)
        issues.push({ path: `${root}.${ref.path}`, message: `names no asset of this workspace (${ref.id})`, keyword: 'asset' });
      else if (described.kind !== ref.kind)
        issues.push({ path: `${root}.${ref.path}`, message: `names a ${described.kind}, not a ${ref.kind}`, keyword: 'asset' });
    }
    return issues;
  }
}

function versionBody(template: TemplateRecord, version: TemplateVersionRecord): Omit<TemplateView, 'updatedAt' | 'versions'> {
  const spec = version.spec as TemplateSpec;
  return {
    id: template.id,
    name: template.name,
    version: version.version,
    size: spec.size,
    ...(spec.background !== undefined ? { background: spec.background } : {}),
    variables: spec.variables,
    layers: spec.layers,
    createdAt: new Date(template.createdAt).toISOString(),
  } as Omit<TemplateView, 'updatedAt' | 'versions'>;
}
