// Types of key-scope-rules.js for the tests that import it (the web app itself is plain JS).
export const SCOPES: ReadonlyArray<readonly [name: string, label: string]>;
export function keyRequestBody(state: {
  label: string;
  fullAccess: boolean;
  scopes: readonly string[];
  limit: string;
}): { body: { label: string; scopes?: string[]; monthlyCreditLimit?: number }; error?: undefined } | { error: string; body?: undefined };
export function scopesText(scopes: readonly string[] | null | undefined): string;
export function spendingText(key: { monthlyCreditLimit: number | null; creditsSpentThisMonth: number }, locale?: string): string;
