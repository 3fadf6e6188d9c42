// Scopes of API keys. The contract says which scope each operation needs: its security
// requirement names it (`- bearerAuth: [render]`, the same for the session scheme). This module
// reads that once; the request steps (src/http/request-steps.ts) refuse a scoped key outside its
// scopes, for every operation, before any handler runs. A key without scopes, a session (the web
// app), the local gateway and the local mode's API_KEYS hold every scope.
import type { components } from '../../codegen/openapi.ts';
import { ProblemError } from '../errors/problem.ts';
import { type OpenApiDocument, openApiDocument } from '../lib/openapi-document.ts';

/** What a scope check reads of a principal (auth.service.ts's Principal): its scopes, absent for every scope. */
type Scoped = { readonly scopes?: readonly KeyScope[] };

export type KeyScope = components['schemas']['KeyScope'];

/** Every scope, with what it allows (the docs' table and the account area's checkboxes say the same). */
export const KEY_SCOPES = {
  render: 'Synchronous renders, recipe URLs, batches, quotes and preset renders (they spend credits)',
  jobs: 'Export jobs: submit, list, follow, cancel, download',
  presets: 'Saved presets: list, read, create, change, delete',
  templates: 'Templates and their previews, versions and starters',
  assets: 'Uploaded images and fonts',
  'usage:read': 'The usage report',
  'account:read': 'The owner, workspace and balance',
  billing: 'The balance, packs and purchases, buying credits, and the monthly budget',
  'keys:manage': 'API keys: list, create (within its own scopes), revoke',
  'signing-keys:manage': 'URL signing keys, signed URLs and signed bases',
  'webhooks:manage': "The workspace's webhook secret: read and rotate",
  mcp: 'Connect an AI agent to the MCP endpoint; each tool call also needs the scope of the operation it makes',
} as const satisfies Record<KeyScope, string>;

export const SCOPE_NAMES = Object.keys(KEY_SCOPES) as KeyScope[];

export function isKeyScope(value: string): value is KeyScope {
  return Object.hasOwn(KEY_SCOPES, value);
}

type SecurityRequirement = Record<string, string[]>;
type OperationObject = { operationId?: string; security?: SecurityRequirement[] };
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

/**
 * The scope each operation needs, by operationId; null for a public operation (`security: []`) or
 * one a key never calls (a signed base's URL). Throws naming an operation a key may call whose
 * requirements name no scope, more than one, an unknown one, or different ones per scheme: the
 * service refuses to start rather than guess (fail closed).
 */
export function operationScopes(doc: OpenApiDocument = openApiDocument()): ReadonlyMap<string, KeyScope | null> {
  const root = (doc.security as SecurityRequirement[] | undefined) ?? [];
  const scopes = new Map<string, KeyScope | null>();
  const problems: string[] = [];
  for (const item of Object.values(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as OperationObject | undefined;
      if (!op?.operationId) continue;
      const requirements = op.security ?? root;
      const named = requirements.filter((r) => 'bearerAuth' in r || 'sessionCookie' in r).flatMap((r) => Object.values(r));
      if (named.length === 0) {
        scopes.set(op.operationId, null);
        continue;
      }
      const distinct = [...new Set(named.map((list) => list.join(' ')))];
      const scope = distinct[0]!;
      if (distinct.length !== 1 || named[0]!.length !== 1 || !isKeyScope(scope))
        problems.push(`${op.operationId} (${distinct.map((d) => `[${d}]`).join(', ')})`);
      else scopes.set(op.operationId, scope);
    }
  }
  if (problems.length > 0)
    throw new Error(
      `openapi.yaml: every operation an API key may call names one scope of KeyScope in its bearerAuth and sessionCookie requirements; these do not: ${problems.join('; ')}.`,
    );
  return scopes;
}

/** Whether the principal may act under `scope`: only a persisted API key created with scopes is ever restricted. */
export function holdsScope(principal: Scoped, scope: KeyScope): boolean {
  return !principal.scopes || principal.scopes.includes(scope);
}

/** 403 insufficient_scope naming the scope, in `detail` and in `requiredScope`. */
export function insufficientScope(scope: KeyScope, what = 'This operation'): ProblemError {
  return new ProblemError('insufficient_scope', {
    detail: `${what} needs the scope "${scope}", which this API key does not have. Create a key with it (POST /v1/keys, "scopes").`,
    extra: { requiredScope: scope },
  });
}

/** Throws insufficient_scope when the principal lacks the scope `operationId` needs (see operationScopes). */
export function assertOperationScope(scopes: ReadonlyMap<string, KeyScope | null>, operationId: string, principal: Scoped | null): void {
  if (!principal?.scopes) return;
  const scope = scopes.get(operationId);
  if (scope && !principal.scopes.includes(scope)) throw insufficientScope(scope);
}
