// The template editor's operations on a template (a TemplateCreate body: name, size, background,
// variables, layers): add a layer of each kind with a unique id, move, remove, set or clear a field,
// and the draft the preview renders (hidden layers left out). Each returns a new template and leaves
// its argument as it was. No DOM (unit-tested in Node: test/unit/web-template-layers.test.ts).

/** The kinds a layer can be, in the order the editor offers them. */
export const KINDS = ['text', 'image', 'shape', 'fill', 'generator'];

/** The API's limit on a template's layers (TemplateCreate.layers.maxItems). */
export const MAX_LAYERS = 50;

/** The body PUT /v1/templates/{id} takes, from a Template or a TemplateVersion (id, versions, dates left out). */
export function draftOf(t) {
  const draft = { name: t.name, size: { ...t.size } };
  if (t.background) draft.background = t.background;
  draft.variables = structuredClone(t.variables ?? { type: 'object', properties: {} });
  draft.layers = structuredClone(t.layers ?? []);
  return draft;
}

/** An id not yet used by `layers`: `base`, else `base-2`, `base-3`… (ids are [A-Za-z0-9_-], at most 64). */
export function uniqueId(layers, base) {
  const clean =
    String(base || 'layer')
      .replace(/[^A-Za-z0-9_-]/g, '-')
      .slice(0, 56) || 'layer';
  const taken = new Set(layers.map((l) => l.id));
  if (!taken.has(clean)) return clean;
  for (let n = 2; ; n++) if (!taken.has(`${clean}-${n}`)) return `${clean}-${n}`;
}

/** A box centred on the canvas, `w`×`h` of its size. */
const centred = (size, w, h) => {
  const width = Math.max(1, Math.round(size.width * w));
  const height = Math.max(1, Math.round(size.height * h));
  return { x: Math.round((size.width - width) / 2), y: Math.round((size.height - height) / 2), width, height };
};

/**
 * A new layer of `kind` for a template of `size`, with an id not in `layers`: a text, a shape, a fill
 * in a box centred on the canvas, an image (`opts.asset`: an asset id or "{{variable}}") in a square,
 * a generator (`opts.slug`) over the whole canvas.
 */
export function newLayer(kind, size, layers, opts = {}) {
  const id = uniqueId(layers, opts.id ?? kind);
  switch (kind) {
    case 'text':
      return { id, kind, text: opts.text ?? 'Text', box: centred(size, 0.6, 0.2), color: '#111111', fit: { max: 64 } };
    case 'image': {
      const side = Math.round(Math.min(size.width, size.height) * 0.3);
      const box = { x: Math.round((size.width - side) / 2), y: Math.round((size.height - side) / 2), width: side, height: side };
      return { id, kind, asset: opts.asset, box, fit: 'contain' };
    }
    case 'shape':
      return { id, kind, shape: 'rectangle', box: centred(size, 0.3, 0.3), fill: '#6366f1' };
    case 'fill':
      return { id, kind, color: '#e2e8f0', box: centred(size, 0.5, 0.5) };
    case 'generator':
      return { id, kind, slug: opts.slug, box: { x: 0, y: 0, width: size.width, height: size.height } };
    default:
      throw new Error(`no layer kind "${kind}"`);
  }
}

/** The template with `layer` inserted at `index` (default: on top, the end of the list). */
export function addLayer(t, layer, index = t.layers.length) {
  const layers = t.layers.slice();
  layers.splice(Math.max(0, Math.min(index, layers.length)), 0, layer);
  return { ...t, layers };
}

/** The template with the layer at `from` moved to `to` (clamped); the same template when nothing moves. */
export function moveLayer(t, from, to) {
  const target = Math.max(0, Math.min(to, t.layers.length - 1));
  if (from === target || from < 0 || from >= t.layers.length) return t;
  const layers = t.layers.slice();
  const [layer] = layers.splice(from, 1);
  layers.splice(target, 0, layer);
  return { ...t, layers };
}

/** The template without the layer `id`. */
export const removeLayer = (t, id) => ({ ...t, layers: t.layers.filter((l) => l.id !== id) });

/** An object with `path` ('fit.max', 'box') set to `value`; undefined or '' deletes it, and an object left empty goes too. */
function setPath(obj, [key, ...rest], value) {
  const out = { ...obj };
  if (rest.length) {
    const inner = setPath(typeof out[key] === 'object' && out[key] ? out[key] : {}, rest, value);
    if (Object.keys(inner).length) out[key] = inner;
    else delete out[key];
  } else if (value === undefined || value === '') delete out[key];
  else out[key] = value;
  return out;
}

/**
 * The template with field `path` of the layer `id` set to `value` ('box', 'fit.max', 'font.asset'),
 * or removed when `value` is undefined or ''. Renaming (`path` 'id') keeps the id unique.
 */
export function updateLayer(t, id, path, value) {
  return {
    ...t,
    layers: t.layers.map((l) => {
      if (l.id !== id) return l;
      if (path === 'id')
        return {
          ...l,
          id: uniqueId(
            t.layers.filter((o) => o !== l),
            value,
          ),
        };
      return setPath(l, String(path).split('.'), value);
    }),
  };
}

/** A field of a layer by its path ('fit.max'), or undefined. */
export const fieldOf = (layer, path) =>
  String(path)
    .split('.')
    .reduce((o, k) => (o == null ? undefined : o[k]), layer);

/** How the layers list names a layer: its id and what it draws. */
export function layerLabel(layer) {
  const what =
    layer.kind === 'text'
      ? `“${String(layer.text ?? '').slice(0, 24)}${String(layer.text ?? '').length > 24 ? '…' : ''}”`
      : layer.kind === 'generator'
        ? layer.slug
        : layer.kind === 'shape'
          ? layer.shape
          : layer.kind;
  return `${layer.id} · ${what}`;
}

/**
 * The template the preview renders: hidden layers (the editor's view state, never saved) left out.
 * With every layer hidden, one invisible fill stands in (a template has at least one layer).
 */
export function visibleDraft(t, hidden = new Set()) {
  const layers = t.layers.filter((l) => !hidden.has(l.id));
  return { ...t, layers: layers.length ? layers : [{ id: 'empty', kind: 'fill', color: '#ffffff', opacity: 0 }] };
}
