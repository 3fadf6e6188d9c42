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

/**
 * The names of a `not: { required: [...] }` schema (two or more fields that exclude each other; its
 * `properties` may name them with empty schemas, for linters), else undefined.
 */
function excludedTogether(schema: unknown): string[] | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const { required, properties = {}, ...rest } = schema as { required?: unknown; properties?: Record<string, unknown> };
  const onlyNamed = Object.values(properties).every((p) => typeof p === 'object' && p !== null && Object.keys(p).length === 0);
  return Array.isArray(required) && required.length >= 2 && Object.keys(rest).length === 0 && onlyNamed ? required.map(String) : undefined;
}

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
    } else if (e.keyword === 'not' && excludedTogether(e.schema)) {
      // `not: { required: [a, b] }`, the contract's way of saying fields exclude each other: the
      // issue names the last of them (its schema is on the error when Ajv is `verbose`).
      const names = excludedTogether(e.schema)!;
      segments.push(names.at(-1)!);
      message = `must not be sent with ${names.slice(0, -1).join(', ')}`;
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
