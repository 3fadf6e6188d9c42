// Types of field-text.js for the tests that import it (the web app itself is plain JS).

/** Characters as JSON Schema's maxLength counts them: code points. */
export function codePoints(text: string | null | undefined): number;

/** A text field's counter against its maxLength ("12 / 80") and its state. */
export function charCount(text: string, max: number): { text: string; state: '' | 'near' | 'over' };

/** Help text as [text, code, text, …]: each Markdown `code` span at an odd index, no backtick left. */
export function codeSpans(text: string): string[];

/** Ajv's wording in plain words. */
export function plainMessage(message: string | undefined): string;

/** The form field an API issue belongs to (or null) and its line in plain words, named by the field's title. */
export function issueLine(
  issue: { path?: string; message?: string } | undefined,
  titles?: Record<string, string>,
): { field: string | null; text: string };
