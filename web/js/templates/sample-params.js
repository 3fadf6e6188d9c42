// The sample values of a template's variables: the params its thumbnails and the editor's first
// picture render with. A sample is stored in the variables schema itself, as the JSON Schema
// annotation `examples` (the first item); without one, the variable's `default`. No DOM.

/** `{ <variable>: examples[0] ?? default }` for each of `variables.properties`, omitted when it has neither. */
export function sampleParams(template) {
  const params = {};
  for (const [name, schema] of Object.entries(template?.variables?.properties ?? {})) {
    const value = schema?.examples?.[0] ?? schema?.default;
    if (value !== undefined) params[name] = value;
  }
  return params;
}
