// The template editor (#/templates/<tpl_id>[?v=<n>]): the draft drawn by the service
// (POST /v1/templates/preview: a quick picture, then the sharp one at the pixels shown), its layers on
// the canvas and in a list, the selected layer's properties, the variables with their sample values
// and the text fit, uploads by drop or file input, Save (a new version), the versions with
// thumbnails and a side-by-side comparison, and Use (the API call, the command line, Share…).
// docs/web-app.md, "The template editor", says what it does; the pure rules are geometry.js,
// layers.js, variables.js, sample-params.js and text-fit.js (unit-tested in Node).
import { call, generators } from '../api.js';
import { BlobSlot, clear, copyButton, debounce, h, toast } from '../dom.js';
import { issueLine } from '../field-text.js';
import { queryOf } from '../route.js';
import { openShare } from '../share-dialog.js';
import { fitSize } from '../sizing.js';
import { curlSnippet } from '../snippets.js';
import { createCanvas } from './canvas.js';
import { previewSize, quickSize } from './geometry.js';
import { addLayer, draftOf, newLayer, removeLayer, updateLayer, visibleDraft } from './layers.js';
import { colorInput, fieldRow, fitItems, layersPanel, propertiesPanel, variablesPanel } from './panels.js';
import { sampleParams } from './sample-params.js';
import { ACCEPT, listAssets, previewTemplate, uploadAsset } from './service.js';
import { fitText } from './text-fit.js';
import { issueTarget } from './variables.js';

/** CSS width of a version's thumbnail in the history. */
const THUMB_WIDTH = 160;
/** Thumbnails rendered at once (a few at a time, not the whole history). */
const THUMBS_AT_ONCE = 2;
const picture = new BlobSlot();
/** The editor on screen: its hooks for the page-wide listeners below (drop, leaving). */
let current = null;

const draftKey = (id) => `render-service.template-draft.${id}`;
const viewKey = (id) => `render-service.template-view.${id}`;
/** Storage that may be unavailable (a private window, a policy): then nothing is kept. */
const stored = (store, key, value) => {
  try {
    if (value === undefined) return JSON.parse(store.getItem(key) ?? 'null');
    if (value === null) store.removeItem(key);
    else store.setItem(key, JSON.stringify(value));
  } catch {
    /* not kept */
  }
  return null;
};

