// The Developer details (a disclosure under the playground's preview): the preview render's headers,
// the recipe URL of what Download gives, the copy buttons (recipe URL, curl, playground link,
// TypeScript) and "Save as preset". `shown(out)` fills it from a render, `refused()` empties what no
// longer matches the form.
import { call } from './api.js';
import { h, copyButton, toast } from './dom.js';
import { formatBytes } from './formatting.js';
import { playgroundHref, recipeBody } from './recipe.js';
import { curlSnippet, recipeUrl as recipeUrlOf, tsSnippet } from './snippets.js';
import { state } from './state.js';

/** @param {{ gen: object, recipe: () => object, read: () => object }} options `recipe()` is the recipe on screen, `read()` the form's. */
export function devDetails({ gen, recipe, read }) {
  const metaHash = h('code', { id: 'meta-hash' }, '—');
  const metaCache = h('span', { id: 'meta-cache', class: 'chip' }, '—');
  const metaRecipe = h('code', { id: 'meta-recipe', class: 'wrap' }, '—');
  const metaEngine = h('code', { id: 'meta-engine' }, '—');
  const metaUrl = h('code', { id: 'meta-url', class: 'wrap' }, '—');
  const metaSize = h('span', { id: 'meta-bytes', class: 'muted' });
  // The recipe URL of what Download gives (as "Copy curl" does): the preview's recipe with the
  // chosen format, size and pixel ratio as the URL's overrides (the hash stays the preview's).
  const recipeUrl = () => (state.last ? recipeUrlOf(location.origin, state.last, read()) : '');
  // Only the recipe on screen is offered: while the form holds one the API refused, there is none to copy.
  const copyRecipeUrl = copyButton(recipeUrl, 'Copy recipe URL', 'Recipe URL copied', { id: 'copy-recipe-url' });
  const el = h(
    'details',
    { class: 'dev-details', id: 'dev-details' },
    h('summary', {}, 'Developer details'),
    h(
      'p',
      { class: 'muted small' },
      'Response headers of the preview render (the pixels shown, maybe as webp). The recipe URL and the copy buttons give what Download gives.',
    ),
    h(
      'dl',
      { class: 'meta' },
      h('dt', {}, 'X-Service-Cache'),
      h('dd', {}, metaCache, ' ', metaSize),
      h('dt', {}, 'X-Service-Recipe-Hash'),
      h('dd', {}, metaHash),
      h('dt', {}, 'X-Service-Recipe'),
      h('dd', {}, metaRecipe),
      h('dt', {}, 'X-Service-Engine'),
      h('dd', {}, metaEngine),
      h('dt', {}, 'Recipe URL'),
      h('dd', {}, metaUrl),
    ),
    h(
      'div',
      { class: 'actions' },
      copyRecipeUrl,
      copyButton(() => curlSnippet(location.origin, recipe()), 'Copy curl', 'curl command copied', { id: 'copy-curl' }),
      copyButton(() => `${location.origin}/${playgroundHref(gen.slug, recipe())}`, 'Copy playground link', 'Playground link copied', {
        id: 'copy-playground-link',
      }),
      copyButton(() => tsSnippet(location.origin, recipe()), 'Copy TypeScript', 'TypeScript snippet copied'),
    ),
    presetForm(recipe),
  );
  return {
    el,
    /** A render's headers (the preview's): state.last is already this render. */
    shown(out) {
      metaHash.textContent = out.hash;
      metaCache.textContent = out.cache;
      metaCache.className = `chip ${out.cache === 'MISS' ? 'miss' : 'hit'}`;
      metaRecipe.textContent = out.recipe;
      metaEngine.textContent = out.engine ?? '—';
      metaUrl.textContent = recipeUrl();
      metaSize.textContent = `${formatBytes(out.blob.size)} · ${out.contentType}`;
      copyRecipeUrl.disabled = false;
    },
    /** The form holds a recipe the API refused: no recipe URL is offered. */
    refused() {
      copyRecipeUrl.disabled = true;
      metaUrl.textContent = '—';
    },
  };
}

/** "Save as preset", named inline (an empty name takes the placeholder: slug and date). */
function presetForm(current) {
  const name = h('input', { type: 'text', id: 'preset-name', maxlength: 100, 'aria-label': 'Preset name' });
  const form = h(
    'form',
    {
      class: 'actions',
      id: 'preset-form',
      onsubmit: async (e) => {
        e.preventDefault();
        const recipe = current();
        const named = name.value.trim() || `${recipe.slug} ${new Date().toISOString().slice(0, 10)}`;
        try {
          await call('createPreset', { body: { name: named, recipe: { slug: recipe.slug, ...recipeBody(recipe) } } });
          name.value = '';
          toast(`Saved preset "${named}"`);
        } catch (err) {
          toast(`Could not save the preset: ${err.message}`);
        }
      },
    },
    name,
    h('button', { type: 'submit', class: 'btn small', id: 'save-preset' }, 'Save as preset'),
  );
  name.placeholder = 'Preset name (default: generator and date)';
  return form;
}
