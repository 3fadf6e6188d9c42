// Signed bases: one signed URL for a whole site. A base fixes a recipe — a generator or a template
// version, its size, format, seed and every param but its declared slots — and is signed once with a
// URL signing key; a page appends its slot values to the base's URL as query parameters
// (`/v1/bases/<id>/<sig>.<ext>?title=Hello`). Each set of slot values is a recipe of its own, resolved
// exactly as POST /v1/url-signing-keys/{id}/sign would resolve it, and answered by the code that
// answers signed recipe URLs (src/http/render-response.ts) with the signing key as the principal: the
// same ETag (the recipe hash), caching, limits and charges. The signature (url-signing-keys.service.ts,
// baseSignatureMessage) covers the base's id, extension, stored definition and key; the slot values
// are checked against the base's rules for each slot instead, before anything is rendered or charged.
import canonicalizeModule from 'canonicalize';
import type { SigningBaseRecord, SigningBasesRepository } from '../../db/repositories/signing-bases.repository.ts';
import { BODY_PATHS, type FieldPaths, type RecipeInput, type ResolvedRecipe } from '../engine/recipe.ts';
import { ProblemError, type ProblemIssue } from '../errors/problem.ts';
import type { Clock } from '../lib/clock.ts';
import { FORMATS, type OutputFormat } from '../lib/formats.ts';
import { newId } from '../lib/ids.ts';
import type { RecipesService } from './recipes.service.ts';
import type { UrlSigningKeysService } from './url-signing-keys.service.ts';

const canonicalize = canonicalizeModule as unknown as (input: unknown) => string | undefined;

/** The rules of one slot: a param of the recipe left open, filled by the URL's query. */
export interface SlotRules {
  maxLength: number;
  pattern?: string;
  enum?: string[];
  /** Default true: a URL without it is 400. An optional slot left out renders the param's default. */
  required?: boolean;
}

/** What a base fixes: stored as canonical JSON, the text its signature covers. */
export interface BaseDefinition {
  /** A generator's slug, or a template's id pinned to its version (`tpl_…@3`). */
  slug: string;
  params: Record<string, unknown>;
  seed?: number;
  size?: RecipeInput['size'];
  /** Stored always: the format rendered (the recipe's default when the request named none). */
  format?: OutputFormat;
  quality?: number;
  slots: Record<string, SlotRules>;
}

export interface CreateBaseInput {
  slug: string;
  params?: Record<string, unknown>;
  seed?: number;
  size?: RecipeInput['size'];
  format?: OutputFormat;
  quality?: number;
  slots: Record<string, SlotRules>;
  expiresAt?: string;
  expiresInSeconds?: number;
}

export interface SigningBaseView extends BaseDefinition {
  id: string;
  keyId: string;
  /** The absolute base URL a page appends its slot values to. */
  url: string;
  format: OutputFormat;
  expiresAt: string | null;
  createdAt: string;
}

/** The longest pattern a slot may have, and the longest value a slot may take. */
export const MAX_PATTERN_LENGTH = 200;
export const MAX_SLOT_LENGTH = 500;
/** Unbounded repetitions (`*`, `+`, `{n,}`) and quantifiers in all a pattern may hold: bounds a match's backtracking. */
const MAX_UNBOUNDED_REPETITIONS = 2;
const MAX_QUANTIFIERS = 8;

/**
 * Why a slot's pattern is refused, or undefined when it is taken. A pattern is matched against the
 * whole value (as HTML's `pattern` attribute) with the `u` flag, on every request of a public URL,
 * so only patterns whose matching cannot blow up are taken: at most MAX_PATTERN_LENGTH characters of
 * `u`-flag syntax, no backreference or lookaround, no repeated group (a group may take `?` only: star
 * height one, so no nested or alternating repetition), at most MAX_UNBOUNDED_REPETITIONS unbounded
 * repetitions and MAX_QUANTIFIERS quantifiers in all; the value is at most the slot's maxLength.
 */
