import type { OutputFormat } from '../generators/generator.types.ts';

export const CONTENT_TYPES: Record<OutputFormat, string> = {
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  mp4: 'video/mp4',
  svg: 'image/svg+xml',
  css: 'text/css',
};

export const EXTENSIONS: Record<OutputFormat, string> = { png: 'png', webp: 'webp', gif: 'gif', mp4: 'mp4', svg: 'svg', css: 'css' };

/** Formats whose frames come from the animation (the others render a single frame, the poster). */
export function isMotionFormat(format: OutputFormat): format is 'gif' | 'mp4' {
  return format === 'gif' || format === 'mp4';
}
