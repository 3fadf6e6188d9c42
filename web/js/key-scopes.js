// The account area's API keys panel, with scopes and a monthly credit limit
// (docs/accounts-keys-credits-billing.md#scoped-keys): create a key with full access (the default) or
// only the scopes ticked, and a limit; list each key's scopes and this month's spending. The rules
// (the request body, how a key reads) are key-scope-rules.js; the table helpers shared with the
// other panels come from account.js.
import { call } from './api.js';
import { h, clear } from './dom.js';
import { formatDate } from './formatting.js';
import { SCOPES, keyRequestBody, scopesText, spendingText } from './key-scope-rules.js';

/**
 * Renders the panel into `el`. `shared` holds account.js's helpers: showSecret(box, secret, id, what),
 * thead(titles), statusCells(key, onRevoke), fillRows(tbody, list, cols, empty, row) and
 * revoke(send, question, label, reload).
 */
export async function renderScopedKeys(el, shared) {
  const { showSecret, thead } = shared;
  const label = h('input', {
    type: 'text',
    id: 'key-label',
    placeholder: 'Label, e.g. "CI"',
    maxlength: 100,
    required: true,
    'aria-label': 'Label of the new key',
  });
  const limit = h('input', {
    type: 'number',
    id: 'key-limit',
    min: 0,
    step: 1,
    placeholder: 'Monthly credit limit',
    'aria-label': 'Monthly credit limit of the new key (optional)',
  });
  const boxes = SCOPES.map(([name, text]) => ({
    name,
    input: h('input', { type: 'checkbox', id: `key-scope-${name.replace(':', '-')}`, value: name, disabled: true }),
    text,
  }));
  // Full access is the default: the scope boxes are only read (and enabled) once it is unticked.
  const full = h('input', {
    type: 'checkbox',
    id: 'key-full-access',
    checked: true,
    onchange: () => boxes.forEach((b) => (b.input.disabled = full.checked)),
  });
  const scopes = h(
    'fieldset',
    { class: 'key-scopes', id: 'key-scopes' },
    h('legend', {}, 'Access'),
    h('label', { class: 'check' }, full, ' Full access (every scope)'),
    boxes.map((b) => h('label', { class: 'check', title: b.name }, b.input, ' ', b.text, ' ', h('code', { class: 'small' }, b.name))),
  );
  const secretBox = h('div', { id: 'key-secret-box' });
  const error = h('p', { class: 'field-error general', role: 'alert' });
  const tbody = h('tbody', { id: 'key-list' });
  const form = h(
    'form',
    { class: 'actions', id: 'key-create' },
    label,
    limit,
    scopes,
    h('button', { type: 'submit', class: 'btn primary' }, 'Create key'),
  );
  const reload = () => loadKeys(tbody, shared);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.textContent = '';
    const request = keyRequestBody({
      label: label.value,
      fullAccess: full.checked,
      scopes: boxes.filter((b) => b.input.checked).map((b) => b.name),
      limit: limit.value,
    });
    if (request.error) {
      error.textContent = request.error;
      return;
    }
    try {
      const key = await call('createKey', { body: request.body });
      label.value = '';
      limit.value = '';
      showSecret(secretBox, key.secret, 'key-secret', 'API key copied');
      await reload();
    } catch (err) {
      error.textContent = err.message;
    }
  });
  clear(el).append(
    h('h2', {}, 'API keys'),
    h(
      'p',
      { class: 'muted small' },
      'Use a key as ',
      h('code', {}, 'Authorization: Bearer <key>'),
      ' from scripts and servers. Give each integration only the scopes it needs, and a monthly credit limit.',
    ),
    form,
    error,
    secretBox,
    h(
      'table',
      { class: 'table' },
      thead(['Label', 'Prefix', 'Scopes', 'Credits this month', 'Created', 'Last used', 'Status', 'Actions']),
      tbody,
    ),
  );
  await reload();
}

const loadKeys = (tbody, { fillRows, statusCells, revoke }) =>
  fillRows(tbody, call('listKeys'), 8, 'No keys yet.', (key) =>
    h(
      'tr',
      { dataset: { key: key.id, revoked: String(key.revoked) }, class: key.revoked ? 'revoked' : '' },
      h('td', { class: 'key-label' }, key.label),
      h('td', {}, h('code', {}, `${key.prefix}…`)),
      h('td', { class: 'key-scopes-cell' }, scopesText(key.scopes)),
      h('td', { class: 'key-spending' }, spendingText(key)),
      h('td', {}, formatDate(key.createdAt)),
      h('td', {}, formatDate(key.lastUsedAt)),
      statusCells(key, () =>
        revoke(
          () => call('revokeKey', { path: { id: key.id } }),
          `Revoke the key "${key.label}" (${key.prefix}…)? Anything using it stops working at once.`,
          key.label,
          () => loadKeys(tbody, { fillRows, statusCells, revoke }),
        ),
      ),
    ),
  );
