// The table of API key scopes in docs/accounts-keys-credits-billing.md, written by `npm run docs`:
// each scope (src/services/key-scopes.ts), what it allows, and the operations whose security
// requirement in openapi.yaml names it — the requirement the service enforces, so the table cannot
// drift from what a key may do.
import { listOperations } from '../../src/lib/openapi-document.ts';
import { KEY_SCOPES, operationScopes, SCOPE_NAMES } from '../../src/services/key-scopes.ts';

export function scopesMarkdown(): string {
  const scopes = operationScopes();
  const operations = listOperations();
  const rows = SCOPE_NAMES.map((scope) => {
    const ops = operations
      .filter((o) => scopes.get(o.operationId) === scope)
      .map((o) => `\`${o.method} ${o.path}\``)
      .join(', ');
    return `| \`${scope}\` | ${KEY_SCOPES[scope]} | ${ops} |`;
  });
  return ['| Scope | Allows | Operations |', '|---|---|---|', ...rows].join('\n');
}
