// The account area's budget section (issue #45): the remaining balance, the monthly budget with its
// alert thresholds and this month's alerts. The element is made at once; its content is a chunk of its
// own (budget-panel.js, handed the app's helpers so that none is split out of the first load), loaded
// as the account area opens. The first load is budgeted (test/unit/web-build.test.ts): keep this small.
import { call } from './api.js';
import { h, clear, append } from './dom.js';
import { formatDate } from './formatting.js';

/** The section's element, hidden until its content arrives (and staying hidden in local mode). */
export function budgetSection() {
  const el = h('section', { class: 'panel', id: 'budget', hidden: true });
  // A chunk that cannot load leaves the section hidden; the rest of the account area is unaffected.
  import('./budget-panel.js').then(
    (m) => m.fillBudget(el, { h, clear, append, call, formatDate }),
    () => {},
  );
  return el;
}
