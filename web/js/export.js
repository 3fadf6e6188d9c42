import { call, download, generators, priceLine, urlOf } from './api.js';
import { h, clear, toast, labelCells } from './dom.js';
import { gifMegabytes, GIF_WARN_MB, gifQuestion } from './estimate.js';
import { formatDate } from './formatting.js';
import { limits } from './limits.js';
import { jobFileName, jobOutput, jobProgress, jobRecipe, percent, recipeOf, stageOf } from './jobs.js';
import { playgroundHref } from './recipe.js';
import { screenRatio } from './sizing.js';
import { state } from './state.js';

const POLL_MS = 1000;
let source; // the open EventSource, closed when leaving the page or when its job ends
let poller; // the polling timer that replaces a broken event stream

export function leaveExport() {
  source?.close();
  source = undefined;
  clearTimeout(poller);
  poller = undefined;
}

/** An input of the export settings, labelled. */
const setting = (label, input) => h('label', { class: 'setting', for: input.id }, h('span', {}, label), input);
const numberInput = (id, value, min, max, step) => h('input', { type: 'number', id, value, min, max, step, class: 'num', required: true });

export async function showExport(view, _arg, isCurrent = () => true) {
  leaveExport();
  clear(view);
  const list = await generators();
  if (!isCurrent()) return; // another page was asked for meanwhile
  const genOf = (slug) => list.find((g) => g.slug === slug);

  // Export owns its settings: size, pixel ratio, format and (for an animation) duration and fps,
  // over a recipe's generator, params and seed — the playground's recipe, or any history row's.
  const settings = h('div', { id: 'export-settings' });
  const exportBtn = h('button', { type: 'button', class: 'btn primary', id: 'export-start', disabled: true }, 'Export');
  const cancelBtn = h('button', { type: 'button', class: 'btn', id: 'export-cancel', disabled: true }, 'Cancel');
  const bar = h('progress', { id: 'export-progress', max: 100, value: 0, 'aria-label': 'Export progress' });
  const pct = h('span', { id: 'export-percent' }, '0%');
  const jobStatus = h('span', { id: 'export-status', class: 'chip' });
  // No bar while nothing runs: it shows once a job is followed (an export, or one re-attached to).
  const progressRow = h('div', { class: 'progress-row', id: 'export-progress-row', hidden: true }, bar, pct, jobStatus);
  const stage = h('span', { id: 'export-stage', class: 'muted small' });
  const jobLabel = h('p', { id: 'export-job', class: 'muted small' });
  const result = h('div', { id: 'export-result' });
  const error = h('p', { class: 'field-error general', id: 'export-error', role: 'alert' });
  const history = h('tbody', { id: 'history' });
  // What the export would cost now, as the service quotes the job (hosted mode).
  const price = priceLine('export-quote', () => chosen() && { job: chosen() });
  settings.addEventListener('input', price.update);

  /** Reads the settings into a job body (set by fill). */
  let chosen = () => null;
  /** Puts a recipe's settings in the form; `from` says where it came from. */
  function fill(recipe, from) {
    const gen = recipe && genOf(recipe.slug);
    exportBtn.disabled = !gen || (current && !current.finished);
    if (!gen) {
      chosen = () => null;
      settings.replaceChildren(
        h('p', {}, 'Nothing to export yet: ', h('a', { href: '#/playground' }, 'open the playground'), ' and build a recipe.'),
      );
      return;
    }
    const size = { pixelRatio: 1, ...recipe.size };
    const props = gen.paramSchema?.properties ?? {};
    const params = { ...gen.defaults, ...recipe.params };
    const width = numberInput('export-width', size.width, limits.minSide, limits.maxSide, 1);
    const height = numberInput('export-height', size.height, limits.minSide, limits.maxSide, 1);
    const ratio = numberInput('export-pixelRatio', size.pixelRatio, limits.minPixelRatio, limits.maxPixelRatio, 0.25);
    const format = h(
      'select',
      { id: 'export-format' },
      gen.formats.map((f) => h('option', { value: f, selected: f === recipe.format }, f)),
    );
    const timing = ['duration', 'fps']
      .filter((name) => props[name])
      .map((name) => [
        name,
        numberInput(`export-${name}`, params[name], props[name].minimum, props[name].maximum, name === 'fps' ? 1 : 0.5),
      ]);
    chosen = () => {
      const num = (input) => (input.value === '' ? undefined : Number(input.value));
      const timed = Object.fromEntries(timing.map(([name, input]) => [name, num(input)]));
      return {
        slug: gen.slug,
        params: { ...recipe.params, ...timed },
        seed: recipe.seed,
        size: { width: num(width), height: num(height), pixelRatio: num(ratio) ?? 1 },
        format: format.value,
      };
    };
    settings.replaceChildren(
      h(
        'p',
        { id: 'export-source' },
        `${from}: `,
        h('strong', {}, gen.name),
        ` · seed ${recipe.seed} `,
        h('a', { href: playgroundHref(gen.slug, recipe), id: 'export-edit' }, 'edit in the playground'),
      ),
      h(
        'div',
        { class: 'settings-row' },
        setting('Format', format),
        setting('Width', width),
        setting('Height', height),
        setting('Pixel ratio', ratio),
        timing.map(([name, input]) => setting(name === 'fps' ? 'Frames per second' : 'Duration (s)', input)),
      ),
    );
    price.update();
  }

  view.append(
    h('h1', {}, 'Export'),
    h(
      'section',
      { class: 'panel' },
      settings,
      h('div', { class: 'actions' }, exportBtn, cancelBtn, price),
      jobLabel,
      progressRow,
      stage,
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
        h('button', { type: 'button', class: 'btn small', onclick: () => refreshHistory() }, 'Refresh'),
      ),
      h(
        'table',
        { class: 'table', id: 'history-table' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['Created', 'Generator', 'Output', 'Status', 'Progress', 'Attempts'].map((t) => h('th', {}, t)),
            // A column of buttons: its heading is read by screen readers (a table header is never empty), not shown.
            h('th', {}, h('span', { class: 'visually-hidden' }, 'Actions')),
          ),
        ),
        history,
      ),
    ),
  );
  let current;
  const setProgress = (p) => {
    const v = percent(p);
    bar.value = v;
    pct.textContent = `${v}%`;
    if (current?.status === 'running') stage.textContent = stageOf({ ...current, progress: p });
  };
  const onJob = (job) => {
    if (current && current.id !== job.id) return; // a late answer about a job no longer shown
    current = job;
    progressRow.hidden = false;
    jobLabel.textContent = `Job ${job.id}`;
    jobLabel.dataset.job = job.id;
    jobStatus.textContent = job.status;
    jobStatus.className = `chip status-${job.status}`;
    setProgress(job.status === 'completed' ? 1 : job.progress);
    stage.textContent = stageOf(job);
    cancelBtn.disabled = job.finished || job.cancelled;
    if (job.error) error.textContent = job.error;
    if (job.finished) {
      leaveExport();
      exportBtn.disabled = !chosen();
      if (job.status === 'completed') {
        result.replaceChildren(h('span', { class: 'muted' }, 'Fetching the result…'));
        resultLink(job).then(
          (a) => result.replaceChildren(a),
          (err) => result.replaceChildren(h('span', { class: 'error' }, err.message)),
        );
      }
      refreshHistory();
    }
  };
  /** Shows and follows a job: the event stream, or polling when the stream breaks. */
  const attach = (job) => {
    leaveExport();
    current = undefined;
    error.textContent = '';
    result.replaceChildren();
    onJob(job);
    if (!job.finished) {
      exportBtn.disabled = true;
      follow(job.id, onJob, setProgress);
    }
  };
  const submit = async (body) => {
    error.textContent = '';
    exportBtn.disabled = true;
    try {
      // An idempotency key: a request retried after a network failure creates one job, not two.
      attach(await call('createJob', { body, headers: { 'Idempotency-Key': crypto.randomUUID() } }));
      refreshHistory();
    } catch (err) {
      exportBtn.disabled = !chosen();
      error.textContent = err.message; // its issues in plain words, named by field (ApiError)
    }
  };
  const cancel = async (id) => {
    try {
      const job = await call('cancelJob', { path: { id } });
      if (current?.id === job.id) onJob(job);
      refreshHistory();
    } catch (err) {
      toast(err.message);
    }
  };
  const retry = (job) => {
    const r = jobRecipe(job);
    if (r) submit(r);
  };
  // Re-export: a history row's recipe in the settings, to export again with other ones.
  const reexport = (job) => {
    const r = jobRecipe(job);
    if (!r) return;
    fill(r, `Job ${job.id}`);
    document.getElementById('export-format')?.focus();
  };
  let first = true;
  const refreshHistory = async () => {
    const jobs = await loadHistory(history, { cancel, retry, reexport });
    // Coming back to the page (or a reload) re-attaches to a job still running.
    if (first && jobs && !current) {
      const running = jobs.find((j) => !j.finished);
      if (running) attach(running);
    }
    first = false;
  };

  exportBtn.addEventListener('click', () => {
    const body = chosen();
    if (!body) return;
    const mb = gifMegabytes(body, genOf(body.slug));
    if (mb > GIF_WARN_MB && !confirm(gifQuestion(mb, 'Export'))) return void document.getElementById('export-format')?.focus();
    submit(body);
  });
  cancelBtn.addEventListener('click', () => current && cancel(current.id));
  fill(state.recipe, 'Current recipe');

  await refreshHistory();
}

