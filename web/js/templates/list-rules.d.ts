// Types of list-rules.js for the tests that import it (the web app itself is plain JS).

export const THUMB_BOX: { width: number; height: number };
export function nextLink(header: string | null | undefined, base?: string): string | null;
export function thumbSize(
  template: { width: number; height: number },
  dpr: number | undefined,
  box?: { width: number; height: number },
): { width: number; height: number; pixelRatio: number };
