// Builds form controls from a generator's paramSchema (JSON Schema 2020-12 subset).
import { h } from './dom.js';
import { charCount, codeSpans } from './field-text.js';

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
    return {
      el: field(path, label, ctl, schema.description),
      get: () => schema.enum.find((v) => String(v) === select.value),
      set: (v) => (select.value = String(v)),
      shuffle: () => (select.value = String(pick(schema.enum))),
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
    const step = hasRange ? niceStep(min, max, integer) : 1;
    // A range over orders of magnitude (cells 3–2000) slides on a log scale, 0–1000: the small
    // values, where each step shows, get most of the track.
    const log = hasRange && min > 0 && max / min >= 40;
    const toSlider = (v) => (log ? Math.round((1000 * Math.log(v / min)) / Math.log(max / min)) : v);
    const fromSlider = (t) => {
      if (!log) return t;
      const v = min * (max / min) ** (t / 1000);
      return integer ? Math.round(v) : Number(v.toPrecision(3));
    };
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
      // Within the schema's range, on the slider's step (even over a log slider's track). A finish
      // (grain, noise) stays in the lowest fifth of its range: a texture, not the picture.
      shuffle: () => {
        if (!hasRange) return;
        let n;
        if (FINISH.test(name)) n = min + Math.round((Math.random() * 0.2 * (max - min)) / step) * step;
        else if (log) n = fromSlider(Math.round(Math.random() * 1000));
        else n = min + Math.round((Math.random() * (max - min)) / step) * step;
        number.value = String(Number(Math.min(max, n).toPrecision(6)));
        sync();
      },
      range: hasRange ? { min, max, integer } : undefined,
      set: (v) => {
        number.value = v ?? '';
        sync();
      },
      get: () => {
        if (number.value === '') return undefined;
        const n = Number(number.value);
        return Number.isFinite(n) ? n : undefined;
      },
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
      const c = parseHex(hex.value)[0];
      if (c && hex.value.trim().length >= 6) {
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
      shuffle: (palette = pick(SHUFFLE_PALETTES)) => {
        const byLight = [...palette].sort((x, y) => lightness(x) - lightness(y));
        hex.value = color.value = /background|sky/i.test(name) ? pick([byLight[0], byLight.at(-1)]) : pick(palette);
      },
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
    value: value === undefined ? '' : JSON.stringify(value),
    oninput: onChange,
    class: 'mono',
  });
  return {
    el: field(path, label, wrap(id, text), schema.description),
    set: (v) => (text.value = v === undefined ? '' : JSON.stringify(v)),
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

const pick = (list) => list[Math.floor(Math.random() * list.length)];
/** Params that finish a picture (a texture over it): Shuffle keeps them modest. */
const FINISH = /grain|noise|dither/i;
/** Relative luminance-ish of #rrggbb, enough to order a palette from dark to light. */
const lightness = (hex) => [1, 3, 5].reduce((sum, i, k) => sum + parseInt(hex.slice(i, i + 2), 16) * [0.2126, 0.7152, 0.0722][k], 0);

/** Every #rrggbb (or rrggbb, #rgb) in pasted text, lower-cased as #rrggbb. */
export function parseHex(text) {
  return [...String(text).matchAll(/#?\b([0-9a-f]{6}|[0-9a-f]{3})\b/gi)].map(([, x]) =>
    `#${x.length === 3 ? [...x].map((c) => c + c).join('') : x}`.toLowerCase(),
  );
}

/** Palette presets for colour lists. */
export const PALETTES = {
  Sunset: ['#ff7e5f', '#feb47b', '#ffcf71', '#e0577a', '#6a3093'],
  Ocean: ['#03045e', '#0077b6', '#00b4d8', '#90e0ef', '#caf0f8'],
  Forest: ['#1b4332', '#2d6a4f', '#52b788', '#95d5b2', '#d8f3dc'],
  Candy: ['#ff70a6', '#ff9770', '#ffd670', '#e9ff70', '#70d6ff'],
  Mono: ['#111111', '#444444', '#777777', '#aaaaaa', '#eeeeee'],
  Nordic: ['#2e3440', '#5e81ac', '#88c0d0', '#a3be8c', '#ebcb8b'],
  Terracotta: ['#264653', '#2a9d8f', '#e9c46a', '#f4a261', '#e76f51'],
  Pastel: ['#cdb4db', '#ffc8dd', '#ffafcc', '#bde0fe', '#a2d2ff'],
  Citrus: ['#f94144', '#f3722c', '#f8961e', '#f9c74f', '#90be6d'],
  Lagoon: ['#05668d', '#028090', '#00a896', '#02c39a', '#f0f3bd'],
  Ember: ['#03071e', '#6a040f', '#d00000', '#e85d04', '#ffba08'],
};
/** The curated palettes Shuffle draws from (one per shuffle, for every colour): all but Mono. */
export const SHUFFLE_PALETTES = Object.entries(PALETTES)
  .filter(([name]) => name !== 'Mono')
  .map(([, colors]) => colors);
/** One of them, for a shuffle. */
export const shufflePalette = () => pick(SHUFFLE_PALETTES);

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
    const n = Math.min(max, Math.max(min, colors.length));
    list.replaceChildren();
    for (let i = 0; i < n; i++) add(colors[i % colors.length]);
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
    const colors = PALETTES[palette.value];
    setAll(colors.slice(0, Math.max(min, Math.min(list.children.length, colors.length))));
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
    shuffle: (palette = pick(SHUFFLE_PALETTES)) => {
      const from = Math.floor(Math.random() * palette.length);
      setAll(Array.from({ length: Math.max(min, list.children.length) }, (_, i) => palette[(from + i) % palette.length]));
    },
  };
}
