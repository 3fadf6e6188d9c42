// The template editor's panels: the layers list (select, reorder by drag or Alt+Arrow / the Move
// buttons, hide, lock, delete, add), the properties of the selected layer by its kind (a generator
// layer's own param controls as the playground builds them) and the variables with their sample
// values and the text fit. Each builds from the editor's context `ed` and commits a new draft through
// `ed.commit`; a panel being typed in is not rebuilt by its own edits.
import { h } from '../dom.js';
import { paramControl } from '../form.js';
import { typedColor } from '../param-values.js';
import { KINDS, MAX_LAYERS, fieldOf, layerLabel, moveLayer, newLayer, updateLayer } from './layers.js';
import { fitText } from './text-fit.js';
import { sampleParams, setSample } from './sample-params.js';
import { VARIABLE_NAME, imageVariables, removeVariable, renameVariable, setVariable, unusedName, variablesOf } from './variables.js';

/** The bundled font families (docs/text-and-fonts.md). */
const FAMILIES = [
  'Space Grotesk',
  'Noto Sans',
  'Noto Sans Arabic',
  'Noto Sans Hebrew',
  'Noto Sans Devanagari',
  'Noto Sans Thai',
  'Noto Sans SC',
  'Noto Sans JP',
  'Noto Sans KR',
];

const idOf = (text) => String(text).replace(/[^A-Za-z0-9_-]/g, '-');

/** A labelled field with its error slot (`data-error-for` the layer's field path, as API issues name it). */
export function fieldRow(id, label, control, path, hint) {
  return h(
    'div',
    { class: 'field', dataset: { field: path } },
    h('label', { class: 'field-label', for: id }, label),
    control,
    hint && h('p', { class: 'hint', id: `${id}-hint` }, hint),
    h('p', { class: 'field-error', dataset: { errorFor: path }, role: 'alert' }),
  );
}

/** A number, or undefined for an empty field. */
const num = (v) => (v === '' || v == null || Number.isNaN(Number(v)) ? undefined : Number(v));

/** A colour picker with a hex field beside it (the hex may carry an alpha: #rrggbbaa); `set(value)` commits. */
export function colorInput(id, label, value, set) {
  const hex = h('input', { type: 'text', id, class: 'hex mono', value: value ?? '', maxlength: 9, placeholder: 'none' });
  const picker = h('input', { type: 'color', value: (value ?? '#000000').slice(0, 7), 'aria-label': `${label} (picker)` });
  picker.addEventListener('input', () => {
    hex.value = picker.value + (hex.value.length === 9 ? hex.value.slice(7) : '');
    set(hex.value);
  });
  hex.addEventListener('input', () => {
    if (hex.value === '') return set(undefined);
    const full = /^#?[0-9a-fA-F]{8}$/.test(hex.value) ? `#${hex.value.replace('#', '')}` : typedColor(hex.value);
    if (!full) return;
    picker.value = full.slice(0, 7);
    set(full);
  });
  return h('div', { class: 'color-row' }, picker, hex);
}

/** A <select> of [value, text] choices; '' is "not set". */
const select = (id, choices, value, onchange) =>
  h(
    'select',
    { id, onchange: (e) => onchange(e.target.value) },
    choices.map(([v, t]) => h('option', { value: v, selected: String(value ?? '') === v }, t)),
  );

