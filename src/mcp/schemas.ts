// The MCP tools' input schemas, taken from openapi.yaml's component schemas — the schemas the HTTP
// contract validates the same bodies with — never written a second time. A tool's schema is the
// component with every `$ref` inlined (MCP sends each tool's schema on its own, with no components
// to point into) and without top-level `allOf`/`oneOf`/`anyOf`/`not`: several MCP clients refuse a tool
// whose input schema has them at the top, and the service checks the body as the contract says anyway.
import { openApiDocument } from '../lib/openapi-document.ts';

export type JsonSchema = Record<string, unknown>;
/** What MCP takes as a tool's input schema: an object schema. */
export type ObjectSchema = JsonSchema & { type: 'object'; properties?: Record<string, object>; required?: string[] };

const COMPONENT_REF = '#/components/schemas/';
const PARAMETER_REF = '#/components/parameters/';

function components(): Record<string, JsonSchema> {
  return ((openApiDocument().components as { schemas?: Record<string, JsonSchema> } | undefined)?.schemas ?? {}) as Record<
    string,
    JsonSchema
  >;
}

/** `schema` with every component `$ref` replaced by a copy of the component (the contract has no recursive schemas). */
function inline(schema: unknown, seen: readonly string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inline(s, seen));
  if (schema === null || typeof schema !== 'object') return schema;
  const { $ref, ...rest } = schema as JsonSchema;
  if (typeof $ref === 'string' && $ref.startsWith(COMPONENT_REF)) {
    const name = $ref.slice(COMPONENT_REF.length);
    if (seen.includes(name)) throw new Error(`openapi.yaml: schema ${name} refers to itself; an MCP tool schema cannot inline it`);
    const target = components()[name];
    if (!target) throw new Error(`openapi.yaml: no component schema ${name}`);
    // Sibling keywords of a $ref (a description) override the component's.
    return { ...(inline(target, [...seen, name]) as JsonSchema), ...(inline(rest, seen) as JsonSchema) };
  }
  return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, inline(v, seen)]));
}

/** A component schema of openapi.yaml, self-contained (a property of a tool's input). */
export function namedSchema(name: string): JsonSchema {
  return inline({ $ref: `${COMPONENT_REF}${name}` }) as JsonSchema;
}

/** A component schema of openapi.yaml as an MCP tool's input schema: self-contained, an object at the top. */
export function componentSchema(name: string, options: { omit?: readonly string[] } = {}): ObjectSchema {
  const schema = namedSchema(name);
  const { allOf: _allOf, oneOf: _oneOf, anyOf: _anyOf, not: _not, ...top } = schema;
  const properties = { ...((top.properties as Record<string, JsonSchema> | undefined) ?? {}) };
  for (const omitted of options.omit ?? []) delete properties[omitted];
  const required = ((top.required as string[] | undefined) ?? []).filter((r) => r in properties);
  return compact({ ...top, type: 'object', properties, required: required.length ? required : undefined });
}

/** The schema of a path parameter of openapi.yaml (components.parameters), with its description. */
export function parameterSchema(name: string): JsonSchema {
  const parameters = (openApiDocument().components as { parameters?: Record<string, { schema?: unknown; description?: string }> })
    .parameters;
  const parameter = parameters?.[name.replace(PARAMETER_REF, '')];
  if (!parameter?.schema) throw new Error(`openapi.yaml: no component parameter ${name} with a schema`);
  const schema = inline(parameter.schema) as JsonSchema;
  return parameter.description && !schema.description ? { ...schema, description: parameter.description } : schema;
}

/** An object schema from named properties (each usually a component's), for a tool whose input is not one body. */
export function objectSchema(properties: Record<string, JsonSchema>, required: readonly string[] = []): ObjectSchema {
  return { type: 'object', additionalProperties: false, properties, ...(required.length ? { required: [...required] } : {}) };
}

/** Drops keys whose value is undefined (JSON.stringify would, but the SDK's schema check sees them). */
export function compact<S extends JsonSchema>(schema: S): S {
  return Object.fromEntries(Object.entries(schema).filter(([, v]) => v !== undefined)) as S;
}
