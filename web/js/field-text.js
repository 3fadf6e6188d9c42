// What the form says about its fields, without the DOM (unit-tested in Node: test/unit/web-field-text.test.ts):
// characters counted as JSON Schema counts them, help text with its `code` spans, API issues in plain words.

/** Characters as JSON Schema's maxLength counts them: code points (an emoji such as 👋 is one, not two UTF-16 units). */
export const codePoints = (text) => Array.from(text ?? '').length;

/**
 * A text field's counter against its maxLength: "12 / 80"; state 'near' from 90 % of it to the limit
 * itself, 'over' past it ("85 / 80 · 5 too many": never cut, the service's validation says why).
 */
export function charCount(text, max) {
  const n = codePoints(text);
  const over = n - max;
  return { text: `${n} / ${max}${over > 0 ? ` · ${over} too many` : ''}`, state: over > 0 ? 'over' : n >= 0.9 * max ? 'near' : '' };
}

/** Help text as [text, code, text, …]: each Markdown `code` span at an odd index, no backtick left. */
export const codeSpans = (text) =>
  String(text)
    .split(/`([^`]+)`/)
    .map((s, i) => (i % 2 ? s : s.replace(/`/g, '')));

/** "pixelRatio" → "Pixel ratio": a field with no title of its own, named by its path's last word. */
const wordsOf = (name) => {
  const s = name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return s.charAt(0).toUpperCase() + s.slice(1);
};

/** Ajv's wording in plain words: "must NOT have more than 80 characters" → "must be at most 80 characters". */
export const plainMessage = (message) =>
  String(message ?? 'is invalid')
    .replace(
      /NOT have (more|fewer) than (\d+)( characters)?/,
      (_, m, n, c = '') => `${c ? 'be' : 'have'} at ${m === 'more' ? 'most' : 'least'} ${n}${c}`,
    )
    .replace(/be ([<>])= /, (_, o) => `be at ${o === '<' ? 'most' : 'least'} `);

/**
 * Where an API issue goes and what it says, never its JSON path: the nearest field its path names
 * (`body.params.title`, `body.params.palette.2` → `params.title`, `params.palette`) among `titles`
 * (form field path → its title), and the line "Title: must be at most 80 characters". An issue no
 * field owns has `field` null and is named by its path's last word ("Pixel ratio: …").
 */
export function issueLine(issue, titles = {}) {
  const parts = String(issue?.path ?? '')
    .replace(/\//g, '.')
    .replace(/^body\.?/, '')
    .split('.');
  let field = null;
  for (let n = parts.length; n > 0 && !field; n--)
    if (Object.hasOwn(titles, parts.slice(0, n).join('.'))) field = parts.slice(0, n).join('.');
  const name = field ? titles[field] : wordsOf(parts.filter((p) => !/^\d*$/.test(p)).at(-1) ?? '');
  const message = plainMessage(issue?.message);
  return { field, text: name ? `${name}: ${message}` : message };
}
