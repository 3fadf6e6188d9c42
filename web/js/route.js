// The hash route, read without the DOM (unit-tested in Node: test/unit/web-recipe.test.ts).

/** `#/<name>/<arg>?<query>` → { name, arg }: `#/playground/blob?r=…` is playground, blob ('' for the gallery). */
export function parseRoute(hash) {
  const [, name = '', arg] = String(hash).replace(/^#\/?/, '#/').split('?')[0].split('/');
  return { name, arg };
}

/** A route's query (`#/account?checkout=success`, `#/playground/blob?r=…`). */
export const queryOf = (hash) => new URLSearchParams(String(hash).split('?')[1] ?? '');
