// Ajv as the contract uses it (draft 2020-12, formats, our `color` format) and its errors as
// problem issues. Shared by request validation, recipe validation and batch items.
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ProblemIssue } from '../errors/problem.ts';

export function createAjv(opts: Record<string, unknown> = {}): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, ...opts });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addFormat('color', /^#[0-9a-fA-F]{6}$/);
  return ajv;
}

const ROOTS: Record<string, string> = { requestBody: 'body', query: 'query', path: 'path', headers: 'header', cookies: 'cookie' };

/** Turns Ajv errors into problem issues that name each field (`body.size.width`, `query.w`). */
export function toIssues(errors: readonly ErrorObject[] | null | undefined, rootOverride?: string): ProblemIssue[] {
  const seen = new Set<string>();
  const issues: ProblemIssue[] = [];
  for (const e of errors ?? []) {
    const segments = e.instancePath
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (rootOverride !== undefined) segments.unshift(rootOverride);
    else if (segments.length > 0) segments[0] = ROOTS[segments[0]] ?? segments[0];
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required') {
      const missing = String((e.params as { missingProperty: string }).missingProperty);
      segments.push(ROOTS[missing] ?? missing);
      message = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      segments.push(String((e.params as { additionalProperty: string }).additionalProperty));
      message = 'is not a known field';
    } else if (e.keyword === 'enum') {
      message = `must be one of: ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
    }
    const path = segments.join('.') || 'body';
    const key = `${path}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ path, message, keyword: e.keyword });
  }
  return issues;
}
