// Builds form controls from a generator's paramSchema (JSON Schema 2020-12 subset).
import { h } from './dom.js';

/** A labelled field wrapper with an error slot named after the recipe path (e.g. "params.points"). */
export function field(path, label, control, description) {
  return h(
    'div',
    { class: 'field', dataset: { field: path } },
    h('label', { class: 'field-label', for: control.dataset.inputId || undefined }, label),
    control,
    description ? h('p', { class: 'hint' }, description) : null,
    h('p', { class: 'field-error', dataset: { errorFor: path }, role: 'alert' }),
  );
}

const idOf = (path) => path.replace(/[^a-zA-Z0-9_-]/g, '-');

function niceStep(min, max, integer) {
  if (integer) return 1;
  const raw = (max - min) / 100;
  const pow = 10 ** Math.floor(Math.log10(raw));
  return Number((Math.round(raw / pow) * pow).toPrecision(6));
}

/**
 * One control per property. `get()` reads the value (undefined = leave out), `onChange` fires on
 * every edit.
 */
export function paramControl(name, schema, value, onChange) {
  const path = `params.${name}`;
  const id = idOf(path);
  const label = schema.title || name;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;

  if (Array.isArray(schema.enum)) {
    const select = h(
      'select',
      { id, name: path, onchange: onChange },
      schema.enum.map((v) => h('option', { value: String(v), selected: v === value }, String(v))),
    );
    const ctl = wrap(id, select);
    return { el: field(path, label, ctl, schema.description), get: () => schema.enum.find((v) => String(v) === select.value) };
  }
  if (type === 'boolean') {
    const box = h('input', { type: 'checkbox', id, name: path, checked: Boolean(value), onchange: onChange });
    const ctl = wrap(id, h('label', { class: 'toggle' }, box, h('span', { class: 'toggle-track' }), h('span', {}, 'on')));
    return { el: field(path, label, ctl, schema.description), get: () => box.checked };
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
    let slider = null;
    if (hasRange) {
      slider = h('input', {
        type: 'range',
        min: schema.minimum,
        max: schema.maximum,
        step: niceStep(schema.minimum, schema.maximum, integer),
        value: value ?? schema.minimum,
        'aria-label': `${label} slider`,
      });
      slider.addEventListener('input', () => {
        number.value = slider.value;
        onChange();
      });
    }
    number.addEventListener('input', () => {
      if (slider && number.value !== '') slider.value = number.value;
      onChange();
    });
    const ctl = wrap(id, h('div', { class: 'range-row' }, slider, number));
    return {
      el: field(path, label, ctl, schema.description),
      get: () => {
        if (number.value === '') return undefined;
        const n = Number(number.value);
        return Number.isFinite(n) ? n : undefined;
      },
    };
  }
  if (type === 'string' && schema.format === 'color') {
    const color = h('input', { type: 'color', id, name: path, value: value ?? '#000000', oninput: onChange });
    const ctl = wrap(id, color);
    return { el: field(path, label, ctl, schema.description), get: () => color.value };
  }
  if (type === 'array' && schema.items && schema.items.format === 'color') {
    return colorList(path, id, label, schema, Array.isArray(value) ? value : [], onChange);
  }
  if (type === 'string') {
    const text = h('input', { type: 'text', id, name: path, value: value ?? '', maxlength: schema.maxLength, oninput: onChange });
    return { el: field(path, label, wrap(id, text), schema.description), get: () => text.value };
  }
  // Anything else: JSON in a text field.
  const text = h('input', {
    type: 'text',
    id,
    name: path,
    value: value === undefined ? '' : JSON.stringify(value),
    oninput: onChange,
    class: 'mono',
  });
  return {
    el: field(path, label, wrap(id, text), schema.description),
    get: () => {
      if (text.value.trim() === '') return undefined;
      try {
        return JSON.parse(text.value);
      } catch {
        return text.value;
      }
    },
  };
}

function wrap(id, control) {
  const div = h('div', { class: 'control' }, control);
  div.dataset.inputId = id;
  return div;
}

function colorList(path, id, label, schema, initial, onChange) {
  const min = schema.minItems ?? 1;
  const max = schema.maxItems ?? 16;
  const list = h('div', { class: 'color-list', id });
  const addBtn = h('button', { type: 'button', class: 'btn small', title: 'Add a colour' }, '+');
  const removeBtn = h('button', { type: 'button', class: 'btn small', title: 'Remove the last colour' }, '−');
  const add = (value) => list.append(h('input', { type: 'color', value, 'aria-label': `${label} colour`, oninput: onChange }));
  const sync = () => {
    addBtn.disabled = list.children.length >= max;
    removeBtn.disabled = list.children.length <= min;
  };
  for (const c of initial) add(c);
  addBtn.addEventListener('click', () => {
    const last = list.lastElementChild?.value ?? '#888888';
    add(last);
    sync();
    onChange();
  });
  removeBtn.addEventListener('click', () => {
    list.lastElementChild?.remove();
    sync();
    onChange();
  });
  sync();
  const ctl = wrap(id, h('div', { class: 'color-row' }, list, addBtn, removeBtn));
  return { el: field(path, label, ctl, schema.description), get: () => [...list.children].map((i) => i.value) };
}