export function patternProblem(pattern: string): string | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH) return `must be at most ${MAX_PATTERN_LENGTH} characters`;
  try {
    new RegExp(pattern, 'u');
  } catch {
    return 'is not a valid regular expression (with the u flag)';
  }
  let unbounded = 0;
  let quantifiers = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && (/[1-9]/.test(next) || next === 'k')) return 'must not hold a backreference';
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(' && pattern[i + 1] === '?' && /^(=|!|<=|<!)/.test(pattern.slice(i + 2))) return 'must not hold a lookaround';
    else if (c === '*' || c === '+' || c === '?' || c === '{') {
      // `?` after a quantifier makes it lazy, `(?` opens a group: neither is a quantifier of its own.
      if (c === '?' && (pattern[i - 1] === '(' || /[*+?}]/.test(pattern[i - 1] ?? ''))) continue;
      const brace = c === '{' ? /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i)) : null;
      if (c === '{' && !brace) continue;
      if (pattern[i - 1] === ')' && c !== '?') return 'must not repeat a group (a group may only be optional, `(…)?`)';
      quantifiers++;
      if (c === '*' || c === '+' || (brace && brace[2] !== undefined && brace[3] === '')) unbounded++;
      if (brace) i += brace[0].length - 1;
    }
  }
  if (unbounded > MAX_UNBOUNDED_REPETITIONS) return `must hold at most ${MAX_UNBOUNDED_REPETITIONS} unbounded repetitions (*, +, {n,})`;
  if (quantifiers > MAX_QUANTIFIERS) return `must hold at most ${MAX_QUANTIFIERS} quantifiers`;
  return undefined;
}

const wholeMatch = (pattern: string) => new RegExp(`^(?:${pattern})$`, 'u');

/** The JSON types a param's schema allows. */
function paramTypes(schema: Record<string, unknown>): string[] {
  const type = schema.type;
  if (Array.isArray(type)) return type.map(String);
  if (typeof type === 'string') return [type];
  if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map((v) => (typeof v === 'number' ? 'number' : typeof v)))];
  return [];
}

