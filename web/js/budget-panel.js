// The budget section's content (loaded when the account area opens, see budget.js): the remaining
// balance, the monthly budget with its alert thresholds (an edit form, PUT /v1/workspace/budget) and
// the thresholds crossed this month. Hosted workspaces only: local mode keeps no balance, so the
// section stays hidden there.
import { budgetBody, spentPercent } from './budget-form.js';

// The app's helpers, handed over by budget.js: imported here, they would be split out of the first
// load's bundle into a chunk shared with this one, and the first load would grow.
let h, clear, append, call, formatDate;

/** Fills the section `el` (hidden until then) once its data arrives. */
export async function fillBudget(el, helpers) {
  ({ h, clear, append, call, formatDate } = helpers);
  el.setAttribute('aria-labelledby', 'budget-title');
  try {
    const [me, budget] = await Promise.all([call('getMe'), call('getBudget')]);
    if (!me.balance) return;
    el.hidden = false;
    show(el, me.balance, budget);
  } catch (err) {
    el.hidden = false;
    clear(el).append(h('h2', { id: 'budget-title' }, 'Budget'), h('p', { class: 'error' }, err.message));
  }
}

function show(el, balance, budget) {
  const input = (id, attrs) => h('input', { id, name: id, ...attrs });
  const amount = input('budget-credits', { type: 'number', min: 1, step: 1, inputmode: 'numeric', value: budget.monthlyCredits ?? '' });
  const thresholds = input('budget-thresholds', {
    type: 'text',
    value: (budget.alertThresholds.length ? budget.alertThresholds : [50, 80, 100]).join(', '),
    'aria-describedby': 'budget-thresholds-hint',
  });
  const webhook = input('budget-webhook', {
    type: 'url',
    placeholder: 'https://hooks.example.com/render-service',
    value: budget.webhookUrl ?? '',
  });
  const error = h('p', { class: 'field-error general', role: 'alert', id: 'budget-error' });
  const row = (control, label, hint) =>
    h('div', { class: 'field' }, h('label', { class: 'field-label', for: control.id }, label), control, hint ?? null);
  const form = h(
    'form',
    { id: 'budget-form', class: 'stack' },
    row(amount, 'Monthly budget (credits; empty: no budget)'),
    row(
      thresholds,
      'Alert at (% of the budget)',
      h('p', { class: 'hint', id: 'budget-thresholds-hint' }, 'Comma-separated, e.g. 50, 80, 100.'),
    ),
    row(webhook, 'Webhook URL for alerts (optional)'),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'btn primary' }, 'Save budget')),
    error,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.textContent = '';
    const body = budgetBody({ monthlyCredits: amount.value, thresholds: thresholds.value, webhookUrl: webhook.value });
    if (!body.ok) {
      error.textContent = body.error;
      (body.field === 'monthlyCredits' ? amount : thresholds).focus();
      return;
    }
    try {
      const saved = await call('updateBudget', { body: body.value });
      show(el, balance, saved);
      el.querySelector('#budget-status')?.focus();
    } catch (err) {
      error.textContent = err.message;
    }
  });
  const percent = spentPercent(budget.spentThisMonth, budget.monthlyCredits);
  append(clear(el), [
    h('h2', { id: 'budget-title' }, 'Budget'),
    h('p', { id: 'budget-remaining', class: 'big' }, `${balance.available} credits remaining`),
    h(
      'p',
      { id: 'budget-status', tabindex: -1 },
      budget.monthlyCredits
        ? `${budget.spentThisMonth} of ${budget.monthlyCredits} credits spent in ${budget.month} (${percent} %). A budget alerts; it never stops a render.`
        : `${budget.spentThisMonth} credits spent in ${budget.month}. No monthly budget is set.`,
    ),
    budget.monthlyCredits ? h('progress', { max: 100, value: Math.min(100, percent), 'aria-label': 'Budget spent this month' }) : null,
    budget.crossed.length
      ? h(
          'ul',
          { id: 'budget-alerts', 'aria-label': 'Alerts this month' },
          budget.crossed.map((c) => h('li', {}, `${c.threshold} % crossed ${formatDate(c.crossedAt)} (${c.spent} of ${c.budget} credits)`)),
        )
      : h('p', { class: 'muted small', id: 'budget-alerts-none' }, 'No alert this month.'),
    form,
  ]);
}
