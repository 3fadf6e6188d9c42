import { json, download, generators } from './api.js';
import { h, clear, formatDate, toast } from './dom.js';
import { state, recipeBody } from './state.js';

const ENDED = new Set(['completed', 'failed', 'cancelled']);
let source; // the open EventSource, closed when leaving the page or when its job ends

export function leaveExport() {
  source?.close();
  source = undefined;
}

export async function showExport(view) {
  leaveExport();
  clear(view);
  const recipe = state.recipe;
  const list = await generators();
  const gen = recipe && list.find((g) => g.slug === recipe.slug);

  const formatSel = gen
    ? h(
        'select',
        { id: 'export-format' },
        gen.formats.map((f) => h('option', { value: f, selected: f === recipe.format }, f)),
      )
    : null;
  const exportBtn = h('button', { type: 'button', class: 'btn primary', id: 'export-start', disabled: !gen }, 'Export');
  const cancelBtn = h('button', { type: 'button', class: 'btn', id: 'export-cancel', disabled: true }, 'Cancel');
  const bar = h('progress', { id: 'export-progress', max: 100, value: 0 });
  const pct = h('span', { id: 'export-percent' }, '0%');
  const jobStatus = h('span', { id: 'export-status', class: 'chip' }, 'idle');
  const result = h('div', { id: 'export-result' });
  const error = h('p', { class: 'field-error general', id: 'export-error', role: 'alert' });
  const history = h('tbody', { id: 'history' });

  view.append(
    h('h1', {}, 'Export'),
    h(
      'section',
      { class: 'panel' },
      gen
        ? h(
            'div',
            {},
            h(
              'p',
              {},
              'Current recipe: ',
              h('strong', {}, gen.name),
              ` · ${recipe.size.width}×${recipe.size.height} @${recipe.size.pixelRatio ?? 1}x · seed ${recipe.seed} `,
              h('a', { href: `#/playground/${gen.slug}` }, 'edit in the playground'),
            ),
            h('div', { class: 'actions' }, h('label', { for: 'export-format' }, 'Format '), formatSel, exportBtn, cancelBtn),
          )
        : h('p', {}, 'Nothing to export yet: ', h('a', { href: '#/playground' }, 'open the playground'), ' and build a recipe.'),
      h('div', { class: 'progress-row' }, bar, pct, jobStatus),
      error,
      result,
    ),
    h(
      'section',
      { class: 'panel' },
      h(
        'div',
        { class: 'section-head' },
        h('h2', {}, 'History'),
        h('button', { type: 'button', class: 'btn small', onclick: () => loadHistory(history) }, 'Refresh'),
      ),
      h(
        'table',
        { class: 'table' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['Created', 'Generator', 'Format', 'Status', 'Progress', 'Attempts', ''].map((t) => h('th', {}, t)),
          ),
        ),
        history,
      ),
    ),
  );

  let current;
  const setProgress = (p) => {
    const v = Math.round(Math.max(0, Math.min(1, p)) * 100);
    bar.value = v;
    pct.textContent = `${v}%`;
  };
  const onJob = (job) => {
    current = job;
    jobStatus.textContent = job.status;
    jobStatus.className = `chip status-${job.status}`;
    setProgress(job.status === 'completed' ? 1 : job.progress);
    cancelBtn.disabled = ENDED.has(job.status);
    if (job.error) error.textContent = job.error;
    if (ENDED.has(job.status)) {
      source?.close();
      source = undefined;
      exportBtn.disabled = false;
      if (job.status === 'completed') {
        result.replaceChildren(h('span', { class: 'muted' }, 'Fetching the result…'));
        resultLink(job).then(
          (a) => result.replaceChildren(a),
          (err) => result.replaceChildren(h('span', { class: 'error' }, err.message)),
        );
      }
      loadHistory(history);
    }
  };

  exportBtn.addEventListener('click', async () => {
    leaveExport();
    error.textContent = '';
    result.replaceChildren();
    setProgress(0);
    exportBtn.disabled = true;
    try {
      const body = { slug: recipe.slug, ...recipeBody(recipe), format: formatSel.value };
      const job = await json('/v1/jobs', { method: 'POST', body });
      onJob(job);
      follow(job.id, onJob, setProgress);
      loadHistory(history);
    } catch (err) {
      exportBtn.disabled = false;
      error.textContent = [err.message, ...(err.issues ?? []).map((i) => `${i.path}: ${i.message}`)].join('\n');
    }
  });
  cancelBtn.addEventListener('click', async () => {
    if (!current) return;
    try {
      onJob(await json(`/v1/jobs/${encodeURIComponent(current.id)}/cancel`, { method: 'POST' }));
    } catch (err) {
      toast(err.message);
    }
  });

  await loadHistory(history);
}