/** A slot's query value as the param takes it: a string param the text itself, a number or boolean param its enum value converted. */
function slotValue(value: string, types: string[]): unknown {
  if (types.includes('string')) return value;
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

const issue = (path: string, message: string, keyword: string): ProblemIssue => ({ path, message, keyword });
const invalid = (issues: ProblemIssue[]) =>
  new ProblemError('validation_failed', { detail: issues.map((i) => `${i.path} ${i.message}`).join('; '), issues });

/** Where a base URL's recipe comes from, so issues name the query parameter of a slot. */
const QUERY_SLOT_PATHS: FieldPaths = { params: 'query', seed: 'query', size: 'query', format: 'query', quality: 'query' };

export interface SigningBasesServiceOptions {
  repo: SigningBasesRepository;
  keys: UrlSigningKeysService;
  recipes: RecipesService;
  clock: Clock;
}

export class SigningBasesService {
  private readonly repo: SigningBasesRepository;
  private readonly keys: UrlSigningKeysService;
  private readonly recipes: RecipesService;
  private readonly clock: Clock;

  constructor(options: SigningBasesServiceOptions) {
    ({ repo: this.repo, keys: this.keys, recipes: this.recipes, clock: this.clock } = options);
  }

  /**
   * Creates a base of a key of the workspace (404 another workspace's key, 409 a revoked one). Its
   * recipe is validated as POST /v1/url-signing-keys/{id}/sign validates one, with a sample value in
   * each slot (the first of its enum, else the param's default or `a` where the rules take it), and
   * every value of an enum is tried: a base that could not render is refused at once.
   */
  async create(workspaceId: string, keyId: string, input: CreateBaseInput, publicUrl: string): Promise<SigningBaseView> {
    const exp = this.keys.expiryOf(input);
    await this.keys.activeKey(workspaceId, keyId);
    const { generator, slug } = await this.recipes.definition(workspaceId, input.slug);
    const properties = generator.paramSchema.properties;
    const fixed = input.params ?? {};
    const issues: ProblemIssue[] = [];
    const samples: Record<string, unknown> = {};
    const slotNames = Object.keys(input.slots);
    for (const name of slotNames) {
      const rules = input.slots[name]!;
      const path = `body.slots.${name}`;
      const schema = Object.hasOwn(properties, name) ? properties[name]! : undefined;
      if (!schema) {
        issues.push(issue(path, `is not a param of ${input.slug}`, 'slot'));
        continue;
      }
      if (Object.hasOwn(fixed, name)) {
        issues.push(issue(path, 'is also fixed in params: a slot is a param the URL fills in', 'slot'));
        continue;
      }
      const types = paramTypes(schema);
      if (!types.includes('string') && rules.enum === undefined) {
        issues.push(issue(path, `is a ${types.join(' or ') || 'non-string'} param: give its values in enum`, 'slot'));
        continue;
      }
      if (rules.pattern !== undefined) {
        const problem = patternProblem(rules.pattern);
        if (problem) {
          issues.push(issue(`${path}.pattern`, problem, 'pattern'));
          continue;
        }
      }
      const tooLong = rules.enum?.findIndex((v) => v.length > rules.maxLength) ?? -1;
      if (tooLong >= 0) {
        issues.push(issue(`${path}.enum.${tooLong}`, `is longer than maxLength (${rules.maxLength})`, 'maxLength'));
        continue;
      }
      const candidates = rules.enum ?? [typeof schema.default === 'string' ? schema.default : undefined, 'a', ''];
      const sample = candidates.find((v): v is string => v !== undefined && this.slotIssue(rules, v, name) === undefined);
      if (sample !== undefined) samples[name] = slotValue(sample, types);
    }
    if (issues.length > 0) throw invalid(issues);

    const definition: BaseDefinition = {
      slug,
      params: fixed,
      ...(input.seed !== undefined ? { seed: input.seed } : {}),
      ...(input.size !== undefined ? { size: input.size } : {}),
      ...(input.format !== undefined ? { format: input.format } : {}),
      ...(input.quality !== undefined ? { quality: input.quality } : {}),
      slots: input.slots,
    };
    // The fixed params with a sample in every slot, then each enum value in its slot: refused as /sign refuses a recipe.
    const sample = await this.resolve(workspaceId, definition, samples, BODY_PATHS);
    for (const name of slotNames) {
      const values = input.slots[name]!.enum ?? [];
      const types = paramTypes(properties[name]!);
      for (const [i, value] of values.entries()) {
        try {
          await this.resolve(workspaceId, definition, { ...samples, [name]: slotValue(value, types) }, BODY_PATHS);
        } catch (err) {
          if (err instanceof ProblemError && err.status === 400)
            throw invalid([issue(`body.slots.${name}.enum.${i}`, `is not a value ${input.slug} takes for ${name}: ${err.detail}`, 'enum')]);
          throw err;
        }
      }
    }
    // Stored with the format rendered, which a URL's extension names (a template's own default included).
    definition.format = sample.recipe.format;
    const record = await this.repo.insert({
      id: newId('sb'),
      workspaceId,
      keyId,
      definition: canonicalize(definition)!,
      expiresAt: exp === null ? null : exp * 1000,
      createdAt: this.clock.now(),
    });
    const extension = FORMATS[sample.recipe.format].extension;
    const signature = await this.keys.signBase(workspaceId, record, extension);
    return this.view(record, sample.recipe.format, signature, publicUrl);
  }

  /** The bases of a key of the workspace (revoked or not), newest first. */
  async list(workspaceId: string, keyId: string, publicUrl: string): Promise<SigningBaseView[]> {
    const key = await this.keys.keyOf(workspaceId, keyId);
    const bases = await this.repo.listByKey(workspaceId, keyId);
    return bases.map((base) => {
      const format = (JSON.parse(base.definition) as BaseDefinition).format!;
      return this.view(base, format, this.keys.baseSignature(key, base, FORMATS[format].extension), publicUrl);
    });
  }

  /** Deletes a base: its URLs answer 401 from then on, as any unknown signed URL. */
  async delete(workspaceId: string, keyId: string, baseId: string): Promise<void> {
    await this.keys.keyOf(workspaceId, keyId);
    if (!(await this.repo.delete(workspaceId, keyId, baseId)))
      throw new ProblemError('not_found', { detail: `No base ${baseId} of the URL signing key ${keyId}.` });
  }

  /**
   * The recipe a base URL asks for: its base (verified by the request's authentication) with the
   * query's slot values, each checked against its slot's rules — an unknown parameter, a value given
   * twice, a missing required slot or a value its rules refuse is 400 naming `query.<name>` — and
   * then resolved as a signed recipe URL's recipe is.
   */
  async recipeFor(workspaceId: string, baseId: string, query: Record<string, unknown>): Promise<ResolvedRecipe> {
    const base = await this.repo.findById(baseId);
    // Deleted since the request was authenticated: as the authentication would have answered.
    if (!base || base.workspaceId !== workspaceId) throw new ProblemError('unauthorized', { detail: 'No such signed base.' });
    const definition = JSON.parse(base.definition) as BaseDefinition;
    const issues: ProblemIssue[] = [];
    const values: Record<string, string> = {};
    for (const [name, value] of Object.entries(query)) {
      const path = `query.${name}`;
      if (!Object.hasOwn(definition.slots, name)) issues.push(issue(path, 'is not a slot of this base', 'additionalProperties'));
      else if (typeof value !== 'string') issues.push(issue(path, 'must be given once', 'type'));
      else {
        const problem = this.slotIssue(definition.slots[name]!, value, name);
        if (problem) issues.push(problem);
        else values[name] = value;
      }
    }
    for (const [name, rules] of Object.entries(definition.slots))
      if (rules.required !== false && !Object.hasOwn(query, name)) issues.push(issue(`query.${name}`, 'is required', 'required'));
    if (issues.length > 0) throw invalid(issues);
    const { generator } = await this.recipes.definition(workspaceId, definition.slug);
    const slotParams: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(values))
      slotParams[name] = slotValue(value, paramTypes(generator.paramSchema.properties[name] ?? {}));
    return this.resolve(workspaceId, definition, slotParams, QUERY_SLOT_PATHS);
  }

  private resolve(workspaceId: string, definition: BaseDefinition, slots: Record<string, unknown>, paths: FieldPaths) {
    const { slug, params, seed, size, format, quality } = definition;
    return this.recipes.resolve(workspaceId, slug, { params: { ...params, ...slots }, seed, size, format, quality }, paths);
  }

  /** Why a slot's value breaks its rules (naming `query.<name>`), or undefined. */
  private slotIssue(rules: SlotRules, value: string, name: string): ProblemIssue | undefined {
    const path = `query.${name}`;
    if ([...value].length > rules.maxLength) return issue(path, `must be at most ${rules.maxLength} characters`, 'maxLength');
    if (rules.enum && !rules.enum.includes(value)) return issue(path, `must be one of ${rules.enum.join(', ')}`, 'enum');
    if (rules.pattern !== undefined && !wholeMatch(rules.pattern).test(value))
      return issue(path, "does not match the slot's pattern", 'pattern');
    return undefined;
  }

  private view(base: SigningBaseRecord, format: OutputFormat, signature: string, publicUrl: string): SigningBaseView {
    const definition = JSON.parse(base.definition) as BaseDefinition;
    return {
      id: base.id,
      keyId: base.keyId,
      url: `${publicUrl}/v1/bases/${base.id}/${signature}.${FORMATS[format].extension}`,
      ...definition,
      format,
      expiresAt: base.expiresAt === null ? null : new Date(base.expiresAt).toISOString(),
      createdAt: new Date(base.createdAt).toISOString(),
    };
  }
}
