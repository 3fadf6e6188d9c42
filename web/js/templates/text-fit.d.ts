// Types of text-fit.js for the tests that import it (the web app itself is plain JS).

export interface TextFit {
  id: string;
  size: number | null;
  lines: number | null;
  overflow: boolean;
}
export function parseList(header: string | null | undefined): { value: unknown; params: Record<string, unknown> }[];
export function parseTextFit(header: string | null | undefined): TextFit[];
export function fitText(fit: TextFit | undefined, layer?: { fit?: { max?: number } }): string;
