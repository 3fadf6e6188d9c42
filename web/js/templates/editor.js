// TEMP stand-in so the TEMP route builds before the editor lands (the editor helper owns this file).
import { h, clear } from '../dom.js';

export function showTemplateEditor(view, id) {
  clear(view).append(h('h1', {}, `Template ${decodeURIComponent(id)}`));
}
