// The account area's budget section (issue #45): the remaining balance, the monthly budget with its
// alert thresholds and this month's alerts. The element is made at once; its content is a chunk of its
// own (budget-panel.js), loaded as the account area opens, so the first load does not carry it.
import { h } from './dom.js';

/** The section's element, hidden until its content arrives (and staying hidden in local mode). */
export function budgetSection() {
  const el = h('section', { class: 'panel', id: 'budget', hidden: true, 'aria-labelledby': 'budget-title' });
  import('./budget-panel.js')
    .then(({ fillBudget }) => fillBudget(el))
    .catch((err) => {
      el.hidden = false;
      el.append(h('h2', { id: 'budget-title' }, 'Budget'), h('p', { class: 'error' }, err.message));
    });
  return el;
}
