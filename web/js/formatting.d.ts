// Types of formatting.js for the tests that import it (the web app itself is plain JS).
export function formatDate(iso: string | null | undefined): string;
export function formatBytes(n: number): string;
export function money(amount: number, currency: string, locale?: string): string;
export function priceText(quote: { credits: number; cached: boolean }): string;
