// A template's variables as its layers use them: `{{name}}` inside a text is replaced by the
// variable's value (a missing one by nothing), and a string that is exactly "{{name}}" — an image
// or font asset, a generator's seed or param — takes the variable's value as it is.

/** `{{name}}`, spaces inside the braces allowed; a name is a JavaScript-like identifier. */
const REFERENCE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const WHOLE = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;

/** The variable a string names when it is exactly "{{name}}", else undefined. */
export function wholeReference(value: unknown): string | undefined {
  return typeof value === 'string' ? WHOLE.exec(value)?.[1] : undefined;
}

/** Every variable a string refers to, in order of first use. */
export function references(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(REFERENCE), (m) => m[1]))];
}

/** A variable's value as text: strings as they are, numbers and booleans written out, anything else (or nothing) empty. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/** A text with every `{{name}}` replaced by the variable's value (missing: empty). */
export function interpolate(text: string, params: Readonly<Record<string, unknown>>): string {
  return text.replace(REFERENCE, (_, name: string) => textOf(params[name]));
}

/**
 * The pieces of a text: literal stretches (`variable` undefined) and the values of the variables
 * it refers to, in order. Joined, they are interpolate(text, params).
 */
export function textPieces(text: string, params: Readonly<Record<string, unknown>>): Array<{ text: string; variable?: string }> {
  const pieces: Array<{ text: string; variable?: string }> = [];
  let at = 0;
  for (const m of text.matchAll(REFERENCE)) {
    if (m.index > at) pieces.push({ text: text.slice(at, m.index) });
    pieces.push({ text: textOf(params[m[1]]), variable: m[1] });
    at = m.index + m[0].length;
  }
  if (at < text.length) pieces.push({ text: text.slice(at) });
  return pieces;
}

/** A value with "{{name}}" replaced by the variable's value, in arrays and objects too. */
export function substitute(value: unknown, params: Readonly<Record<string, unknown>>): unknown {
  const name = wholeReference(value);
  if (name !== undefined) return params[name];
  if (Array.isArray(value)) return value.map((v) => substitute(v, params));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, substitute(v, params)]));
  return value;
}

/** Every "{{name}}" a value holds (whole strings only), with the path under it (`palette.1`). */
export function wholeReferencesIn(value: unknown, path = ''): Array<{ path: string; variable: string }> {
  const name = wholeReference(value);
  if (name !== undefined) return [{ path, variable: name }];
  const join = (k: string | number) => (path ? `${path}.${k}` : String(k));
  if (Array.isArray(value)) return value.flatMap((v, i) => wholeReferencesIn(v, join(i)));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => wholeReferencesIn(v, join(k)));
  return [];
}
