// The template editor's canvas: the service's picture of the draft, and over it a box per visible,
// unlocked layer (template pixels scaled to the shown size) to select, drag, resize by its handles
// and nudge with the arrow keys, snapping to the canvas and to the other layers with guide lines.
// While a box is dragged only the overlay moves; the editor renders again when the drag ends.
import { h } from '../dom.js';
import { SNAP_PX, boxOf, clampBox, moveBox, nudge, resizeBox, roundBox, snapMove, snapResize, snapTargets, toShown } from './geometry.js';

const HANDLES = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'];

/** Sets an element's CSS box (CSSOM: the CSP forbids style attributes, not this). */
const place = (el, b) => {
  el.style.left = `${b.x}px`;
  el.style.top = `${b.y}px`;
  el.style.width = `${b.width}px`;
  el.style.height = `${b.height}px`;
};

/** A resize handle on its edge or corner, with its cursor (nw-resize…), placed by CSSOM. */
function handleElement(handle) {
  const el = h('div', { class: 'tpl-handle', dataset: { handle }, 'aria-hidden': 'true' });
  el.style.left = handle.includes('w') ? '0' : handle.includes('e') ? '100%' : '50%';
  el.style.top = handle.includes('n') ? '0' : handle.includes('s') ? '100%' : '50%';
  el.style.cursor = `${handle}-resize`;
  return el;
}

/**
 * The canvas. `onSelect(id | null)` when a box is picked (or the empty canvas clicked), `onBox(id, box)`
 * when a drag, a resize or a nudge ends, `onRemove(id)` on Delete.
 */
export function createCanvas({ onSelect, onBox, onRemove }) {
  const picture = h('img', { class: 'tpl-picture', id: 'tpl-picture', alt: '' });
  const overlay = h('div', { class: 'tpl-overlay', id: 'tpl-overlay', role: 'group', 'aria-label': 'Layers on the canvas' });
  const stage = h('div', { class: 'tpl-stage loading', id: 'tpl-stage' }, picture, overlay);
  let view = { template: null, scale: 1, selected: null, hidden: new Set(), locked: new Set() };

  overlay.addEventListener('pointerdown', (e) => {
    if (e.target === overlay) onSelect(null);
  });

  /** Guide lines at template coordinates, drawn across the canvas. */
  function drawGuides(guides) {
    for (const g of overlay.querySelectorAll('.tpl-guide')) g.remove();
    for (const g of guides) {
      const line = h('div', { class: `tpl-guide ${g.axis}`, dataset: { axis: g.axis, at: g.at } });
      if (g.axis === 'x') line.style.left = `${g.at * view.scale}px`;
      else line.style.top = `${g.at * view.scale}px`;
      overlay.append(line);
    }
  }

  /** The boxes the dragged one snaps to: the other visible layers'. */
  const targetsFor = (id) =>
    snapTargets(
      view.template.size,
      view.template.layers.filter((l) => l.id !== id && !view.hidden.has(l.id)).map((l) => boxOf(l, view.template.size)),
    );

  function boxElement(layer) {
    const { size } = view.template;
    const b = boxOf(layer, size);
    const label = `${layer.id} (${layer.kind}) at ${Math.round(b.x)}, ${Math.round(b.y)}, ${Math.round(b.width)}×${Math.round(b.height)}`;
    const el = h(
      'div',
      {
        class: `tpl-box${layer.id === view.selected ? ' selected' : ''}`,
        id: `tpl-box-${layer.id}`,
        tabindex: 0,
        role: 'button',
        'aria-pressed': String(layer.id === view.selected),
        'aria-label': `${label}. Arrow keys move it (Shift: 10 px), Delete removes it.`,
        dataset: { layer: layer.id },
      },
      layer.box ? HANDLES.map(handleElement) : [],
    );
    place(el, toShown(b, view.scale));
    el.addEventListener('focus', () => layer.id !== view.selected && onSelect(layer.id));
    el.addEventListener('keydown', (e) => {
      if (e.key === 'Delete' || e.key === 'Backspace') {
        e.preventDefault();
        onRemove(layer.id);
        return;
      }
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        onSelect(layer.id);
        return;
      }
      if (!layer.box || e.altKey || e.ctrlKey || e.metaKey) return;
      const moved = nudge(layer.box, e.key, e.shiftKey);
      if (!moved) return;
      e.preventDefault();
      onBox(layer.id, clampBox(moved, size));
    });
    el.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      e.preventDefault();
      el.focus({ preventScroll: true });
      onSelect(layer.id);
      if (!layer.box) return; // a layer over the whole canvas: selected, not moved
      const handle = e.target.dataset?.handle;
      const start = { ...layer.box };
      const from = { x: e.clientX, y: e.clientY };
      const targets = targetsFor(layer.id);
      const reach = SNAP_PX / view.scale;
      let box = start;
      el.setPointerCapture(e.pointerId);
      el.classList.add('dragging');
      const move = (ev) => {
        const dx = (ev.clientX - from.x) / view.scale;
        const dy = (ev.clientY - from.y) / view.scale;
        const raw = handle ? resizeBox(start, handle, dx, dy) : moveBox(start, dx, dy);
        const snapped = ev.altKey
          ? { box: raw, guides: [] }
          : handle
            ? snapResize(raw, handle, targets, reach)
            : snapMove(raw, targets, reach);
        box = roundBox(clampBox(snapped.box, size));
        place(el, toShown(box, view.scale));
        drawGuides(snapped.guides);
      };
      const end = () => {
        el.removeEventListener('pointermove', move);
        el.removeEventListener('pointerup', end);
        el.removeEventListener('pointercancel', end);
        el.classList.remove('dragging');
        drawGuides([]);
        if (box !== start && JSON.stringify(box) !== JSON.stringify(start)) onBox(layer.id, box);
      };
      el.addEventListener('pointermove', move);
      el.addEventListener('pointerup', end);
      el.addEventListener('pointercancel', end);
    });
    return el;
  }

  /** Lays the canvas out: `shown` its CSS size, the boxes of the visible, unlocked layers (focus kept on the same layer's box). */
  function layout(next, shown) {
    view = next;
    stage.style.width = `${shown.width}px`;
    stage.style.height = `${shown.height}px`;
    picture.width = shown.width;
    picture.height = shown.height;
    const focused = document.activeElement?.closest?.('.tpl-box')?.dataset.layer;
    overlay.replaceChildren(
      ...view.template.layers.filter((l) => !view.hidden.has(l.id) && !view.locked.has(l.id)).map((l) => boxElement(l)),
    );
    if (focused) document.getElementById(`tpl-box-${focused}`)?.focus({ preventScroll: true });
  }

  /** Marks the selected box without rebuilding the overlay (a drag may be holding one). */
  function select(id) {
    view.selected = id;
    for (const el of overlay.querySelectorAll('.tpl-box')) {
      el.classList.toggle('selected', el.dataset.layer === id);
      el.setAttribute('aria-pressed', String(el.dataset.layer === id));
    }
  }

  return { stage, picture, layout, select };
}
