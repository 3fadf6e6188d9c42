// The rules of a template draft's preview (POST /v1/templates/preview): how large it may be, and how
// its text fits are said.
import type { TextFit } from './compose-template.ts';

/** 1920×1080: an editor's sharp picture at its shown size on a 2x screen fits; a draft is no free full-size render. */
export const MAX_PREVIEW_PIXELS = 2_073_600;

/** X-Service-Text-Fit, an RFC 8941 list: `"title";size=84;lines=2;overflow`, one string per text layer. */
export function textFitHeader(fits: readonly TextFit[]): string {
  return fits
    .map((f) => `"${f.id.replace(/["\\]/g, (c) => `\\${c}`)}";size=${f.size};lines=${f.lines}${f.overflow ? ';overflow' : ''}`)
    .join(', ');
}
