// Builds form controls from a generator's paramSchema (JSON Schema 2020-12 subset).
import { h } from './dom.js';
import { charCount, codeSpans } from './field-text.js';
import {
  PALETTES,
  enumValue,
  fitColors,
  jsonText,
  jsonValue,
  numberValue,
  paramType,
  presetColors,
  parseHex,
  shuffledColor,
  shuffledColors,
  shuffledNumber,
  shufflePalette,
  sliderScale,
  typedColor,
} from './param-values.js';

/**
 * A labelled field wrapper with an error slot named after the recipe path (e.g. "params.points").
 * Its help is the schema's description with `code` spans as <code>, and describes the control.
 */
export function field(path, label, control, description) {
  const id = control.dataset.inputId;
  const hint = description
    ? h(
        'p',
        { class: 'hint', id: `${id}-hint` },
        codeSpans(description).map((s, i) => (i % 2 ? h('code', {}, s) : s)),
      )
    : null;
  const input = hint && control.querySelector(`[id="${id}"]`);
  input?.setAttribute('aria-describedby', `${hint.id} ${input.getAttribute('aria-describedby') ?? ''}`.trim());
  return h(
    'div',
    { class: 'field', dataset: { field: path } },
    h('label', { class: 'field-label', for: id || undefined }, label),
    control,
    hint,
    h('p', { class: 'field-error', dataset: { errorFor: path }, role: 'alert' }),
  );
}

const idOf = (path) => path.replace(/[^a-zA-Z0-9_-]/g, '-');

/**
 * One control per property. `get()` reads the value (undefined = leave out), `onChange` fires on
 * every edit.
 */
export function paramControl(name, schema, value, onChange) {
  const path = `params.${name}`;
  const id = idOf(path);
  const label = schema.title || name;
  const type = paramType(schema);

  if (Array.isArray(schema.enum)) {
    const select = h(
      'select',
      { id, name: path, onchange: onChange },
      schema.enum.map((v) => h('option', { value: String(v), selected: v === value }, String(v))),
    );
    const ctl = wrap(id, select);
    return {
      el: field(path, label, ctl, schema.description),
      get: () => enumValue(schema.enum, select.value),
      set: (v) => (select.value = String(v)),
      shuffle: () => (select.value = String(schema.enum[Math.floor(Math.random() * schema.enum.length)])),
    };
  }
  if (type === 'boolean') {
    const box = h('input', { type: 'checkbox', id, name: path, checked: Boolean(value), onchange: onChange });
    const ctl = wrap(id, h('label', { class: 'toggle' }, box, h('span', { class: 'toggle-track' }), h('span', {}, 'on')));
    return {
      el: field(path, label, ctl, schema.description),
      get: () => box.checked,
      set: (v) => (box.checked = Boolean(v)),
      shuffle: () => (box.checked = Math.random() < 0.5),
    };
  }
  if (type === 'number' || type === 'integer') {
    const integer = type === 'integer';
    const hasRange = typeof schema.minimum === 'number' && typeof schema.maximum === 'number';
    const number = h('input', {
      type: 'number',
      id,
      name: path,
      value: value ?? '',
      step: hasRange ? 'any' : integer ? '1' : 'any',
      min: schema.minimum,
      max: schema.maximum,
      class: 'num',
    });
    const { minimum: min, maximum: max } = schema;
    const range = { min, max, integer };
    // A range over orders of magnitude (cells 3–2000) slides on a log scale, 0–1000 (param-values.js);
    // the slider and Shuffle need a range.
    const { log, step, toSlider, fromSlider } = sliderScale(range);
    let slider = null;
    if (hasRange) {
      slider = h('input', {
        type: 'range',
        min: log ? 0 : min,
        max: log ? 1000 : max,
        step: log ? 1 : step,
        value: toSlider(value ?? min),
        'aria-label': `${label} slider`,
        'aria-valuetext': log ? String(value ?? min) : undefined,
      });
      slider.addEventListener('input', () => {
        number.value = String(fromSlider(Number(slider.value)));
        if (log) slider.setAttribute('aria-valuetext', number.value);
        onChange();
      });
    }
    const sync = () => {
      if (!slider || number.value === '') return;
      slider.value = String(toSlider(Number(number.value)));
      if (log) slider.setAttribute('aria-valuetext', number.value);
    };
    number.addEventListener('input', () => {
      sync();
      onChange();
    });
    const ctl = wrap(id, h('div', { class: 'range-row' }, slider, number));
    return {
      el: field(path, label, ctl, schema.description),
      // Within the schema's range, on the slider's step; a finish (grain) modest (shuffledNumber).
      shuffle: () => {
        if (!hasRange) return;
        number.value = String(shuffledNumber(name, range));
        sync();
      },
      range: hasRange ? range : undefined,
      set: (v) => {
        number.value = v ?? '';
        sync();
      },
      get: () => numberValue(number.value),
    };
  }
  if (type === 'string' && schema.format === 'color') {
    const color = h('input', { type: 'color', id, name: path, value: value ?? '#000000' });
    // A hex field beside the picker: paste "#1e90ff" or "1e90ff".
    const hex = h('input', { type: 'text', class: 'hex mono', value: color.value, 'aria-label': `${label} (hex)`, maxlength: 7 });
    color.addEventListener('input', () => {
      hex.value = color.value;
      onChange();
    });
    hex.addEventListener('input', () => {
      const c = typedColor(hex.value);
      if (c) {
        color.value = c;
        onChange();
      }
    });
    const ctl = wrap(id, h('div', { class: 'color-row' }, color, hex));
    return {
      el: field(path, label, ctl, schema.description),
      get: () => color.value,
      set: (v) => (hex.value = color.value = v),
      // From Shuffle's palette: a background its darkest or lightest colour, anything else any of them.
      shuffle: (palette = shufflePalette()) => (hex.value = color.value = shuffledColor(name, palette)),
    };
  }
  if (type === 'array' && schema.items && schema.items.format === 'color') {
    return colorList(path, id, label, schema, Array.isArray(value) ? value : [], onChange);
  }
  if (type === 'string') return textControl(path, id, label, schema, value, onChange);
  // Anything else: JSON in a text field.
  const text = h('input', {
    type: 'text',
    id,
    name: path,
    value: jsonText(value),
    oninput: onChange,
    class: 'mono',
  });
  return {
    el: field(path, label, wrap(id, text), schema.description),
    set: (v) => (text.value = jsonText(v)),
    get: () => jsonValue(text.value),
  };
}