/** The layers list, topmost first (the order they are drawn in, reversed, as design tools show it). */
export function layersPanel(ed) {
  const { draft } = ed;
  const list = h('ol', { class: 'tpl-layers', id: 'tpl-layers', 'aria-label': 'Layers, topmost first' });
  const n = draft.layers.length;
  let dragged = null;
  for (let i = n - 1; i >= 0; i--) {
    const layer = draft.layers[i];
    const key = idOf(layer.id);
    const move = (to) => ed.commit(moveLayer(ed.draft, i, to), { focus: `tpl-layer-${key}` });
    const fit = ed.fits.get(layer.id);
    const item = h(
      'li',
      {
        class: `tpl-layer${layer.id === ed.selected ? ' selected' : ''}`,
        draggable: 'true',
        dataset: { layer: layer.id, index: i },
        ondragstart: (e) => {
          dragged = i;
          e.dataTransfer.effectAllowed = 'move';
          e.dataTransfer.setData('text/plain', layer.id);
        },
        ondragover: (e) => dragged !== null && e.preventDefault(),
        ondrop: (e) => {
          if (dragged === null) return;
          e.preventDefault();
          e.stopPropagation();
          const from = dragged;
          dragged = null;
          ed.commit(moveLayer(ed.draft, from, i));
        },
      },
      h(
        'button',
        {
          type: 'button',
          class: 'tpl-layer-name',
          id: `tpl-layer-${key}`,
          'aria-pressed': String(layer.id === ed.selected),
          title: 'Select (Alt+↑/↓ moves it)',
          onclick: () => ed.select(layer.id),
          onkeydown: (e) => {
            if (!e.altKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
            e.preventDefault();
            move(e.key === 'ArrowUp' ? i + 1 : i - 1);
          },
        },
        layerLabel(layer),
      ),
      layer.kind === 'text' &&
        h('span', { class: 'tpl-fit small', id: `tpl-fit-${key}`, dataset: { layer: layer.id } }, fitText(fit, layer)),
      h(
        'span',
        { class: 'tpl-layer-tools' },
        h(
          'label',
          { class: 'small' },
          h('input', {
            type: 'checkbox',
            id: `tpl-hide-${key}`,
            checked: ed.hidden.has(layer.id),
            onchange: () => ed.toggleView('hidden', layer.id),
          }),
          ' Hide',
        ),
        h(
          'label',
          { class: 'small' },
          h('input', {
            type: 'checkbox',
            id: `tpl-lock-${key}`,
            checked: ed.locked.has(layer.id),
            onchange: () => ed.toggleView('locked', layer.id),
          }),
          ' Lock',
        ),
        h(
          'button',
          {
            type: 'button',
            class: 'btn small',
            id: `tpl-up-${key}`,
            disabled: i === n - 1,
            'aria-label': `Move ${layer.id} up`,
            onclick: () => move(i + 1),
          },
          '↑',
        ),
        h(
          'button',
          {
            type: 'button',
            class: 'btn small',
            id: `tpl-down-${key}`,
            disabled: i === 0,
            'aria-label': `Move ${layer.id} down`,
            onclick: () => move(i - 1),
          },
          '↓',
        ),
        h(
          'button',
          { type: 'button', class: 'btn small', 'aria-label': `Delete ${layer.id}`, onclick: () => ed.remove(layer.id) },
          'Delete',
        ),
      ),
      h('p', { class: 'field-error', dataset: { errorFor: `layer:${layer.id}` }, role: 'alert' }),
    );
    // The hide and lock boxes are named by their layer too.
    const [hide, lock] = item.querySelectorAll('input[type=checkbox]');
    hide.setAttribute('aria-label', `Hide ${layer.id} (in the editor only)`);
    lock.setAttribute('aria-label', `Lock ${layer.id} (in the editor only)`);
    list.append(item);
  }
  const add = h(
    'div',
    { class: 'actions tpl-add' },
    h('span', { class: 'small muted' }, 'Add:'),
    KINDS.map((kind) =>
      h(
        'button',
        { type: 'button', class: 'btn small', id: `tpl-add-${kind}`, disabled: n >= MAX_LAYERS, onclick: () => addKind(ed, kind) },
        kind,
      ),
    ),
  );
  return h(
    'section',
    { class: 'panel tpl-layers-panel', 'aria-labelledby': 'tpl-layers-title' },
    h('h2', { id: 'tpl-layers-title' }, 'Layers'),
    list,
    add,
  );
}

/** Adds a layer of `kind`: an image takes the newest image asset (or asks for an upload), a generator the first generator. */
function addKind(ed, kind) {
  const opts = {};
  if (kind === 'image') {
    const asset = ed.assets.find((a) => a.kind === 'image');
    if (!asset) return ed.say('Upload an image first: drop it on the page or use "Upload an image or font…".');
    opts.asset = asset.id;
  }
  if (kind === 'generator') opts.slug = ed.generators.find((g) => !g.animated)?.slug ?? ed.generators[0]?.slug;
  const layer = newLayer(kind, ed.draft.size, ed.draft.layers, opts);
  ed.commit({ ...ed.draft, layers: [...ed.draft.layers, layer] }, { select: layer.id });
}

/** The properties of the selected layer, by its kind; empty without a selection. */
export function propertiesPanel(ed) {
  const section = h('section', { class: 'panel tpl-props', id: 'tpl-props', 'aria-labelledby': 'tpl-props-title' });
  const layer = ed.draft.layers.find((l) => l.id === ed.selected);
  if (!layer) {
    section.append(
      h('h2', { id: 'tpl-props-title' }, 'Properties'),
      h('p', { class: 'muted small' }, 'Select a layer on the canvas or in the list.'),
    );
    return section;
  }
  const set = (path, value) => ed.commit(updateLayer(ed.draft, layer.id, path, value), { from: 'props', coalesce: `${layer.id}.${path}` });
  const pid = (path) => `prop-${path.replace(/\./g, '-')}`;
  const numberRow = (path, label, attrs = {}) =>
    fieldRow(
      pid(path),
      label,
      h('input', {
        type: 'number',
        id: pid(path),
        class: 'num',
        step: 'any',
        value: fieldOf(layer, path) ?? '',
        ...attrs,
        oninput: (e) => e.target.validity.valid && set(path, num(e.target.value)),
      }),
      path,
    );
  const selectRow = (path, label, choices) =>
    fieldRow(
      pid(path),
      label,
      select(pid(path), choices, fieldOf(layer, path), (v) => set(path, v || undefined)),
      path,
    );
  const colorRow = (path, label) =>
    fieldRow(
      pid(path),
      label,
      colorInput(pid(path), label, fieldOf(layer, path), (v) => set(path, v)),
      path,
    );
  const rows = [];
  rows.push(
    fieldRow(
      'prop-id',
      'Id',
      h('input', {
        type: 'text',
        id: 'prop-id',
        value: layer.id,
        pattern: '[A-Za-z0-9_-]{1,64}',
        onchange: (e) => {
          if (!e.target.validity.valid || !e.target.value) return;
          const next = updateLayer(ed.draft, layer.id, 'id', e.target.value);
          ed.commit(next, { select: next.layers.find((l, i) => ed.draft.layers[i] === layer)?.id });
        },
      }),
      'id',
    ),
  );
  const optionalBox = layer.kind === 'fill' || layer.kind === 'generator';
  if (optionalBox)
    rows.push(
      h(
        'label',
        { class: 'small' },
        h('input', {
          type: 'checkbox',
          id: 'prop-whole',
          checked: !layer.box,
          onchange: (e) =>
            ed.commit(updateLayer(ed.draft, layer.id, 'box', e.target.checked ? undefined : { x: 0, y: 0, ...ed.draft.size })),
        }),
        ' Whole canvas (no box)',
      ),
    );
  if (layer.box)
    rows.push(
      h(
        'fieldset',
        { class: 'tpl-boxfields' },
        h('legend', {}, 'Box (template px)'),
        numberRow('box.x', 'X', { min: -16384, max: 16384 }),
        numberRow('box.y', 'Y', { min: -16384, max: 16384 }),
        numberRow('box.width', 'Width', { min: 1, max: 16384 }),
        numberRow('box.height', 'Height', { min: 1, max: 16384 }),
      ),
    );
  if (layer.kind === 'text') {
    const text = h('textarea', { id: 'prop-text', rows: 3, dir: 'auto', oninput: (e) => set('text', e.target.value) });
    text.value = layer.text ?? '';
    rows.push(fieldRow('prop-text', 'Text', text, 'text', 'Use {{name}} for a variable.'));
    text.setAttribute('aria-describedby', 'prop-text-hint');
    rows.push(colorRow('color', 'Colour'));
    const fonts = ed.assets.filter((a) => a.kind === 'font');
    rows.push(selectRow('font.family', 'Font family', [['', 'Space Grotesk (default)'], ...FAMILIES.slice(1).map((f) => [f, f])]));
    rows.push(
      selectRow('font.asset', 'Uploaded font', [
        ['', 'None (the family above)'],
        ...fonts.map((a) => [a.id, `${a.family ?? 'font'} (${a.id.slice(0, 12)}…)`]),
        ...(layer.font?.asset && !fonts.some((a) => a.id === layer.font.asset) ? [[layer.font.asset, layer.font.asset]] : []),
      ]),
    );
    rows.push(
      selectRow('font.weight', 'Weight', [
        ['', '400 (default)'],
        ...[100, 200, 300, 500, 600, 700, 800, 900].map((w) => [String(w), String(w)]),
      ]),
    );
    const weight = rows.at(-1).querySelector('select');
    weight.onchange = () => set('font.weight', num(weight.value));
    rows.push(
      h(
        'fieldset',
        { class: 'tpl-boxfields' },
        h('legend', {}, 'Fit'),
        numberRow('fit.max', 'Largest size', { min: 1, max: 2048 }),
        numberRow('fit.min', 'Smallest size', { min: 1, max: 2048, placeholder: 'half' }),
        numberRow('fit.maxLines', 'Most lines', { min: 1, max: 100, step: 1, placeholder: 'any' }),
        selectRow('fit.overflow', 'Too long', [
          ['', 'cut with … (default)'],
          ['error', 'refuse the render'],
        ]),
      ),
    );
    rows.push(
      selectRow('align', 'Align', [
        ['', 'start (default)'],
        ['left', 'left'],
        ['center', 'center'],
        ['right', 'right'],
      ]),
    );
    rows.push(
      selectRow('valign', 'Vertical align', [
        ['', 'top (default)'],
        ['middle', 'middle'],
        ['bottom', 'bottom'],
      ]),
    );
    rows.push(numberRow('lineHeight', 'Line height', { min: 0.5, max: 4, placeholder: '1.2' }));
    rows.push(
      h(
        'p',
        { class: 'small', id: 'prop-fit', 'aria-live': 'polite' },
        ed.fits.has(layer.id) ? `Fit: ${fitText(ed.fits.get(layer.id), layer)}` : '',
      ),
    );
  }
  if (layer.kind === 'image') {
    const images = ed.assets.filter((a) => a.kind === 'image');
    const vars = variablesOf(ed.draft).filter(([, s]) => s.type === 'string');
    rows.push(
      selectRow('asset', 'Image', [
        ...images.map((a) => [a.id, `${a.width}×${a.height} (${a.id.slice(0, 12)}…)`]),
        ...vars.map(([name]) => [`{{${name}}}`, `variable {{${name}}}`]),
        ...(layer.asset && !images.some((a) => a.id === layer.asset) && !/^\{\{/.test(layer.asset) ? [[layer.asset, layer.asset]] : []),
      ]),
    );
    rows.push(
      selectRow('fit', 'Fit', [
        ['', 'cover (default)'],
        ['contain', 'contain'],
      ]),
    );
    rows.push(numberRow('radius', 'Corner radius', { min: 0, max: 16384 }));
  }
  if (layer.kind === 'shape') {
    rows.push(
      selectRow('shape', 'Shape', [
        ['rectangle', 'rectangle'],
        ['ellipse', 'ellipse'],
      ]),
    );
    rows.push(colorRow('fill', 'Fill'));
    rows.push(colorRow('stroke.color', 'Stroke colour'));
    rows.push(numberRow('stroke.width', 'Stroke width', { min: 0, max: 1024 }));
    rows.push(numberRow('radius', 'Corner radius', { min: 0, max: 16384 }));
  }
  if (layer.kind === 'fill') {
    if (layer.gradient)
      rows.push(
        h('p', { class: 'small muted' }, `A ${layer.gradient.type} gradient of ${layer.gradient.stops.length} stops (kept as it is).`),
      );
    else rows.push(colorRow('color', 'Colour'));
  }
  if (layer.kind === 'generator') rows.push(...generatorRows(ed, layer, numberRow));
  rows.push(numberRow('opacity', 'Opacity', { min: 0, max: 1, step: 0.05, placeholder: '1' }));
  section.append(h('h2', { id: 'tpl-props-title' }, `Properties: ${layer.id} (${layer.kind})`), ...rows);
  return section;
}

/** A generator layer: its generator, seed and its own params (the playground's controls), over its defaults. */
function generatorRows(ed, layer, numberRow) {
  const gen = ed.generators.find((g) => g.slug === layer.slug);
  const rows = [
    fieldRow(
      'prop-slug',
      'Generator',
      select(
        'prop-slug',
        ed.generators.map((g) => [g.slug, `${g.name}${g.animated ? ' (animated)' : ''}`]),
        layer.slug,
        // Another generator: its own params, none of the old one's.
        (slug) => ed.commit(updateLayer(updateLayer(ed.draft, layer.id, 'params', undefined), layer.id, 'slug', slug)),
      ),
      'slug',
    ),
    numberRow('seed', 'Seed', { min: 0, max: 4294967295, step: 1, placeholder: 'the render’s' }),
  ];
  if (!gen) return rows;
  const props = gen.paramSchema?.properties ?? {};
  const controls = [];
  const onChange = () => {
    // Only what differs from the generator's defaults is stored (the layer's params are over them).
    const params = {};
    for (const c of controls) {
      const v = c.get();
      const d = gen.defaults?.[c.name] ?? props[c.name]?.default;
      if (v !== undefined && JSON.stringify(v) !== JSON.stringify(d)) params[c.name] = v;
    }
    ed.commit(updateLayer(ed.draft, layer.id, 'params', Object.keys(params).length ? params : undefined), {
      from: 'props',
      coalesce: `${layer.id}.params`,
    });
  };
  for (const [name, schema] of Object.entries(props)) {
    const value = layer.params?.[name] ?? gen.defaults?.[name] ?? schema.default;
    // A value taken from a variable stays as it is: shown, not editable here.
    if (typeof value === 'string' && /^\{\{.*\}\}$/.test(value) && schema.format !== undefined) continue;
    controls.push({ name, ...paramControl(name, schema, value, onChange) });
  }
  rows.push(
    h(
      'fieldset',
      { class: 'params tpl-gen-params' },
      h('legend', {}, `${gen.name} params`),
      controls.map((c) => c.el),
    ),
  );
  return rows;
}

/**
 * The variables: name, type, max length, default, required, sample value (an image variable's: one
 * of the image assets), remove; and the text fit of each text layer with the samples.
 */
export function variablesPanel(ed) {
  const { draft } = ed;
  const images = imageVariables(draft);
  const imageAssets = ed.assets.filter((a) => a.kind === 'image');
  const samples = sampleParams(draft);
  const required = new Set(draft.variables?.required ?? []);
  const rows = variablesOf(draft).map(([name, schema]) => {
    const key = idOf(name);
    // A value typed in keeps this panel as it is; a new type rebuilds it (other inputs).
    const change = (next, what) => ed.commit(next, what === 'type' ? {} : { from: 'vars', coalesce: `var.${name}.${what}` });
    const setSchema = (patch) => {
      const s = { ...schema, ...patch };
      for (const k of Object.keys(patch)) if (patch[k] === undefined) delete s[k];
      change(setVariable(ed.draft, name, s), Object.keys(patch).join());
    };
    const typeSel = select(
      `var-type-${key}`,
      ['string', 'number', 'integer', 'boolean'].map((t) => [t, t]),
      schema.type ?? 'string',
      (t) => {
        const s = { ...schema, type: t };
        delete s.examples;
        delete s.default;
        if (t !== 'string') delete s.maxLength;
        change(setVariable(ed.draft, name, s), 'type');
      },
    );
    const parse = (v) =>
      schema.type === 'number' || schema.type === 'integer'
        ? num(v)
        : schema.type === 'boolean'
          ? v === ''
            ? undefined
            : v === 'true'
          : v;
    const valueInput = (id, label, value, onValue) => {
      if (images.has(name))
        return select(
          id,
          [['', '(none)'], ...imageAssets.map((a) => [a.id, `${a.width}×${a.height} (${a.id.slice(0, 12)}…)`])],
          value,
          (v) => onValue(v || undefined),
        );
      if (schema.type === 'boolean')
        return select(
          id,
          [
            ['', '(none)'],
            ['true', 'true'],
            ['false', 'false'],
          ],
          value,
          (v) => onValue(parse(v)),
        );
      const input = h('input', {
        type: schema.type === 'number' || schema.type === 'integer' ? 'number' : 'text',
        id,
        dir: 'auto',
        value: value ?? '',
        oninput: (e) => onValue(e.target.value === '' ? undefined : parse(e.target.value)),
      });
      if (schema.maxLength) input.setAttribute('aria-describedby', `${id}-count`);
      return input;
    };
    const sample = valueInput(`var-sample-${key}`, 'Sample', schema.examples?.[0], (v) => change(setSample(ed.draft, name, v), 'sample'));
    return h(
      'li',
      { class: 'tpl-var', dataset: { variable: name } },
      h(
        'div',
        { class: 'tpl-var-fields' },
        fieldRow(
          `var-name-${key}`,
          'Name',
          h('input', {
            type: 'text',
            id: `var-name-${key}`,
            value: name,
            pattern: VARIABLE_NAME.source,
            onchange: (e) => {
              const next = renameVariable(ed.draft, name, e.target.value);
              if (next === ed.draft) e.target.value = name;
              else ed.commit(next);
            },
          }),
          `var:${name}:name`,
        ),
        fieldRow(`var-type-${key}`, 'Type', typeSel, `var:${name}:type`),
        schema.type === 'string' || !schema.type
          ? fieldRow(
              `var-max-${key}`,
              'Max length',
              h('input', {
                type: 'number',
                id: `var-max-${key}`,
                class: 'num',
                min: 1,
                step: 1,
                value: schema.maxLength ?? '',
                oninput: (e) => e.target.validity.valid && setSchema({ maxLength: num(e.target.value) }),
              }),
              `var:${name}:maxLength`,
            )
          : null,
        fieldRow(
          `var-default-${key}`,
          'Default',
          valueInput(`var-default-${key}`, 'Default', schema.default, (v) => setSchema({ default: v })),
          `var:${name}:default`,
        ),
        fieldRow(
          `var-sample-${key}`,
          images.has(name) ? 'Sample image' : 'Sample value',
          sample,
          `var:${name}`,
          schema.maxLength ? h('span', { id: `var-sample-${key}-count` }, `at most ${schema.maxLength} characters`) : null,
        ),
        h(
          'label',
          { class: 'small' },
          h('input', {
            type: 'checkbox',
            id: `var-required-${key}`,
            checked: required.has(name),
            onchange: (e) => {
              const req = new Set(ed.draft.variables?.required ?? []);
              if (e.target.checked) req.add(name);
              else req.delete(name);
              ed.commit({ ...ed.draft, variables: { ...ed.draft.variables, required: [...req] } }, { from: 'vars' });
            },
          }),
          ' Required',
        ),
        h(
          'button',
          {
            type: 'button',
            class: 'btn small',
            'aria-label': `Remove variable ${name}`,
            onclick: () => ed.commit(removeVariable(ed.draft, name)),
          },
          'Remove',
        ),
      ),
      images.has(name)
        ? h('p', { class: 'small muted' }, 'An image layer takes its asset from it: its value is an image asset’s id.')
        : null,
      samples[name] === undefined && required.has(name) ? h('p', { class: 'small muted' }, 'No sample: the preview needs one.') : null,
    );
  });
  return h(
    'section',
    { class: 'panel tpl-vars', id: 'tpl-vars', 'aria-labelledby': 'tpl-vars-title' },
    h('h2', { id: 'tpl-vars-title' }, 'Variables and sample values'),
    h(
      'p',
      { class: 'small muted' },
      'A text takes a variable as {{name}}; an image layer as its whole asset ({{logo}}). The sample value is saved with the template (its schema’s examples) and drawn here.',
    ),
    h('ul', { class: 'tpl-var-list', id: 'tpl-var-list' }, rows),
    h(
      'button',
      {
        type: 'button',
        class: 'btn small',
        id: 'tpl-add-variable',
        onclick: () => {
          const name = unusedName(ed.draft, 'text');
          ed.commit(setVariable(ed.draft, name, { type: 'string', maxLength: 100 }), { focus: `var-name-${name}` });
        },
      },
      'Add a variable',
    ),
    h('h3', {}, 'Text fit with the samples'),
    h('ul', { class: 'tpl-fits small', id: 'tpl-fits', 'aria-live': 'polite' }, fitItems(ed)),
  );
}

/** Each visible text layer's fit with the samples, as the last preview set it (its issue, when refused). */
export const fitItems = (ed) =>
  ed.draft.layers
    .filter((l) => l.kind === 'text' && !ed.hidden.has(l.id))
    .map((l) => h('li', { dataset: { layer: l.id } }, h('strong', {}, l.id), ': ', fitText(ed.fits.get(l.id), l) || '…'));
