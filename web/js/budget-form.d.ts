// Types of budget-form.js for the tests that import it (the web app itself is plain JS).
export function parseThresholds(text: string | null | undefined): { ok: true; value: number[] } | { ok: false; error: string };
export function budgetBody(fields: {
  monthlyCredits: string | number | null | undefined;
  thresholds: string | null | undefined;
  webhookUrl: string | null | undefined;
}):
  | { ok: true; value: { monthlyCredits: number | null; alertThresholds?: number[]; webhookUrl?: string | null } }
  | { ok: false; field: 'monthlyCredits' | 'alertThresholds'; error: string };
export function spentPercent(spent: number, budget: number | null): number;
