// Spectral function (.spectral.yaml, rule `no-inline-request-default`; `npm run lint:openapi`), also run
// by test/unit/contract-rules.test.ts: a `default` in a request body's schema lives only at the top of a
// named schema (`#/components/schemas/<Name>`), which the property references. openapi-typescript's
// default `defaultNonNullable` makes a property whose own schema carries a `default` required, also in
// request bodies, so an inline default turns an optional field into one every client must send
// (docs/clients.md). Walks every schema reachable from a request body, through internal `$ref`s, and
// reports each inline `default` by its path in the document.

/** The keywords whose values are schemas (or maps or lists of schemas); nothing else is walked (not examples). */
const SCHEMA = ['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
const SCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const NAMED_SCHEMA = /^#\/components\/schemas\/[^/]+$/;

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value at an internal JSON pointer (`#/a/b`), or undefined. */
function resolve(document, ref) {
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((node, key) => (isObject(node) || Array.isArray(node) ? node[key] : undefined), document);
}

const pointerPath = (ref) =>
  ref
    .slice(2)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

/**
 * @param {unknown} document the OpenAPI document, unresolved
 * @returns {{ message: string; path: (string | number)[] }[]}
 */
export default function noInlineRequestDefault(document) {
  const results = [];
  if (!isObject(document) || !isObject(document.paths)) return results;
  /** Schemas already walked, by object (a named schema is walked once however often it is referenced). */
  const seen = new Set();

  /** `named`: the schema is the top of a named schema, where a default belongs. */
  function walk(schema, path, named, body) {
    if (!isObject(schema) || seen.has(schema)) return;
    seen.add(schema);
    if ('default' in schema && !named)
      results.push({
        message: `${body}: inline \`default\` at ${path.join('.')} makes the field required in openapi-typescript's clients; move it into a named schema (#/components/schemas/…) and reference it (docs/clients.md)`,
        path: [...path, 'default'],
      });
    if (typeof schema.$ref === 'string') {
      const target = resolve(document, schema.$ref);
      if (target !== undefined) walk(target, pointerPath(schema.$ref), NAMED_SCHEMA.test(schema.$ref), body);
    }
    for (const key of SCHEMA) if (key in schema) walk(schema[key], [...path, key], false, body);
    for (const key of SCHEMA_MAPS)
      if (isObject(schema[key])) for (const [name, sub] of Object.entries(schema[key])) walk(sub, [...path, key, name], false, body);
    for (const key of SCHEMA_LISTS)
      if (Array.isArray(schema[key])) schema[key].forEach((sub, i) => walk(sub, [...path, key, i], false, body));
  }

  for (const [route, item] of Object.entries(document.paths)) {
    if (!isObject(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!isObject(operation) || !operation.requestBody) continue;
      let requestBody = operation.requestBody;
      let bodyPath = ['paths', route, method, 'requestBody'];
      if (typeof requestBody.$ref === 'string') {
        bodyPath = pointerPath(requestBody.$ref);
        requestBody = resolve(document, requestBody.$ref);
      }
      if (!isObject(requestBody) || !isObject(requestBody.content)) continue;
      const body = `${operation.operationId ?? `${method.toUpperCase()} ${route}`}'s request body`;
      for (const [mediaType, content] of Object.entries(requestBody.content))
        if (isObject(content)) walk(content.schema, [...bodyPath, 'content', mediaType, 'schema'], false, body);
    }
  }
  return results;
}
