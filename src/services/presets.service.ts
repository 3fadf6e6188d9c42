// Presets: named recipes saved per workspace. A recipe is validated by resolving it through the
// render service on every create and update, so a preset never holds a recipe that cannot render;
// it is stored as given, with the hash it resolved to. Everything is scoped to the workspace:
// another workspace's preset answers 404 exactly like a missing one.
import { randomBase62 } from '../lib/ids.ts';
import type { PresetRecord, PresetsRepository, StoredRecipe } from '../../db/repositories/presets.repository.ts';
import type { components } from '../../codegen/openapi.ts';
import { type FieldPaths, type RecipeInput, type ResolvedRecipe, recipePaths } from '../engine/recipe.ts';
import { ProblemError } from '../errors/problem.ts';
import type { Clock } from '../lib/clock.ts';
import type { RenderService } from './render.service.ts';
import { RecipesService } from './recipes.service.ts';

export type PresetRecipe = components['schemas']['PresetRecipe'];
export type PresetView = components['schemas']['Preset'];
export type PresetCreate = components['schemas']['PresetCreate'];
export type PresetUpdate = components['schemas']['PresetUpdate'];

/** Presets a workspace may hold. */
export const MAX_PRESETS = 500;

/** Where a request's recipe lives, so validation issues name `body.recipe.…`. */
const BODY_RECIPE_PATHS: FieldPaths = recipePaths('body.recipe');
/** A stored recipe that no longer resolves (e.g. its generator changed) is reported under this path. */
const STORED_RECIPE_PATHS: FieldPaths = recipePaths('preset.recipe');

export function newPresetId(): string {
  return `pre_${randomBase62(20)}`;
}

/** Exactly the recipe fields the client sent; nothing is filled in. */
function copyRecipe(recipe: PresetRecipe): StoredRecipe {
  const stored: StoredRecipe = { slug: recipe.slug };
  if (recipe.params !== undefined) stored.params = recipe.params;
  if (recipe.seed !== undefined) stored.seed = recipe.seed;
  if (recipe.size !== undefined) stored.size = recipe.size;
  if (recipe.format !== undefined) stored.format = recipe.format;
  if (recipe.quality !== undefined) stored.quality = recipe.quality;
  return stored;
}

function recipeInput(recipe: StoredRecipe): RecipeInput {
  return {
    params: recipe.params,
    seed: recipe.seed,
    size: recipe.size,
    format: recipe.format as RecipeInput['format'],
    ...(recipe.quality !== undefined ? { quality: recipe.quality } : {}),
  };
}

export function toView(preset: PresetRecord, recipeHash = preset.recipeHash): PresetView {
  return {
    id: preset.id,
    name: preset.name,
    recipe: preset.recipe as PresetRecipe,
    recipeHash,
    createdAt: new Date(preset.createdAt).toISOString(),
    updatedAt: new Date(preset.updatedAt).toISOString(),
  };
}

const notFound = (id: string) => new ProblemError('not_found', { detail: `No preset ${id} in this workspace.` });

export interface PresetsServiceOptions {
  repo: PresetsRepository;
  /** Resolves presets' recipes: checks them and gives their hashes. */
  render: RenderService;
  /** Resolves recipes of templates too (a preset may name one of the workspace's); generators only unless given. */
  recipes?: RecipesService;
  clock: Clock;
  /** Presets a workspace may hold; MAX_PRESETS unless told. */
  limit?: number;
}

export class PresetsService {
  private readonly repo: PresetsRepository;
  private readonly recipes: RecipesService;
  private readonly clock: Clock;
  private readonly limit: number;

  constructor(options: PresetsServiceOptions) {
    ({ repo: this.repo, clock: this.clock } = options);
    this.recipes = options.recipes ?? new RecipesService(options.render, undefined);
    this.limit = options.limit ?? MAX_PRESETS;
  }

  async create(workspaceId: string, input: PresetCreate): Promise<PresetView> {
    const recipe = copyRecipe(input.recipe);
    const resolved = await this.recipes.resolve(workspaceId, recipe.slug, recipeInput(recipe), BODY_RECIPE_PATHS);
    const now = this.clock.now();
    const record: PresetRecord = {
      id: newPresetId(),
      workspaceId,
      name: input.name.trim() || input.name,
      recipe,
      recipeHash: resolved.hash,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.repo.insertWithinLimit(record, this.limit))) {
      throw new ProblemError('conflict', { detail: `A workspace can hold at most ${this.limit} presets. Delete unused presets first.` });
    }
    return toView(record);
  }

  async list(workspaceId: string): Promise<PresetView[]> {
    return Promise.all((await this.repo.listByWorkspace(workspaceId)).map((p) => this.view(p)));
  }

  async get(workspaceId: string, id: string): Promise<PresetView> {
    return this.view(await this.find(workspaceId, id));
  }

  /** Fields present replace the stored ones; a new recipe is validated and re-hashed. */
  async update(workspaceId: string, id: string, input: PresetUpdate): Promise<PresetView> {
    await this.find(workspaceId, id);
    const changes: Parameters<PresetsRepository['update']>[2] = { updatedAt: this.clock.now() };
    if (input.name !== undefined) changes.name = input.name.trim() || input.name;
    if (input.recipe !== undefined) {
      changes.recipe = copyRecipe(input.recipe);
      changes.recipeHash = (
        await this.recipes.resolve(workspaceId, changes.recipe.slug, recipeInput(changes.recipe), BODY_RECIPE_PATHS)
      ).hash;
    }
    const updated = await this.repo.update(workspaceId, id, changes);
    if (!updated) throw notFound(id);
    return this.view(updated);
  }

  async delete(workspaceId: string, id: string): Promise<void> {
    if (!(await this.repo.delete(workspaceId, id))) throw notFound(id);
  }

  /** The preset's recipe, resolved now exactly as POST /v1/generate/{slug} would resolve it. */
  async resolve(workspaceId: string, id: string): Promise<ResolvedRecipe> {
    const preset = await this.find(workspaceId, id);
    return this.recipes.resolve(workspaceId, preset.recipe.slug, recipeInput(preset.recipe), STORED_RECIPE_PATHS);
  }

  /**
   * The hash is the one the preset renders to now: a generator's new version changes it. A stored
   * recipe that no longer resolves keeps the hash it was saved with (rendering it answers 400).
   */
  private async view(preset: PresetRecord): Promise<PresetView> {
    try {
      return toView(
        preset,
        (await this.recipes.resolve(preset.workspaceId, preset.recipe.slug, recipeInput(preset.recipe), STORED_RECIPE_PATHS)).hash,
      );
    } catch {
      return toView(preset);
    }
  }

  private async find(workspaceId: string, id: string): Promise<PresetRecord> {
    const preset = await this.repo.findInWorkspace(workspaceId, id);
    if (!preset) throw notFound(id);
    return preset;
  }
}