function follow(id, onJob, setProgress) {
  const es = new EventSource(urlOf('streamJobEvents', { path: { id } }));
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
    // The stream closes when the job ends; if it broke earlier, poll the job until it ends.
    if (source !== es) return;
    es.close();
    source = undefined;
    const poll = () =>
      call('getJob', { path: { id } })
        .then(onJob, () => {})
        .finally(() => {
          if (poller !== undefined) poller = setTimeout(poll, POLL_MS);
        });
    poller = setTimeout(poll, 0);
  });
}

/** Fetches a completed job's file and offers it as a blob: download link. */
async function resultLink(job) {
  const { blob } = await download('getJobResult', { path: { id: job.id } });
  const name = jobFileName(job);
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
      const { blob } = await download('getJobResult', { path: { id: job.id } });
      const url = URL.createObjectURL(blob);
      const name = jobFileName(job);
      const a = h('a', { href: url, download: name, class: 'btn small primary download-link' }, `Save ${name}`);
      btn.replaceWith(a);
      a.click();
    } catch (err) {
      btn.disabled = false;
      toast(err.message);
    }
  });
  return btn;
}

/** A completed job's thumbnail (GET /v1/jobs/{id}/thumbnail, free) at the screen's pixel ratio; empty if it cannot load. */
function thumbnail(job) {
  const img = h('img', { class: 'job-thumb', alt: `${job.slug} thumbnail`, width: 48, height: 27 });
  call('getJobThumbnail', { path: { id: job.id }, query: { pr: screenRatio(devicePixelRatio) }, headers: { Accept: 'image/*' }, raw: true })
    .then((res) => res.blob())
    .then((blob) => {
      img.addEventListener('load', () => URL.revokeObjectURL(img.src), { once: true });
      img.src = URL.createObjectURL(blob);
    })
    .catch(() => img.remove());
  return img;
}

