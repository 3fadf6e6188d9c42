// The output-settings bar (the playground's toolbar; the template editor's output): generator, format
// with jpeg's quality, size preset, width and height with the ratio lock, pixel ratio, and seed with
// "New seed". Sides and pixel ratio take the service's ranges (limits.js). `read()` gives the bar's
// part of a recipe; `onChange` fires on every edit.
import { h } from './dom.js';
import { field } from './form.js';
import { defaultQuality } from './formats.js';
import { ratioRange, sideRange } from './limits.js';
import { SIZE_PRESETS, lockedSide, presetValue } from './sizing.js';

/** A random 32-bit seed other than 0 (0 means "derived from the params"). */
export const randomSeed = () => String(crypto.getRandomValues(new Uint32Array(1))[0] || 1);

/** A control in a `.control` div that names its input's id (form.js `field` labels it by that). */
export function wrapId(id, control) {
  const div = h('div', { class: 'control' }, control);
  div.dataset.inputId = id;
  return div;
}

/**
 * @param {{ list: object[], gen: object, recipe: object, onChange: () => void }} options
 */
export function outputSettings({ list, gen, recipe, onChange }) {
  const changed = () => {
    syncQuality();
    onChange();
  };
  const picker = h(
    'select',
    { id: 'generator', onchange: () => (location.hash = `#/playground/${encodeURIComponent(picker.value)}`) },
    list.map((g) => h('option', { value: g.slug, selected: g.slug === gen.slug }, `${g.name}${g.animated ? ' (animated)' : ''}`)),
  );
  const seed = h('input', {
    type: 'number',
    id: 'seed',
    min: 0,
    max: 4294967295,
    step: 1,
    value: recipe.seed ?? 0,
    oninput: changed,
    class: 'num wide',
  });
  const newSeed = h(
    'button',
    {
      type: 'button',
      class: 'btn small',
      id: 'new-seed',
      title: 'Another seed, same params',
      onclick: () => {
        seed.value = randomSeed();
        changed();
      },
    },
    'New seed',
  );
  const side = (id, value) => h('input', { type: 'number', id, ...sideRange(), step: 1, value, class: 'num', oninput: () => sized(id) });
  const width = side('size-width', recipe.size.width);
  const height = side('size-height', recipe.size.height);
  const pixelRatio = h('input', {
    type: 'number',
    id: 'size-pixelRatio',
    ...ratioRange(),
    value: recipe.size.pixelRatio ?? 1,
    oninput: changed,
    class: 'num',
  });
  const presetSel = h(
    'select',
    { id: 'size-preset', onchange: () => applyPreset() },
    h('option', { value: '' }, 'Custom'),
    SIZE_PRESETS.map(([w, ht, what]) => h('option', { value: `${w}x${ht}` }, `${w}×${ht} (${what})`)),
  );
  let ratio = recipe.size.width / recipe.size.height;
  const aspect = h('input', {
    type: 'checkbox',
    id: 'aspect-lock',
    onchange: () => (ratio = Number(width.value) / Number(height.value) || ratio),
  });
  const syncPreset = () => (presetSel.value = presetValue(width.value, height.value));
  function sized(id) {
    // With the aspect ratio locked, the other side follows.
    if (aspect.checked && ratio > 0) {
      if (id === 'size-width' && width.value !== '') height.value = String(lockedSide('width', Number(width.value), ratio));
      if (id === 'size-height' && height.value !== '') width.value = String(lockedSide('height', Number(height.value), ratio));
    }
    syncPreset();
    changed();
  }
  function applyPreset() {
    if (!presetSel.value) return;
    [width.value, height.value] = presetSel.value.split('x');
    ratio = Number(width.value) / Number(height.value);
    changed();
  }
  syncPreset();
  const format = h(
    'select',
    { id: 'format', onchange: changed },
    gen.formats.map((f) => h('option', { value: f, selected: f === recipe.format }, f)),
  );
  // jpeg's quality (the formats that take one): empty renders at the service's default.
  const quality = h('input', {
    type: 'number',
    id: 'quality',
    min: 1,
    max: 100,
    step: 1,
    value: recipe.quality ?? '',
    oninput: changed,
    class: 'num',
  });
  const qualityField = field('quality', 'Quality', wrapId('quality', quality));
  // Shown for a format that takes one, its default as the placeholder.
  const syncQuality = () => {
    quality.placeholder = defaultQuality(format.value) ?? '';
    qualityField.hidden = !quality.placeholder;
  };
  syncQuality();

  const el = h(
    'form',
    { class: 'panel toolbar', id: 'output-form', onsubmit: (e) => e.preventDefault() },
    field('generator', 'Generator', wrapId('generator', picker)),
    field('format', 'Format', wrapId('format', format)),
    qualityField,
    field('size.preset', 'Size preset', wrapId('size-preset', presetSel)),
    field('size.width', 'Width', wrapId('size-width', width)),
    field('size.height', 'Height', wrapId('size-height', height)),
    field('size.aspect', 'Lock ratio', wrapId('aspect-lock', aspect)),
    field('size.pixelRatio', 'Pixel ratio', wrapId('size-pixelRatio', pixelRatio)),
    field('seed', 'Seed', wrapId('seed', h('div', { class: 'range-row' }, seed, newSeed))),
  );
  const num = (input) => (input.value === '' ? undefined : Number(input.value));
  return {
    el,
    /** The bar's part of the recipe: seed, size, format and quality. */
    read: () => ({
      seed: num(seed) ?? 0,
      size: { width: num(width), height: num(height), pixelRatio: num(pixelRatio) ?? 1 },
      format: format.value,
      quality: num(quality),
    }),
    /** Sets the seed (a variation's, the derived one) without an edit event. */
    setSeed: (value) => (seed.value = String(value)),
    /** The format select (a question about the format sends the focus there). */
    format,
  };
}
