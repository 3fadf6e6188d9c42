// The template editor's operations on a template's variables (a JSON Schema of an object): define,
// change, rename (its `{{uses}}` in the layers follow) and remove a variable, and where an API issue
// belongs (a layer's field, a variable, a template field). Each returns a new template.
// No DOM (unit-tested in Node: test/unit/web-template-variables.test.ts).

/** A variable's name as `{{name}}` takes it. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The variables schema, with its `properties` (a template without variables has none). */
const schemaOf = (t) => ({ type: 'object', ...t.variables, properties: { ...(t.variables?.properties ?? {}) } });

/** The template's variables: [name, schema] in their order. */
export const variablesOf = (t) => Object.entries(t.variables?.properties ?? {});

/** The name of a variable that `{{…}}` makes the whole of `value`, or null. */
export const wholeVariable = (value) => /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/.exec(String(value ?? ''))?.[1] ?? null;

/** The variables image layers take their asset from (their value is an image asset's id). */
export const imageVariables = (t) =>
  new Set(
    t.layers
      .filter((l) => l.kind === 'image')
      .map((l) => wholeVariable(l.asset))
      .filter(Boolean),
  );

/** A name no variable has yet: `base`, `base2`, `base3`… */
export function unusedName(t, base = 'text') {
  const taken = new Set(Object.keys(t.variables?.properties ?? {}));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}${n}`)) return `${base}${n}`;
}

/** The template with variable `name`'s schema set to `schema` (a new variable goes last). */
export function setVariable(t, name, schema) {
  const variables = schemaOf(t);
  variables.properties[name] = schema;
  return { ...t, variables };
}

/** The template without variable `name` (nor in `required`). Its `{{uses}}` stay: the service names them. */
export function removeVariable(t, name) {
  const variables = schemaOf(t);
  delete variables.properties[name];
  if (Array.isArray(variables.required)) variables.required = variables.required.filter((r) => r !== name);
  return { ...t, variables };
}

/**
 * The template with variable `from` named `to`, in the same place, in `required`, and in every
 * `{{from}}` of its layers. The same template when `to` is not a free, valid name.
 */
export function renameVariable(t, from, to) {
  if (from === to || !VARIABLE_NAME.test(to) || Object.hasOwn(t.variables?.properties ?? {}, to)) return t;
  const properties = Object.fromEntries(variablesOf(t).map(([k, v]) => [k === from ? to : k, v]));
  const variables = { ...schemaOf(t), properties };
  if (Array.isArray(variables.required)) variables.required = variables.required.map((r) => (r === from ? to : r));
  const uses = new RegExp(`\\{\\{(\\s*)${from}(\\s*)\\}\\}`, 'g');
  const layers = JSON.parse(JSON.stringify(t.layers), (_, v) => (typeof v === 'string' ? v.replace(uses, `{{$1${to}$2}}`) : v));
  return { ...t, variables, layers };
}

/**
 * Where an API issue's path points (preview: `body.template.layers.2.box.width`, `body.params.title`;
 * save: `body.layers.2.fit.min`, `body.variables.properties.title`): `{ layer: 2, field: 'box.width' }`,
 * `{ variable: 'title' }`, or `{ field: 'name' }` for the template's own fields.
 */
export function issueTarget(path) {
  const parts = String(path ?? '')
    .replace(/\//g, '.')
    .split('.')
    .filter(Boolean);
  if (parts[0] === 'body') parts.shift();
  if (parts[0] === 'template') parts.shift();
  if (parts[0] === 'layers' && /^\d+$/.test(parts[1] ?? '')) return { layer: Number(parts[1]), field: parts.slice(2).join('.') };
  if (parts[0] === 'params' && parts[1]) return { variable: parts[1] };
  if (parts[0] === 'variables' && parts[1] === 'properties' && parts[2]) return { variable: parts[2] };
  return { field: parts.join('.') };
}
