// The preview's X-Service-Text-Fit header (POST /v1/templates/preview): one item per visible text
// layer, in layer order, as an RFC 8941 list of strings with parameters —
// `"title";size=84;lines=2, "author";size=34;lines=1;overflow` — and what the editor says of each.
// No DOM (unit-tested in Node: test/unit/web-template-text-fit.test.ts).

/** A bare item's value at `s[i]`: a string, a decimal or integer, a boolean (?1/?0) or a token; returns [value, next index]. */
function bareItem(s, i) {
  if (s[i] === '"') {
    let out = '';
    for (i++; i < s.length; i++) {
      if (s[i] === '\\') out += s[++i] ?? '';
      else if (s[i] === '"') return [out, i + 1];
      else out += s[i];
    }
    throw new Error('unterminated string');
  }
  if (s[i] === '?') return [s[i + 1] === '1', i + 2];
  const m = /^-?\d+(\.\d+)?/.exec(s.slice(i));
  if (m) return [Number(m[0]), i + m[0].length];
  const t = /^[A-Za-z*][\w:/!#$%&'*+.^`|~-]*/.exec(s.slice(i));
  if (t) return [t[0], i + t[0].length];
  throw new Error(`unexpected "${s[i]}" at ${i}`);
}

/** An RFC 8941 list of bare items with parameters: [{ value, params }]. Throws on what it cannot read. */
export function parseList(header) {
  const s = String(header ?? '');
  const items = [];
  let i = 0;
  const skip = () => {
    while (s[i] === ' ' || s[i] === '\t') i++;
  };
  skip();
  while (i < s.length) {
    const [value, next] = bareItem(s, i);
    i = next;
    const params = {};
    while (s[i] === ';') {
      i++;
      skip();
      const key = /^[a-z*][a-z0-9_.*-]*/.exec(s.slice(i))?.[0];
      if (!key) throw new Error(`bad parameter at ${i}`);
      i += key.length;
      if (s[i] === '=') [params[key], i] = bareItem(s, i + 1);
      else params[key] = true;
    }
    items.push({ value, params });
    skip();
    if (i >= s.length) break;
    if (s[i] !== ',') throw new Error(`expected "," at ${i}`);
    i++;
    skip();
  }
  return items;
}

/**
 * The header as [{ id, size, lines, overflow }] (the layer's id, the size it was set at in template
 * pixels, its line count, whether its last line was cut with "…"); an absent or unreadable header: [].
 */
export function parseTextFit(header) {
  try {
    return parseList(header)
      .filter((it) => typeof it.value === 'string')
      .map(({ value, params }) => ({
        id: value,
        size: typeof params.size === 'number' ? params.size : null,
        lines: typeof params.lines === 'number' ? params.lines : null,
        overflow: params.overflow === true,
      }));
  } catch {
    return [];
  }
}

/** What the editor says of a text layer's fit: "84 px · 2 lines", "shrunk from 96", "cut with …". */
export function fitText(fit, layer) {
  if (!fit) return '';
  const max = layer?.fit?.max ?? 48;
  const parts = [];
  if (fit.size != null) parts.push(`${fit.size} px${fit.size < max ? ` (shrunk from ${max})` : ''}`);
  if (fit.lines != null) parts.push(`${fit.lines} line${fit.lines === 1 ? '' : 's'}`);
  if (fit.overflow) parts.push('cut with …');
  return parts.join(' · ');
}
