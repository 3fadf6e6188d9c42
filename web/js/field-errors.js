// An API refusal shown where it belongs: each issue beside the field it names, the rest on top (the
// playground's forms; any page built with form.js `field`).
import { ApiError } from './api.js';
import { issueLine } from './field-text.js';

export function clearErrors(root) {
  for (const el of root.querySelectorAll('.field-error')) el.textContent = '';
  for (const el of root.querySelectorAll('.field.invalid')) el.classList.remove('invalid');
}

/**
 * Puts each API issue next to the field it names (body.size.width → the Width field), in plain words
 * under the field's own title ("Title: must be at most 80 characters"); the rest goes on top.
 */
export function showErrors(root, err) {
  clearErrors(root);
  const titles = {};
  for (const el of root.querySelectorAll('.field[data-field]')) titles[el.dataset.field] = el.querySelector('.field-label')?.textContent;
  const leftovers = [];
  const issues = err instanceof ApiError ? err.issues : [];
  for (const issue of issues) {
    const { field, text } = issueLine(issue, titles);
    const target = field && root.querySelector(`.field-error[data-error-for="${CSS.escape(field)}"]`);
    if (target) {
      target.textContent = target.textContent ? `${target.textContent}; ${text}` : text;
      target.closest('.field').classList.add('invalid');
    } else leftovers.push(text);
  }
  if (!issues.length || leftovers.length) {
    const title =
      err instanceof ApiError ? `${err.status} ${err.code ?? ''} — ${issues.length ? err.problem.title : err.message}` : err.message;
    root.querySelector('.field-error.general').textContent = [title, ...leftovers].join('\n');
  }
}
