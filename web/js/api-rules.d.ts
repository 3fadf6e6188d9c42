// Types of api-rules.js for the tests that import it (the web app itself is plain JS).
export function resendable(path: string, init?: { method?: string; headers?: Record<string, string> }): boolean;
export function problemMessage(
  status: number,
  problem: { issues?: { path?: string; message?: string }[]; detail?: string; title?: string } | null | undefined,
): string;
export function dispositionName(disposition: string | null | undefined): string | null;
export function operationUrl(
  template: string,
  path?: Record<string, string | number>,
  query?: Record<string, string | number | undefined>,
): string;
