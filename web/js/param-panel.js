// The param panel (the playground's; a generator layer's in the template editor): one control per
// property of the generator's paramSchema, each with a "lock" that Shuffle keeps. `read()` gives the
// params, `set(params)` puts some in, `shuffle(palette)` draws the unlocked ones, `ranged()` lists the
// unlocked numbers with a range ("More like this" nudges them).
import { h } from './dom.js';
import { paramControl } from './form.js';

/** Params kept by Shuffle, per generator (for this tab). */
const locked = new Map();

/** @param {{ gen: object, recipe: object, onChange: () => void }} options */
export function paramPanel({ gen, recipe, onChange }) {
  const schemaProps = gen.paramSchema?.properties ?? {};
  const locks = locked.get(gen.slug) ?? new Set();
  locked.set(gen.slug, locks);
  const controls = [];
  for (const [name, schema] of Object.entries(schemaProps)) {
    const value = recipe.params?.[name] ?? gen.defaults?.[name] ?? schema.default;
    const control = paramControl(name, schema, value, onChange);
    const lock = h('input', {
      type: 'checkbox',
      id: `lock-${name}`,
      class: 'lock',
      checked: locks.has(name),
      'aria-label': `Lock ${schema.title || name} (Shuffle keeps it)`,
      onchange: () => (lock.checked ? locks.add(name) : locks.delete(name)),
    });
    control.el.prepend(h('label', { class: 'lock-toggle', title: 'Keep this value when shuffling' }, lock, h('span', {}, 'lock')));
    controls.push({ name, lock, ...control });
  }
  const el = h(
    'form',
    { class: 'panel params', id: 'params-form', onsubmit: (e) => e.preventDefault() },
    h('p', { class: 'muted small' }, gen.description ?? '', ' ', h('span', { class: 'version' }, `v${gen.version}`)),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Params'),
      controls.map((c) => c.el),
    ),
  );
  return {
    el,
    schemaProps,
    read() {
      const params = {};
      for (const c of controls) {
        const v = c.get();
        if (v !== undefined) params[c.name] = v;
      }
      return params;
    },
    set(params) {
      for (const c of controls) if (c.name in params) c.set?.(params[c.name]);
    },
    shuffle(palette) {
      for (const c of controls) if (!c.lock.checked) c.shuffle?.(palette);
    },
    ranged: () => controls.filter((c) => c.range && !c.lock.checked).map((c) => [c.name, c.range]),
  };
}