/**
 * Text, typed in any direction (dir=auto: Hebrew and Arabic run right to left). `x-multiline` makes
 * it a textarea that grows with its lines (Enter and Shift+Enter break the line: "\n" in the
 * param). With a maxLength, a live counter of code points, as the schema counts them; nothing is
 * cut: past the limit the counter says so and the service's refusal names the field.
 */
function textControl(path, id, label, schema, value, onChange) {
  const multi = schema['x-multiline'] === true;
  const max = schema.maxLength;
  const count = max > 0 && h('p', { class: 'count', id: `${id}-count`, 'aria-live': 'polite' });
  const text = h(multi ? 'textarea' : 'input', { type: multi ? undefined : 'text', rows: multi && 2, id, name: path, dir: 'auto' });
  if (count) text.setAttribute('aria-describedby', count.id);
  const update = () => {
    if (multi && text.scrollHeight) {
      text.style.height = 'auto';
      text.style.height = `${text.scrollHeight + text.offsetHeight - text.clientHeight}px`;
    }
    if (count) {
      const c = charCount(text.value, max);
      count.textContent = c.text;
      count.className = `count ${c.state}`;
    }
  };
  const set = (v) => {
    text.value = v ?? '';
    update();
  };
  text.addEventListener('input', () => {
    update();
    onChange();
  });
  set(value);
  if (multi) requestAnimationFrame(update); // laid out by then: its height follows its lines
  return { el: field(path, label, wrap(id, text, count), schema.description), get: () => text.value, set };
}

function wrap(id, ...controls) {
  const div = h('div', { class: 'control' }, controls);
  div.dataset.inputId = id;
  return div;
}

function colorList(path, id, label, schema, initial, onChange) {
  const min = schema.minItems ?? 1;
  const max = schema.maxItems ?? 16;
  const list = h('div', { class: 'color-list', id });
  const addBtn = h('button', { type: 'button', class: 'btn small', title: 'Add a colour', 'aria-label': `Add a ${label} colour` }, '+');
  const removeBtn = h(
    'button',
    { type: 'button', class: 'btn small', title: 'Remove the last colour', 'aria-label': `Remove the last ${label} colour` },
    '−',
  );
  const hex = h('input', { type: 'text', class: 'mono', 'aria-label': `${label} (hex list, paste e.g. #ff0000 #00ff00)` });
  const palette = h(
    'select',
    { 'aria-label': `${label} palette preset` },
    h('option', { value: '' }, 'Palette…'),
    Object.keys(PALETTES).map((name) => h('option', { value: name }, name)),
  );
  const syncHex = () => (hex.value = [...list.children].map((i) => i.value).join(' '));
  const add = (value) =>
    list.append(
      h('input', {
        type: 'color',
        value,
        'aria-label': `${label} colour`,
        oninput: () => {
          syncHex();
          onChange();
        },
      }),
    );
  const sync = () => {
    addBtn.disabled = list.children.length >= max;
    removeBtn.disabled = list.children.length <= min;
    syncHex();
  };
  /** Replaces the list (kept within minItems..maxItems: a short one repeats its colours). */
  const setAll = (colors) => {
    if (!colors.length) return;
    list.replaceChildren();
    for (const c of fitColors(colors, min, max)) add(c);
    sync();
  };
  for (const c of initial) add(c);
  addBtn.addEventListener('click', () => {
    add(list.lastElementChild?.value ?? '#888888');
    sync();
    onChange();
  });
  removeBtn.addEventListener('click', () => {
    list.lastElementChild?.remove();
    sync();
    onChange();
  });
  hex.addEventListener('input', () => {
    const colors = parseHex(hex.value);
    if (colors.length >= min) {
      const keep = hex.value;
      setAll(colors);
      hex.value = keep;
      onChange();
    }
  });
  palette.addEventListener('change', () => {
    if (!palette.value) return;
    // The preset's colours, as many as the list holds now.
    setAll(presetColors(palette.value, list.children.length, min));
    palette.value = '';
    onChange();
  });
  sync();
  const ctl = wrap(id, h('div', { class: 'color-row' }, list, addBtn, removeBtn), h('div', { class: 'color-row' }, palette, hex));
  return {
    el: field(path, label, ctl, schema.description),
    get: () => [...list.children].map((i) => i.value),
    set: (v) => Array.isArray(v) && setAll(v),
    // Shuffle's palette, from a random colour of it, as many colours as the list holds now.
    shuffle: (palette = shufflePalette()) => setAll(shuffledColors(palette, Math.max(min, list.children.length))),
  };
}