function follow(id, onJob, setProgress) {
  const es = new EventSource(`/v1/jobs/${encodeURIComponent(id)}/events`);
  source = es;
  es.addEventListener('status', (e) => onJob(JSON.parse(e.data)));
  es.addEventListener('progress', (e) => setProgress(JSON.parse(e.data).progress));
  // A server that shuts down ends the stream with `reconnect`: let EventSource reconnect (to another process).
  let reconnecting = false;
  es.addEventListener('reconnect', () => (reconnecting = true));
  es.addEventListener('error', () => {
    if (reconnecting && es.readyState === EventSource.CONNECTING) {
      reconnecting = false;
      return;
    }
    // The stream closes when the job ends; if it broke earlier, ask for the job once.
    if (source !== es) return;
    es.close();
    source = undefined;
    json(`/v1/jobs/${encodeURIComponent(id)}`).then(onJob, () => {});
  });
}

/** Fetches a completed job's file and offers it as a blob: download link. */
async function resultLink(job) {
  const { blob, filename } = await download(`/v1/jobs/${encodeURIComponent(job.id)}/result`);
  const name = filename || `${job.slug}-${job.id}.${job.format ?? 'bin'}`;
  return h(
    'a',
    { href: URL.createObjectURL(blob), download: name, id: 'export-download', class: 'btn primary download-link' },
    `Download ${name} (${Math.ceil(blob.size / 1024)} KB)`,
  );
}

function downloadButton(job, id) {
  const btn = h('button', { type: 'button', class: 'btn small', id }, 'Download');
  btn.addEventListener('click', async () => {
    btn.disabled = true;
    try {
      const { blob, filename } = await download(`/v1/jobs/${encodeURIComponent(job.id)}/result`);
      const url = URL.createObjectURL(blob);
      const a = h(
        'a',
        { href: url, download: filename || `${job.slug}-${job.id}.${job.format ?? 'bin'}`, class: 'btn small primary download-link' },
        `Save ${filename || job.format || 'file'}`,
      );
      btn.replaceWith(a);
      a.click();
    } catch (err) {
      btn.disabled = false;
      toast(err.message);
    }
  });
  return btn;
}

async function loadHistory(tbody) {
  try {
    const jobs = await json('/v1/jobs?limit=20');
    clear(tbody);
    if (!jobs.length) tbody.append(h('tr', {}, h('td', { colspan: 7, class: 'muted' }, 'No exports yet.')));
    for (const job of jobs) {
      tbody.append(
        h(
          'tr',
          { dataset: { job: job.id } },
          h('td', {}, formatDate(job.createdAt)),
          h('td', {}, job.slug),
          h('td', {}, job.format ?? ''),
          h('td', {}, h('span', { class: `chip status-${job.status}` }, job.status)),
          h('td', {}, `${Math.round(job.progress * 100)}%`),
          h('td', {}, String(job.attempts)),
          h('td', {}, job.resultReady ? downloadButton(job) : job.error ? h('span', { class: 'muted small' }, job.error) : ''),
        ),
      );
    }
  } catch (err) {
    clear(tbody).append(h('tr', {}, h('td', { colspan: 7, class: 'error' }, err.message)));
  }
}
