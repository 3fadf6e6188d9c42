// Types of variables.js for the tests that import it (the web app itself is plain JS).
import type { TemplateDraft } from './layers.js';

export const VARIABLE_NAME: RegExp;
export function variablesOf(t: TemplateDraft): [string, Record<string, unknown>][];
export function wholeVariable(value: unknown): string | null;
export function imageVariables(t: TemplateDraft): Set<string>;
export function unusedName(t: TemplateDraft, base?: string): string;
export function setVariable<T extends TemplateDraft>(t: T, name: string, schema: Record<string, unknown>): T;
export function removeVariable<T extends TemplateDraft>(t: T, name: string): T;
export function renameVariable<T extends TemplateDraft>(t: T, from: string, to: string): T;
export function issueTarget(path: string | undefined): { layer: number; field: string } | { variable: string } | { field: string };
