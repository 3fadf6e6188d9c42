// A generator layer's params checked against the generator's paramSchema, as a recipe's are
// (src/engine/recipe.ts): one Ajv, one compiled validator per generator.
import type { ValidateFunction } from 'ajv';
import type { GeneratorDefinition } from '../generators/generator.types.ts';
import { createAjv, toIssues } from '../lib/schema-validation.ts';

const ajv = createAjv({ useDefaults: false, validateSchema: false });
const validators = new WeakMap<GeneratorDefinition, ValidateFunction>();

/** What is wrong with a generator's (merged) params: the param (top-level name) and the message. */
export function generatorParamIssues(
  gen: GeneratorDefinition,
  params: Record<string, unknown>,
): Array<{ param: string; path: string; message: string; keyword: string }> {
  let validate = validators.get(gen);
  if (!validate) validators.set(gen, (validate = ajv.compile(gen.paramSchema)));
  if (validate(params)) return [];
  return toIssues(validate.errors, '').map((issue) => {
    const path = issue.path === 'body' ? '' : issue.path.replace(/^\./, '');
    return { param: path.split('.')[0] ?? '', path, message: issue.message, keyword: issue.keyword ?? 'invalid' };
  });
}
