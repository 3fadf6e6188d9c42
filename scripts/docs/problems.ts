// The problem-code table of docs/errors.md, written by `npm run docs`: every code of the error
// registry (src/errors/error-registry.ts) with its status and title, and what it means from the
// ProblemCode table of openapi.yaml (the table the API reference shows).
import { PROBLEMS } from '../../src/errors/error-registry.ts';
import { openApiDocument } from '../../src/lib/openapi-document.ts';

/** code → meaning, from the markdown table in the ProblemCode schema's description. */
function meanings(): Map<string, string> {
  const doc = openApiDocument() as unknown as { components: { schemas: Record<string, { description?: string }> } };
  const description = doc.components.schemas.ProblemCode?.description ?? '';
  const out = new Map<string, string>();
  for (const m of description.matchAll(/^\| `([a-z_]+)` \| \d+ \| (.*) \|$/gm)) out.set(m[1]!, m[2]!);
  return out;
}

export function problemsMarkdown(): string {
  const meaning = meanings();
  const rows = Object.entries(PROBLEMS)
    .sort(([, x], [, y]) => x.status - y.status) // stable: the registry's order within a status
    .map(([code, p]) => `| \`${code}\` | ${p.status} | ${p.title} | ${meaning.get(code) ?? ''} |`);
  return ['| Code | Status | Title | When |', '|---|---|---|---|', ...rows].join('\n');
}
