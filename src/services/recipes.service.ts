// Recipes of generators and of a workspace's templates, resolved alike. A registry generator resolves
// at once (render.service.ts); a template (`tpl_…`, or `tpl_…@3` for a version) is loaded from the
// workspace first — its version, its assets — and then resolves as a generator does, its recipe
// pinning the version and the content hash of every asset it draws. Without a workspace (or in
// another one) a template is a 404, exactly like a missing one.
import {
  type DecodedRecipe,
  type FieldPaths,
  type RecipeInput,
  type RecipeOverrides,
  type ResolvedRecipe,
  BODY_PATHS,
  decodeRecipe,
  isTemplateId,
  mergeParams,
  resolveDecoded,
  resolveWith,
} from '../engine/recipe.ts';
import { ProblemError } from '../errors/problem.ts';
import type { GeneratorDefinition } from '../generators/generator.types.ts';
import type { RenderService } from './render.service.ts';
import type { LoadedTemplate, TemplateInput, TemplatesService } from './templates.service.ts';
import type { TextFit } from '../templates/compose-template.ts';

/** `tpl_…` or `tpl_…@<version>`. */
const TEMPLATE_REF = /^(tpl_[A-Za-z0-9]{1,60})(?:@([1-9][0-9]{0,8}))?$/;

/** `<generator>@<version>`: a generator pinned to one released version (what a signed base stores). */
const GENERATOR_VERSION_REF = /^([a-z0-9][a-z0-9-]{0,63})@([0-9]+\.[0-9]+\.[0-9]+)$/;

export function isTemplateRef(slug: string): boolean {
  return TEMPLATE_REF.test(slug);
}

export class RecipesService {
  constructor(
    private readonly render: RenderService,
    private readonly templates: TemplatesService | undefined,
  ) {}

  async resolve(
    workspaceId: string | undefined,
    slug: string,
    input: RecipeInput,
    paths: FieldPaths = BODY_PATHS,
  ): Promise<ResolvedRecipe> {
    const ref = TEMPLATE_REF.exec(slug);
    const pinned = GENERATOR_VERSION_REF.exec(slug);
    if (pinned) return this.render.resolvePinned(pinned[1]!, pinned[2]!, input, paths);
    if (!ref) return this.render.resolve(slug, input, paths);
    const loaded = await this.load(workspaceId, ref[1]!, ref[2] === undefined ? undefined : Number(ref[2]));
    return this.resolveLoaded(loaded, input, paths);
  }

  /**
   * An unsaved template's recipe (POST /v1/templates/preview): the draft is checked as a save would
   * (issues under `body.template`), then resolves as a saved version does; with how its texts are set.
   */
  async resolveDraft(
    workspaceId: string,
    draft: TemplateInput,
    input: RecipeInput,
  ): Promise<{ resolved: ResolvedRecipe; textFits: TextFit[] }> {
    const loaded = await this.templates!.draft(workspaceId, draft, 'body.template');
    const resolved = await this.resolveLoaded(loaded, input, BODY_PATHS);
    return { resolved, textFits: this.templates!.textFits(loaded, resolved.recipe.params) };
  }

  private async resolveLoaded(loaded: LoadedTemplate, input: RecipeInput, paths: FieldPaths): Promise<ResolvedRecipe> {
    const params = mergeParams(loaded.generator.defaults, input.params);
    const { resolution, task } = await this.templates!.resolution(loaded, params, paths);
    return { ...resolveWith(loaded.generator, input, paths, resolution), template: { workspaceId: loaded.workspaceId, task } };
  }

  /** A recipe URL's recipe; a template's is looked up in the caller's workspace. */
  async resolveEncoded(
    workspaceId: string | undefined,
    hash: string,
    encoded: string,
    overrides: RecipeOverrides,
  ): Promise<ResolvedRecipe> {
    // A generator's recipe URL repeats: the render service keeps its resolution, so it is not decoded again.
    const known = this.render.resolvedBefore(hash, encoded, overrides);
    if (known) return known;
    const decoded: DecodedRecipe = decodeRecipe(hash, encoded);
    if (!isTemplateId(decoded.generator)) return this.render.resolveEncoded(hash, encoded, overrides);
    const version = Number(decoded.version);
    if (!Number.isInteger(version) || version < 1)
      throw new ProblemError('template_not_found', { detail: `No version ${decoded.version} of template ${decoded.generator}.` });
    const loaded = await this.load(workspaceId, decoded.generator, version);
    const params = mergeParams(loaded.generator.defaults, decoded.params);
    const { resolution, task } = await this.templates!.resolution(loaded, params, {
      params: 'query.r.params',
      seed: 'query.r.seed',
      size: 'query.r.size',
      format: 'query.format',
      quality: 'query.q',
    });
    const resolved = resolveDecoded(loaded.generator, decoded, overrides, resolution);
    // The recipe pins what its assets were: a pin that is not what they are now cannot be drawn again.
    const pinned = decoded.assets ?? {};
    const now = resolved.recipe.assets ?? {};
    if (Object.keys(pinned).length !== Object.keys(now).length || Object.entries(pinned).some(([id, sha]) => now[id] !== sha))
      throw new ProblemError('invalid_recipe', {
        detail: 'The recipe pins assets that are not the ones its template version draws.',
        issues: [{ path: 'query.r.assets', message: 'does not match the assets of the template version' }],
      });
    return { ...resolved, template: { workspaceId: loaded.workspaceId, task } };
  }

  /**
   * What a slug renders now, for a signed base: a generator's current version, or a template's
   * latest version with the slug that pins it (`tpl_…@<version>`), so the base keeps drawing the
   * version it was made over.
   */
  async definition(workspaceId: string, slug: string): Promise<{ generator: GeneratorDefinition; slug: string }> {
    const ref = TEMPLATE_REF.exec(slug);
    if (!ref) {
      // A generator is pinned to its version, as a template to its (`slug@1.3.0`, `tpl_…@3`).
      const pinned = GENERATOR_VERSION_REF.exec(slug);
      const generator = pinned ? this.render.generatorVersion(pinned[1]!, pinned[2]!) : this.render.generator(slug);
      if (!generator)
        throw new ProblemError('generator_not_found', { detail: `No generator has the slug "${slug}". See GET /v1/generators.` });
      return { generator, slug: `${generator.slug}@${generator.version}` };
    }
    const loaded = await this.load(workspaceId, ref[1]!, ref[2] === undefined ? undefined : Number(ref[2]));
    return { generator: loaded.generator, slug: `${loaded.id}@${loaded.version}` };
  }

  private load(workspaceId: string | undefined, id: string, version: number | undefined): Promise<LoadedTemplate> {
    if (workspaceId === undefined || !this.templates) throw new ProblemError('template_not_found', { detail: `No template ${id}.` });
    return this.templates.load(workspaceId, id, version);
  }
}
