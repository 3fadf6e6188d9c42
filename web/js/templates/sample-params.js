// A template's sample values: a variable's sample is the first item of its JSON Schema annotation
// `examples` (stored in the template's variables schema, so it is saved with the version). The
// editor's first picture and the templates list's thumbnails render with these params.
// No DOM (unit-tested in Node: test/unit/web-template-sample-params.test.ts).

/** The params of a template's samples: for each variable, `examples[0] ?? default` (a variable with neither is left out). */
export function sampleParams(template) {
  const params = {};
  for (const [name, schema] of Object.entries(template?.variables?.properties ?? {})) {
    const value = Array.isArray(schema?.examples) && schema.examples.length ? schema.examples[0] : schema?.default;
    if (value !== undefined) params[name] = value;
  }
  return params;
}

/**
 * The template with variable `name`'s sample set to `value` (its `examples` becomes [value]), or, for
 * undefined, without a sample (its `examples` removed). Other variables are left as they are.
 */
export function setSample(template, name, value) {
  const props = { ...(template.variables?.properties ?? {}) };
  const schema = { ...(props[name] ?? { type: 'string' }) };
  if (value === undefined) delete schema.examples;
  else schema.examples = [value];
  props[name] = schema;
  return { ...template, variables: { type: 'object', ...template.variables, properties: props } };
}
