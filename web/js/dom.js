// Tiny DOM helpers. Never sets the style attribute (the CSP forbids inline styles); CSSOM is fine.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/** A modal <dialog> of a form (method dialog: a button with a value closes it), removed once closed; `attrs` its id, onclose… */
export function modal(attrs, ...children) {
  const dialog = h('dialog', { class: 'dialog', ...attrs }, h('form', { method: 'dialog' }, children));
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  return dialog;
}

let toastTimer;
export function toast(message) {
  const el = document.getElementById('toast');
  el.textContent = message;
  el.classList.add('show');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.remove('show'), 2500);
}

export async function copyText(text, what = 'Copied') {
  try {
    await navigator.clipboard.writeText(text);
    toast(`${what} to the clipboard`);
  } catch {
    // Clipboard unavailable (permissions): fall back to a selectable prompt.
    window.prompt('Copy this:', text);
  }
}

export function copyButton(getText, label = 'Copy', what, attrs = {}) {
  return h(
    'button',
    { type: 'button', class: 'btn small', ...attrs, onclick: () => copyText(typeof getText === 'function' ? getText() : getText, what) },
    label,
  );
}

export function debounce(fn, ms) {
  let t;
  return (...args) => {
    clearTimeout(t);
    t = setTimeout(() => fn(...args), ms);
  };
}

/** Revokes the previous blob URL of a slot when a new one replaces it. */
export class BlobSlot {
  url = null;
  set(blob) {
    this.revoke();
    this.url = URL.createObjectURL(blob);
    return this.url;
  }
  revoke() {
    if (this.url) URL.revokeObjectURL(this.url);
    this.url = null;
  }
}

/** Gives each cell of a table body its column's heading (data-label), shown beside it on phones. */
export function labelCells(tbody) {
  const heads = [...(tbody.closest('table')?.querySelectorAll('thead th') ?? [])].map((th) => th.textContent);
  for (const row of tbody.rows)
    for (const [i, cell] of [...row.cells].entries()) if (heads[i] && cell.colSpan === 1) cell.dataset.label = heads[i];
  return tbody;
}