/** Fills the history table; returns the jobs (null when they could not be listed). */
async function loadHistory(tbody, { cancel, retry, reexport }) {
  try {
    const jobs = await call('listJobs', { query: { limit: 20 } });
    clear(tbody);
    if (!jobs.length) tbody.append(h('tr', {}, h('td', { colspan: 7, class: 'muted' }, 'No exports yet.')));
    for (const job of jobs) {
      const r = recipeOf(job);
      const button = (label, cls, onclick) => h('button', { type: 'button', class: `btn small ${cls}`, onclick }, label);
      tbody.append(
        h(
          'tr',
          { dataset: { job: job.id } },
          h('td', {}, formatDate(job.createdAt)),
          h('td', {}, r ? h('a', { href: playgroundHref(job.slug, job.recipe), class: 'open-recipe' }, job.slug) : job.slug),
          h('td', { class: 'job-output' }, job.status === 'completed' ? thumbnail(job) : null, jobOutput(job)),
          h('td', {}, h('span', { class: `chip status-${job.status}` }, job.status)),
          h('td', {}, jobProgress(job)),
          h('td', {}, String(job.attempts)),
          h(
            'td',
            { class: 'row-actions' },
            job.resultReady ? downloadButton(job) : null,
            !job.finished && !job.cancelled ? button('Cancel', 'danger cancel', () => cancel(job.id)) : null,
            (job.status === 'failed' || job.status === 'cancelled') && r ? button('Retry', 'retry', () => retry(job)) : null,
            r ? button('Re-export…', 're-export', () => reexport(job)) : null,
            job.error ? h('span', { class: 'muted small' }, job.error) : null,
          ),
        ),
      );
    }
    labelCells(tbody);
    return jobs;
  } catch (err) {
    clear(tbody).append(h('tr', {}, h('td', { colspan: 7, class: 'error' }, err.message)));
    return null;
  }
}
