// The template editor's calls the API client (web/js/api.js) has no helper for: a draft's preview
// (an image with its text fit), an upload (the file's own bytes and type, not JSON) and the
// workspace's assets.
import { call } from '../api.js';
import { parseTextFit } from './text-fit.js';

/**
 * POST /v1/templates/preview of `body` ({ template, params, size, format, quality }): the picture
 * and the X-Service-Text-Fit items. Free; a refusal throws ApiError with its issues.
 */
export async function previewTemplate(body, { signal } = {}) {
  const res = await call('previewTemplate', { body, signal, headers: { Accept: 'image/*, application/problem+json' }, raw: true });
  const blob = await res.blob();
  return { blob, contentType: res.headers.get('content-type') || blob.type, textFit: parseTextFit(res.headers.get('x-service-text-fit')) };
}

/** The content types POST /v1/assets takes, by file extension (a font file's `type` is often empty). */
const TYPES = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  ttf: 'font/ttf',
  otf: 'font/otf',
  woff2: 'font/woff2',
};

/** A file's content type as the upload sends it: the browser's, else its extension's. */
export function contentTypeOf(file) {
  if (Object.values(TYPES).includes(file.type)) return file.type;
  return TYPES[String(file.name).split('.').pop().toLowerCase()] ?? file.type ?? 'application/octet-stream';
}

/** What the file input offers: the extensions and types the service takes. */
export const ACCEPT = [...Object.keys(TYPES).map((e) => `.${e}`), ...new Set(Object.values(TYPES))].join(',');

/** POST /v1/assets with the file as the body: the Asset (with its id). A refusal throws ApiError (its problem's detail). */
export const uploadAsset = (file) => call('createAsset', { body: file, headers: { 'Content-Type': contentTypeOf(file) } });

/** The workspace's assets, newest first (the first 100). */
export const listAssets = () => call('listAssets', { query: { limit: 100 } });