export async function showTemplateEditor(view, id, query, isCurrent = () => true) {
  const q = typeof query === 'string' ? new URLSearchParams(query) : (query ?? queryOf(location.hash));
  clear(view).append(h('h1', {}, 'Template'), h('p', { class: 'muted' }, 'Loading…'));
  const enc = encodeURIComponent(id);
  const [first, gens, assets] = await Promise.all([call('getTemplate', { path: { id } }), generators(), listAssets().catch(() => [])]);
  // Another page was asked for while this one loaded: it must not draw over it.
  if (!isCurrent()) return;
  let tpl = first;
  // The last saved version is what Save follows; a ?v=<n> opens an older one as the draft to save anew.
  let savedJson = JSON.stringify(draftOf(tpl));
  const wanted = Number(q.get('v'));
  let draft = draftOf(tpl);
  if (Number.isInteger(wanted) && wanted > 0 && wanted !== tpl.version) {
    draft = draftOf(await call('getTemplateVersion', { path: { id, version: wanted } }));
    if (!isCurrent()) return;
  } else {
    // Unsaved changes left in this tab (the page was left or reloaded) come back.
    const kept = stored(sessionStorage, draftKey(id));
    if (kept?.base === tpl.version && kept.draft?.layers) draft = kept.draft;
  }
  const viewState = stored(localStorage, viewKey(id)) ?? {};
  const ed = {
    draft,
    selected: null,
    assets: Array.isArray(assets) ? assets : [],
    generators: gens,
    fits: new Map(),
    hidden: new Set(viewState.hidden ?? []),
    locked: new Set(viewState.locked ?? []),
    commit,
    select,
    remove,
    toggleView,
    say,
  };
  const undo = [];
  let lastEdit = { key: null, at: 0 };
  /** The issues of the last refusal (preview or save), shown again after a panel is rebuilt. */
  let issues = { list: [], layerIds: [] };

  const canvas = createCanvas({
    onSelect: (lid) => select(lid),
    onBox: (lid, box) => commit(updateLayer(ed.draft, lid, 'box', box)),
    onRemove: (lid) => remove(lid),
  });
  const dirtyNote = h('span', { class: 'tpl-dirty', id: 'tpl-dirty', role: 'status' });
  const saveBtn = h('button', { type: 'button', class: 'btn primary', id: 'tpl-save', onclick: () => save() }, 'Save');
  const undoBtn = h('button', { type: 'button', class: 'btn small', id: 'tpl-undo', title: 'Ctrl+Z', onclick: () => undoLast() }, 'Undo');
  const status = h('p', { class: 'preview-status muted small', id: 'tpl-status', role: 'status' }, 'Rendering…');
  const general = h('div', { class: 'field-error general', id: 'tpl-error', role: 'alert' });
  const uploadStatus = h('p', { class: 'small', id: 'tpl-upload-status', role: 'status' });
  const fileInput = h('input', {
    type: 'file',
    id: 'tpl-upload',
    accept: ACCEPT,
    onchange: () => {
      const file = fileInput.files?.[0];
      fileInput.value = '';
      if (file) upload(file);
    },
  });
  const canvasWrap = h('div', { class: 'tpl-canvas-wrap' }, canvas.stage);
  const layersSlot = h('div', { class: 'tpl-slot' });
  const propsSlot = h('div', { class: 'tpl-slot' });
  const varsSlot = h('div', { class: 'tpl-slot' });
  const useSlot = h('div', { class: 'tpl-slot' });
  const historyList = h('ol', { class: 'tpl-history', id: 'tpl-history' });
  const compareBtn = h(
    'button',
    { type: 'button', class: 'btn small', id: 'tpl-compare', disabled: true, onclick: () => compare() },
    'Compare the two chosen',
  );
  const compareView = h('div', { class: 'tpl-compare', id: 'tpl-compare-view', 'aria-live': 'polite' });

  const settings = h(
    'form',
    { class: 'panel toolbar tpl-settings', id: 'tpl-settings', onsubmit: (e) => e.preventDefault() },
    fieldRow(
      'tpl-name',
      'Name',
      h('input', {
        type: 'text',
        id: 'tpl-name',
        maxlength: 200,
        value: ed.draft.name,
        oninput: (e) => e.target.value && commit({ ...ed.draft, name: e.target.value }, { from: 'settings', coalesce: 'name' }),
      }),
      'tpl:name',
    ),
    fieldRow(
      'tpl-background',
      'Background',
      colorInput('tpl-background', 'Background', ed.draft.background, (v) =>
        commit({ ...ed.draft, background: v }, { from: 'settings', coalesce: 'background' }),
      ),
      'tpl:background',
    ),
    ['width', 'height'].map((side) =>
      fieldRow(
        `tpl-size-${side}`,
        side === 'width' ? 'Width' : 'Height',
        h('input', {
          type: 'number',
          id: `tpl-size-${side}`,
          class: 'num',
          min: 1,
          max: 4096,
          step: 1,
          value: ed.draft.size[side],
          onchange: (e) =>
            e.target.validity.valid &&
            e.target.value &&
            commit({ ...ed.draft, size: { ...ed.draft.size, [side]: Number(e.target.value) } }, { from: 'settings' }),
        }),
        `tpl:size.${side}`,
      ),
    ),
  );
  const root = h(
    'div',
    { class: 'tpl-editor', id: 'tpl-editor' },
    h(
      'div',
      { class: 'section-head tpl-head' },
      h('h1', {}, 'Template editor'),
      h('span', { class: 'muted small' }, id),
      h('div', { class: 'actions' }, saveBtn, dirtyNote, undoBtn, h('a', { href: '#/templates', class: 'btn small' }, 'All templates')),
    ),
    settings,
    h(
      'div',
      { class: 'tpl-main' },
      layersSlot,
      h(
        'section',
        { class: 'panel tpl-canvas-panel', 'aria-label': 'Canvas' },
        canvasWrap,
        status,
        general,
        h(
          'div',
          { class: 'actions tpl-upload' },
          h('label', { for: 'tpl-upload', class: 'small' }, 'Upload an image or font… (or drop the file anywhere on the page)'),
          fileInput,
        ),
        uploadStatus,
      ),
      propsSlot,
    ),
    varsSlot,
    useSlot,
    h(
      'section',
      { class: 'panel', 'aria-labelledby': 'tpl-history-title' },
      h('div', { class: 'section-head' }, h('h2', { id: 'tpl-history-title' }, 'Versions'), compareBtn),
      h(
        'p',
        { class: 'small muted' },
        'Each Save makes a version; earlier versions never change. Choose two to compare them with the same sample values.',
      ),
      historyList,
      compareView,
    ),
  );
  clear(view).append(root);

  // ---- State changes ----

  /** Runs `fn` and puts the focus back on the element of the same id (a panel rebuilt under it). */
  function keepFocus(fn) {
    const active = document.activeElement;
    const fid = active?.id;
    fn();
    if (fid && document.activeElement !== active) document.getElementById(fid)?.focus({ preventScroll: true });
  }

  function commit(next, opts = {}) {
    if (next === ed.draft) return;
    // Typing into one field makes one undo step, not one per key.
    const now = Date.now();
    if (!(opts.coalesce && opts.coalesce === lastEdit.key && now - lastEdit.at < 1500)) undo.push(ed.draft);
    if (undo.length > 100) undo.shift();
    lastEdit = { key: opts.coalesce ?? null, at: now };
    ed.draft = next;
    if (opts.select !== undefined) ed.selected = opts.select;
    changed(opts);
  }

  function changed(opts = {}) {
    if (ed.selected && !ed.draft.layers.some((l) => l.id === ed.selected)) ed.selected = null;
    const dirty = isDirty();
    stored(sessionStorage, draftKey(id), dirty ? { base: tpl.version, draft: ed.draft } : null);
    showDirty();
    renderParts(opts.from);
    scheduleRefresh();
    if (opts.focus) document.getElementById(opts.focus)?.focus();
  }

  const isDirty = () => JSON.stringify(ed.draft) !== savedJson;
  function showDirty() {
    const dirty = isDirty();
    saveBtn.disabled = !dirty;
    undoBtn.disabled = !undo.length;
    dirtyNote.textContent = dirty ? 'Unsaved changes' : `Saved · version ${tpl.version}`;
    dirtyNote.classList.toggle('unsaved', dirty);
  }

  function renderParts(from) {
    if (from !== 'settings') syncSettings();
    keepFocus(() => {
      layersSlot.replaceChildren(layersPanel(ed));
      if (from !== 'props') propsSlot.replaceChildren(propertiesPanel(ed));
      if (from !== 'vars') varsSlot.replaceChildren(variablesPanel(ed));
      useSlot.replaceChildren(usePanel());
      layoutCanvas();
    });
    applyIssues();
  }

  /** The template's own fields (name, background, size) as the draft holds them (after an undo, a save), unless being typed in. */
  function syncSettings() {
    const values = {
      'tpl-name': ed.draft.name,
      'tpl-background': ed.draft.background ?? '',
      'tpl-size-width': ed.draft.size.width,
      'tpl-size-height': ed.draft.size.height,
    };
    for (const [fid, value] of Object.entries(values)) {
      const input = document.getElementById(fid);
      if (input && input !== document.activeElement) input.value = String(value);
    }
  }

  function select(lid) {
    if (lid === ed.selected) return;
    ed.selected = lid;
    canvas.select(lid);
    keepFocus(() => {
      layersSlot.replaceChildren(layersPanel(ed));
      propsSlot.replaceChildren(propertiesPanel(ed));
    });
    applyIssues();
  }

  function remove(lid) {
    const hadFocus = root.contains(document.activeElement);
    commit(removeLayer(ed.draft, lid));
    // The focus was on what is gone: it moves to another box (or the list), not to the page's start.
    if (hadFocus && !root.contains(document.activeElement))
      (root.querySelector('.tpl-box') ?? root.querySelector('.tpl-layer-name'))?.focus();
    say(`Deleted the layer ${lid}. Undo (Ctrl+Z) brings it back.`);
  }

  function undoLast() {
    if (!undo.length) return;
    ed.draft = undo.pop();
    lastEdit = { key: null, at: 0 };
    changed();
  }

  function toggleView(kind, lid) {
    const set = ed[kind];
    if (set.has(lid)) set.delete(lid);
    else set.add(lid);
    stored(localStorage, viewKey(id), { hidden: [...ed.hidden], locked: [...ed.locked] });
    if (kind === 'locked' && ed.selected === lid) ed.selected = null;
    renderParts();
    if (kind === 'hidden') scheduleRefresh();
  }

  function say(text) {
    toast(text);
    uploadStatus.textContent = text;
    uploadStatus.classList.remove('error');
  }

  // ---- Canvas and preview ----

  /** The CSS size the template is shown at: the panel's width and the window's height, never enlarged. */
  const shownSize = () => fitSize(ed.draft.size, { width: canvasWrap.clientWidth || 640, height: Math.max(240, window.innerHeight - 220) });

  function layoutCanvas() {
    const shown = shownSize();
    canvas.layout(
      { template: ed.draft, scale: shown.width / ed.draft.size.width, selected: ed.selected, hidden: ed.hidden, locked: ed.locked },
      shown,
    );
  }

  let controller;
  let seq = 0;
  let shownKey = '';
  const scheduleRefresh = debounce(() => refresh(), 120);
  async function refresh() {
    if (!root.isConnected) return;
    const mine = ++seq;
    controller?.abort();
    controller = new AbortController();
    const template = visibleDraft(ed.draft, ed.hidden);
    const layerIds = template.layers.map((l) => l.id);
    const body = { template, params: sampleParams(ed.draft) };
    const sharp = previewSize(ed.draft.size, shownSize().width, devicePixelRatio);
    shownKey = JSON.stringify(sharp);
    canvas.stage.classList.add('loading');
    status.textContent = 'Rendering…';
    let sharpShown = false;
    const quick = quickSize(sharp, ed.draft.size);
    // A quick, soft picture first; shown only while the sharp one is on its way.
    if (quick)
      previewTemplate({ ...body, size: quick, format: 'jpeg', quality: 70 }, { signal: controller.signal }).then(
        (out) => mine === seq && !sharpShown && showPicture(out),
        () => {}, // the sharp request reports any error
      );
    try {
      const out = await previewTemplate({ ...body, size: sharp, format: 'webp' }, { signal: controller.signal });
      sharpShown = true;
      if (mine !== seq) return;
      issues = { list: [], layerIds };
      await showPicture(out);
      canvas.stage.classList.remove('stale');
      canvas.stage.dataset.rendered = String(mine);
      status.textContent = `Drawn by the service at ${sharp.width}×${sharp.height} @${sharp.pixelRatio}x (the pixels shown; the template is ${ed.draft.size.width}×${ed.draft.size.height}), with the sample values.`;
    } catch (err) {
      if (err.name === 'AbortError' || mine !== seq) return;
      issues = { list: err.issues ?? [], layerIds, err };
      ed.fits = new Map();
      canvas.stage.classList.add('stale');
      status.textContent = `Not drawn: ${err.message}. The dimmed picture is the last one drawn.`;
      renderFits();
    } finally {
      if (mine === seq) canvas.stage.classList.remove('loading');
    }
    applyIssues();
  }

  async function showPicture(out) {
    canvas.picture.src = picture.set(out.blob);
    canvas.picture.alt = `${ed.draft.name}, drawn with the sample values`;
    ed.fits = new Map(out.textFit.map((f) => [f.id, f]));
    renderFits();
    await canvas.picture.decode().catch(() => {});
  }

  /** The fit readouts (layers list, properties, variables panel) after a preview, without rebuilding what is being typed in. */
  function renderFits() {
    for (const span of root.querySelectorAll('.tpl-fit[data-layer]')) {
      const layer = ed.draft.layers.find((l) => l.id === span.dataset.layer);
      span.textContent = fitText(ed.fits.get(span.dataset.layer), layer);
    }
    document.getElementById('tpl-fits')?.replaceChildren(...fitItems(ed));
    const propFit = document.getElementById('prop-fit');
    const layer = ed.draft.layers.find((l) => l.id === ed.selected);
    if (propFit && layer) propFit.textContent = ed.fits.has(layer.id) ? `Fit: ${fitText(ed.fits.get(layer.id), layer)}` : '';
    applyIssues();
  }

  /** Puts each issue of the last refusal beside what it names: a layer's field, a variable, a template field; the rest on top. */
  function applyIssues() {
    for (const el of root.querySelectorAll('.field-error')) el.textContent = '';
    for (const el of root.querySelectorAll('.invalid')) el.classList.remove('invalid');
    const rest = [];
    const put = (selector, text) => {
      const slot = root.querySelector(selector);
      if (!slot) return false;
      slot.textContent = slot.textContent ? `${slot.textContent}; ${text}` : text;
      slot.closest('.field, li')?.classList.add('invalid');
      return true;
    };
    for (const issue of issues.list) {
      const target = issueTarget(issue.path);
      const { text } = issueLine(issue);
      if ('layer' in target) {
        const lid = issues.layerIds[target.layer];
        if (lid === undefined) rest.push(text);
        else {
          put(`[data-error-for="${CSS.escape(`layer:${lid}`)}"]`, target.field ? `${target.field}: ${issue.message}` : text);
          // The selected layer's own field too, or the nearest field its path names.
          if (lid === ed.selected) {
            const parts = target.field.split('.');
            for (let n = parts.length; n > 0; n--)
              if (put(`#tpl-props [data-error-for="${CSS.escape(parts.slice(0, n).join('.'))}"]`, text)) break;
          }
        }
      } else if ('variable' in target) {
        if (!put(`[data-error-for="${CSS.escape(`var:${target.variable}`)}"]`, text)) rest.push(text);
      } else if (!put(`[data-error-for="${CSS.escape(`tpl:${target.field}`)}"]`, text)) rest.push(text);
    }
    if (issues.err && (!issues.list.length || rest.length))
      rest.unshift(`${issues.err.status ?? ''} ${issues.err.code ?? ''}: ${issues.err.problem?.title ?? issues.err.message}`);
    general.textContent = rest.join('\n');
  }

  // ---- Uploads ----

  async function upload(file) {
    uploadStatus.classList.remove('error');
    uploadStatus.textContent = `Uploading ${file.name}…`;
    let asset;
    try {
      asset = await uploadAsset(file);
    } catch (err) {
      uploadStatus.textContent = `${file.name} was not uploaded: ${err.message}`;
      uploadStatus.classList.add('error');
      return;
    }
    ed.assets = [asset, ...ed.assets.filter((a) => a.id !== asset.id)];
    const sel = ed.draft.layers.find((l) => l.id === ed.selected);
    if (asset.kind === 'image') {
      if (sel?.kind === 'image') {
        commit(updateLayer(ed.draft, sel.id, 'asset', asset.id));
        say(`Uploaded ${file.name}: ${sel.id} draws it.`);
      } else {
        const layer = newLayer('image', ed.draft.size, ed.draft.layers, { asset: asset.id, id: 'image' });
        // The image's own shape, within the new layer's square.
        const side = layer.box.width;
        const aspect = (asset.width || 1) / (asset.height || 1);
        const width = Math.round(side * Math.min(1, aspect));
        const height = Math.round(side * Math.min(1, 1 / aspect));
        layer.box = { x: Math.round((ed.draft.size.width - width) / 2), y: Math.round((ed.draft.size.height - height) / 2), width, height };
        commit(addLayer(ed.draft, layer), { select: layer.id });
        say(`Uploaded ${file.name}: a new image layer, ${layer.id}.`);
      }
    } else if (sel?.kind === 'text') {
      commit(updateLayer(ed.draft, sel.id, 'font.asset', asset.id));
      say(`Uploaded ${file.name} (${asset.family ?? 'font'}): ${sel.id} is set in it.`);
    } else {
      renderParts();
      say(`Uploaded ${file.name} (${asset.family ?? 'font'}): select a text layer and choose it under "Uploaded font".`);
    }
  }

  // ---- Save, versions, compare ----

  async function save() {
    saveBtn.disabled = true;
    dirtyNote.textContent = 'Saving…';
    const sent = ed.draft;
    try {
      tpl = await call('updateTemplate', { path: { id }, body: sent });
      // The saved version as the service stores it (a generator layer pins its version): the draft from now on.
      ed.draft = draftOf(tpl);
      savedJson = JSON.stringify(ed.draft);
      issues = { list: [], layerIds: [] };
      if (q.get('v')) history.replaceState(null, '', `#/templates/${enc}`);
      q.delete('v');
      changed();
      renderHistory();
      toast(`Saved as version ${tpl.version}`);
    } catch (err) {
      issues = { list: err.issues ?? [], layerIds: sent.layers.map((l) => l.id), err };
      applyIssues();
      showDirty();
      dirtyNote.textContent = `Not saved: ${err.message}`;
    }
  }

  const versionSpecs = new Map();
  const versionSpec = (n) => {
    if (!versionSpecs.has(n))
      versionSpecs.set(
        n,
        call('getTemplateVersion', { path: { id, version: n } }).catch((err) => (versionSpecs.delete(n), Promise.reject(err))),
      );
    return versionSpecs.get(n);
  };
  const thumbUrls = [];
  let historySeq = 0;
  function renderHistory() {
    const mine = ++historySeq;
    for (const u of thumbUrls.splice(0)) URL.revokeObjectURL(u);
    const chosen = () => [...historyList.querySelectorAll('input[type=checkbox]:checked')].map((c) => Number(c.value));
    const versions = [...(tpl.versions ?? [])].reverse();
    const items = versions.map((v) => {
      const img = h('img', {
        alt: `Version ${v.version}`,
        width: THUMB_WIDTH,
        height: Math.round((THUMB_WIDTH * tpl.size.height) / tpl.size.width),
      });
      return h(
        'li',
        { class: 'tpl-version', dataset: { version: v.version } },
        h('div', { class: 'tpl-thumb loading' }, img),
        h(
          'span',
          { class: 'small' },
          `Version ${v.version}`,
          v.version === tpl.version ? ' (latest)' : '',
          h('br'),
          new Date(v.createdAt).toLocaleString(),
        ),
        h(
          'label',
          { class: 'small' },
          h('input', {
            type: 'checkbox',
            value: v.version,
            id: `tpl-pick-${v.version}`,
            onchange: () => (compareBtn.disabled = chosen().length !== 2),
          }),
          ' Compare',
        ),
        h(
          'a',
          { href: `#/templates/${enc}?v=${v.version}`, class: 'small', 'aria-label': `Open version ${v.version} in the editor` },
          'Open',
        ),
      );
    });
    historyList.replaceChildren(...items);
    compareBtn.disabled = true;
    compareBtn.chosen = chosen;
    // A few thumbnails at a time, newest first.
    let next = 0;
    const worker = async () => {
      while (next < versions.length && mine === historySeq && root.isConnected) {
        const i = next++;
        const n = versions[i].version;
        const box = items[i].querySelector('.tpl-thumb');
        try {
          const spec = await versionSpec(n);
          const out = await previewTemplate({
            template: draftOf(spec),
            params: sampleParams(spec),
            size: previewSize(spec.size, THUMB_WIDTH, devicePixelRatio),
            format: 'webp',
          });
          if (mine !== historySeq) return;
          const url = URL.createObjectURL(out.blob);
          thumbUrls.push(url);
          box.firstChild.src = url;
        } catch (err) {
          box.append(h('span', { class: 'error small' }, err.message));
        } finally {
          box.classList.remove('loading');
        }
      }
    };
    for (let i = 0; i < THUMBS_AT_ONCE; i++) void worker();
  }

  const compareUrls = [];
  async function compare() {
    const picked = compareBtn.chosen().sort((a, b) => a - b);
    if (picked.length !== 2) return;
    for (const u of compareUrls.splice(0)) URL.revokeObjectURL(u);
    const width = Math.max(160, Math.floor((compareView.clientWidth || 640) / 2) - 16);
    // The same sample values on both sides: the draft's, where the version declares the variable; else its own.
    const samples = sampleParams(ed.draft);
    const figures = picked.map((n) =>
      h(
        'figure',
        { class: 'tpl-compare-side loading', dataset: { version: n } },
        h('img', {
          alt: `Version ${n}, with the same sample values`,
          width,
          height: Math.round((width * tpl.size.height) / tpl.size.width),
        }),
        h('figcaption', { class: 'small' }, `Version ${n}`),
      ),
    );
    compareView.replaceChildren(
      h('h3', {}, `Version ${picked[0]} and version ${picked[1]}, side by side`),
      h('div', { class: 'tpl-compare-row' }, figures),
    );
    await Promise.all(
      picked.map(async (n, i) => {
        try {
          const spec = await versionSpec(n);
          const own = Object.keys(spec.variables?.properties ?? {});
          const params = { ...sampleParams(spec), ...Object.fromEntries(own.filter((k) => k in samples).map((k) => [k, samples[k]])) };
          const out = await previewTemplate({
            template: draftOf(spec),
            params,
            size: previewSize(spec.size, width, devicePixelRatio),
            format: 'webp',
          });
          const url = URL.createObjectURL(out.blob);
          compareUrls.push(url);
          figures[i].querySelector('img').src = url;
        } catch (err) {
          figures[i].append(h('p', { class: 'error small' }, err.message));
        } finally {
          figures[i].classList.remove('loading');
        }
      }),
    );
  }

  // ---- Use ----

  /** The saved version's API call, command line and Share…, with the sample values its variables take. */
  function usePanel() {
    const saved = JSON.parse(savedJson);
    const own = Object.keys(saved.variables?.properties ?? {});
    const samples = sampleParams(ed.draft);
    const params = Object.fromEntries(own.filter((k) => k in samples).map((k) => [k, samples[k]]));
    const slug = `${tpl.id}@${tpl.version}`;
    const recipe = { slug, params, size: { ...tpl.size, pixelRatio: 1 }, format: 'png' };
    const curl = curlSnippet(location.origin, recipe);
    const file = `${tpl.id}-v${tpl.version}.json`;
    const cli = [
      `curl -s -H "Authorization: Bearer $KEY" ${location.origin}/v1/templates/${tpl.id}/versions/${tpl.version} > ${file}`,
      `npx render-service render --template ${file} --assets ./brand \\`,
      `  --params '${JSON.stringify(params).replace(/'/g, "'\\''")}' -o card.png`,
    ].join('\n');
    const body = JSON.stringify({ params, size: tpl.size, format: 'png' }, null, 2);
    return h(
      'section',
      { class: 'panel tpl-use', id: 'tpl-use', 'aria-labelledby': 'tpl-use-title' },
      h('h2', { id: 'tpl-use-title' }, `Use version ${tpl.version}`),
      isDirty()
        ? h('p', { class: 'small unsaved-note' }, 'These render the saved version: unsaved changes are not in it (Save first).')
        : null,
      h(
        'p',
        { class: 'small muted' },
        'With the sample values. An image variable takes an asset id (ast_…); with the command line, the same files in --assets give the same ids.',
      ),
      h('h3', {}, 'API call'),
      h('pre', { class: 'code', id: 'tpl-use-curl', tabindex: 0 }, curl),
      h('div', { class: 'actions' }, copyButton(curl, 'Copy curl', 'curl command copied', { id: 'tpl-copy-curl' })),
      h('h3', {}, 'Recipe'),
      h('pre', { class: 'code', id: 'tpl-use-recipe', tabindex: 0 }, `POST /v1/generate/${slug}\n${body}`),
      h('h3', {}, 'Command line'),
      h('pre', { class: 'code', id: 'tpl-use-cli', tabindex: 0 }, cli),
      h(
        'div',
        { class: 'actions' },
        copyButton(cli, 'Copy command', 'Command copied', { id: 'tpl-copy-cli' }),
        h(
          'button',
          {
            type: 'button',
            class: 'btn',
            id: 'tpl-share',
            onclick: () => openShare({ slug, name: tpl.name, formats: ['png', 'webp', 'jpeg'] }, recipe, null),
          },
          'Share…',
        ),
      ),
    );
  }

  // ---- Wiring ----

  root.addEventListener('keydown', (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
    const typing = e.target.matches?.('input[type=text], input[type=number], textarea');
    if (e.key === 's') {
      e.preventDefault();
      if (isDirty()) save();
    } else if (e.key === 'z' && !typing) {
      e.preventDefault();
      undoLast();
    }
  });
  current = {
    root,
    dirty: isDirty,
    upload,
    href: `#/templates/${enc}`,
    resized: () => {
      layoutCanvas();
      if (JSON.stringify(previewSize(ed.draft.size, shownSize().width, devicePixelRatio)) !== shownKey) refresh();
    },
  };
  showDirty();
  renderParts();
  renderHistory();
  await refresh();
}

const live = () => current?.root.isConnected && current;

// A file dropped anywhere on the editor uploads it (elsewhere the browser's default stays).
document.addEventListener('dragover', (e) => live() && e.dataTransfer?.types?.includes('Files') && e.preventDefault());
document.addEventListener('drop', (e) => {
  const file = e.dataTransfer?.files?.[0];
  if (!file || !live()) return;
  e.preventDefault();
  current.upload(file);
});
// Leaving with unsaved changes asks first: a link (the draft stays in this tab for when you come back), a reload or closing the tab.
document.addEventListener(
  'click',
  (e) => {
    const a = e.target.closest?.('a[href^="#"]');
    if (!a || !live() || !current.dirty() || a.getAttribute('href').startsWith(current.href)) return;
    if (!confirm('Leave the template editor? Your unsaved changes are kept in this tab until you come back or close it.'))
      e.preventDefault();
  },
  true,
);
window.addEventListener('beforeunload', (e) => {
  if (!live() || !current.dirty()) return;
  e.preventDefault();
  e.returnValue = '';
});
window.addEventListener(
  'resize',
  debounce(() => live()?.resized(), 250),
);
