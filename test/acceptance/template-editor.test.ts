// The template editor (#/templates/<id>) driven in a real Chromium against the real service in local
// mode: the picture of the draft comes from POST /v1/templates/preview, saves are PUT
// /v1/templates/{id}, uploads POST /v1/assets. What runs here needs a browser — pointer drags and
// their snapping, keyboard nudges, file input and drop, the fit readout, versions, accessibility;
// the editor's rules (geometry, layers, variables, samples, the Text-Fit header) are unit-tested in
// Node (test/unit/web-template-*.test.ts). One service process and one browser for the whole file.
// Screenshots land in test-results/screenshots.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../support/black-box/browser.ts';
import { ROOT, runService, type ServerProcess } from '../support/black-box/server-process.ts';

const SCREENSHOTS = path.join(ROOT, 'test-results', 'screenshots');
const dataDir = mkdtempSync(path.join(tmpdir(), 'render-service-editor-'));
let server: ServerProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let templateId: string;
const pageErrors: string[] = [];

const localKey = () => readFileSync(path.join(dataDir, 'local-api-key'), 'utf8').trim();
const api = (p: string, init: RequestInit = {}) =>
  fetch(`${server.url}${p}`, {
    ...init,
    headers: { Authorization: `Bearer ${localKey()}`, 'Content-Type': 'application/json', ...(init.headers ?? {}) },
  });

async function screenshot(name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true, scale: 'css' });
}

/** Waits until the editor shows a sharp picture drawn after `after` (the stage's render count), not loading; returns its count. */
async function drawn(after = 0): Promise<number> {
  const handle = await page.waitForFunction((n) => {
    const stage = document.getElementById('tpl-stage');
    const count = Number(stage?.dataset.rendered ?? 0);
    return count > n && !stage!.classList.contains('loading') ? count : null;
  }, after);
  return (await handle.jsonValue()) as number;
}

/** The number in a properties field. */
const prop = async (id: string) => Number(await page.inputValue(`#prop-box-${id}`));

before(async () => {
  const launching = launchChromium();
  server = await runService({ DATA_DIR: dataDir, RENDER_TIMEOUT_MS: '300000' });
  browser = await launching;
  // bypassCSP only so the accessibility test can inject axe-core (an inline script); the page is the same.
  context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, bypassCSP: true });
  context.setDefaultTimeout(120_000);
  page = await context.newPage();
  page.on('pageerror', (err) => pageErrors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    // The browser notes every 4xx (an upload refused on purpose): the page handles those.
    if (msg.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text()))
      pageErrors.push(`console: ${msg.text()}`);
  });
  const res = await api('/v1/templates', {
    method: 'POST',
    body: JSON.stringify({
      name: 'Editor test card',
      size: { width: 1200, height: 630 },
      variables: {
        type: 'object',
        properties: { title: { type: 'string', maxLength: 300, examples: ['Hello'] } },
      },
      layers: [
        { id: 'bg', kind: 'generator', slug: 'linear-gradient' },
        {
          id: 'title',
          kind: 'text',
          text: '{{title}}',
          box: { x: 100, y: 100, width: 600, height: 200 },
          color: '#ffffff',
          fit: { max: 96, min: 24, maxLines: 2 },
        },
      ],
    }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  templateId = ((await res.json()) as { id: string }).id;
});

after(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('the editor: drag (snapped), resize, nudge, add a layer, upload by file input and by drop, a sample value’s fit, Save as version 2', async () => {
  await page.goto(`${server.url}/#/templates/${templateId}`);
  let count = await drawn();
  assert.match((await page.textContent('#tpl-dirty')) ?? '', /Saved · version 1/);
  assert.equal(await page.isDisabled('#tpl-save'), true);
  assert.match((await page.textContent('#tpl-fits li[data-layer="title"]')) ?? '', /^title: 96 px · 1 line$/);

  // Drag the title box so that its centre lands 3 shown px right of the canvas's centre: it snaps onto it.
  const stage = (await page.locator('#tpl-stage').boundingBox())!;
  const scale = stage.width / 1200;
  const box = (await page.locator('#tpl-box-title').boundingBox())!;
  const grab = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const targetX = stage.x + stage.width / 2 + 3;
  let previews = 0;
  page.on('request', (r) => void (r.url().endsWith('/v1/templates/preview') && previews++));
  await page.mouse.move(grab.x, grab.y);
  await page.mouse.down();
  const before = previews;
  await page.mouse.move((grab.x + targetX) / 2, grab.y, { steps: 4 });
  await page.mouse.move(targetX, grab.y, { steps: 4 });
  // While dragging: a guide at the canvas's centre, and only the overlay moved (no new picture asked for).
  await page.locator('.tpl-guide.x[data-at="600"]').waitFor();
  assert.equal(previews, before, 'no picture is asked for while dragging');
  await page.mouse.up();
  await page.locator('.tpl-guide').first().waitFor({ state: 'detached' });
  assert.equal(await prop('x'), 300, 'the box is centred: x = (1200 − 600) / 2');
  assert.equal(await prop('y'), 100);
  assert.match((await page.textContent('#tpl-dirty')) ?? '', /Unsaved changes/);
  assert.equal(await page.isDisabled('#tpl-save'), false);
  count = await drawn(count);

  // Resize by the bottom-right handle: 40 shown px wider, 20 taller; the top-left corner stays.
  const handle = (await page.locator('#tpl-box-title .tpl-handle[data-handle="se"]').boundingBox())!;
  const hx = handle.x + handle.width / 2;
  const hy = handle.y + handle.height / 2;
  await page.mouse.move(hx, hy);
  await page.mouse.down();
  await page.mouse.move(hx + 40, hy + 20, { steps: 5 });
  await page.mouse.up();
  const width = await prop('width');
  const height = await prop('height');
  assert.ok(Math.abs(width - (600 + 40 / scale)) <= 1, `width ${width}, expected about ${600 + 40 / scale}`);
  assert.ok(Math.abs(height - (200 + 20 / scale)) <= 1, `height ${height}`);
  assert.equal(await prop('x'), 300);

  // Arrow keys nudge the focused box: 1 px, 10 with Shift.
  await page.focus('#tpl-box-title');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Shift+ArrowDown');
  await page.waitForFunction(() => (document.getElementById('prop-box-y') as HTMLInputElement | null)?.value === '110');
  assert.equal(await prop('x'), 301);

  // Add a shape layer: in the list, on the canvas, selected.
  await page.click('#tpl-add-shape');
  await page.locator('#tpl-box-shape.selected').waitFor();
  await page.locator('#tpl-layer-shape').waitFor();
  // Reordered from the keyboard: Alt+↓ moves it below the title (the list shows the topmost first).
  await page.focus('#tpl-layer-shape');
  await page.keyboard.press('Alt+ArrowDown');
  await page.waitForFunction(
    () => [...document.querySelectorAll('#tpl-layers li')].map((li) => (li as HTMLElement).dataset.layer).join() === 'title,shape,bg',
  );
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'tpl-layer-shape', 'the focus stays on the moved layer');

  // Upload an image by the file input: a new image layer drawing it.
  const png = Buffer.from(
    await (
      await api('/v1/generate/identicon', { method: 'POST', body: JSON.stringify({ size: { width: 64, height: 64 }, format: 'png' }) })
    ).arrayBuffer(),
  );
  await page.setInputFiles('#tpl-upload', { name: 'logo.png', mimeType: 'image/png', buffer: png });
  await page.waitForFunction(() => /a new image layer/.test(document.getElementById('tpl-upload-status')?.textContent ?? ''));
  await page.locator('#tpl-box-image').waitFor();
  // A file the service refuses says why (its 4xx problem).
  await page.setInputFiles('#tpl-upload', { name: 'broken.png', mimeType: 'image/png', buffer: Buffer.from('not a png') });
  await page.waitForFunction(() =>
    /broken\.png was not uploaded: .+/.test(document.getElementById('tpl-upload-status')?.textContent ?? ''),
  );
  assert.ok(await page.locator('#tpl-upload-status.error').isVisible());

  // Hide (left out of the picture asked for) and Lock (no box on the canvas): the editor's view only.
  const hiddenAsked = page.waitForRequest((r) => {
    if (!r.url().endsWith('/v1/templates/preview')) return false;
    const ids = (JSON.parse(r.postData() ?? '{}') as { template: { layers: { id: string }[] } }).template.layers.map((l) => l.id);
    return !ids.includes('image') && ids.includes('title');
  });
  await page.check('#tpl-hide-image');
  await hiddenAsked;
  await page.locator('#tpl-box-image').waitFor({ state: 'detached' });
  await page.uncheck('#tpl-hide-image');
  await page.check('#tpl-lock-title');
  await page.locator('#tpl-box-title').waitFor({ state: 'detached' });
  await page.uncheck('#tpl-lock-title');
  await page.locator('#tpl-box-title').waitFor();

  // A refused draft: the issue stands on the layer's row and beside the field it names; the last picture is dimmed.
  await page.click('#tpl-layer-title');
  await page.fill('#prop-fit-min', '200');
  await page.waitForFunction(() => (document.querySelector('[data-error-for="layer:title"]')?.textContent ?? '').includes('fit'));
  assert.ok(await page.locator('#tpl-stage.stale').isVisible());
  assert.notEqual((await page.textContent('#tpl-props [data-error-for="fit.min"]')) ?? '', '');
  await page.fill('#prop-fit-min', '24');
  await page.waitForFunction(
    () => !document.querySelector('#tpl-stage.stale') && !document.querySelector('[data-error-for="layer:title"]')?.textContent,
  );

  // Drop a font file anywhere on the page with the title selected: the title is set in it.
  await page.click('#tpl-layer-title');
  const font = readFileSync(path.join(ROOT, 'node_modules/@fontsource/space-grotesk/files/space-grotesk-latin-300-normal.woff2'));
  await page.evaluate((b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const data = new DataTransfer();
    data.items.add(new File([bytes], 'brand.woff2', { type: '' }));
    document.querySelector('main, body')!.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, font.toString('base64'));
  await page.waitForFunction(() => /title is set in it/.test(document.getElementById('tpl-upload-status')?.textContent ?? ''));
  const fontAsset = await page.inputValue('#prop-font-asset');
  assert.match(fontAsset, /^ast_[0-9a-f]{32}$/);

  // A generator layer's own params, with the playground's controls: only what differs from its defaults is stored.
  await page.click('#tpl-layer-bg');
  await page.locator('#tpl-props .tpl-gen-params #params-angle').waitFor();
  await page.fill('#params-angle', '45');
  await page.click('#tpl-layer-title');

  // A sample over its variable's max length: refused (invalid_params), beside the sample.
  await page.fill('#var-sample-title', 'x'.repeat(301));
  await page.waitForFunction(() => (document.querySelector('[data-error-for="var:title"]')?.textContent ?? '') !== '');
  // A longer sample value: the fit readout follows the service's X-Service-Text-Fit.
  count = await drawn(0);
  await page.fill('#var-sample-title', 'Deterministic og:images for every post, with our own logo, our own font and a fitted title');
  await page.waitForFunction(() => {
    const text = document.querySelector('#tpl-fits li[data-layer="title"]')?.textContent ?? '';
    return /shrunk from 96/.test(text) ? text : null;
  });
  await drawn(count);
  assert.match((await page.textContent('#tpl-fits li[data-layer="title"]')) ?? '', /^title: [\d.]+ px \(shrunk from 96\) · 2 lines/);
  await screenshot('template-editor');

  // Leaving asks first while changes are unsaved; dismissed, the editor stays.
  page.once('dialog', (d) => void d.dismiss());
  await page.click('a[href="#/templates"]');
  assert.match(page.url(), /#\/templates\/tpl_/);

  // Save: version 2, with what the editor showed.
  const shown = { x: await prop('x'), y: await prop('y'), width: await prop('width'), height: await prop('height') };
  await page.click('#tpl-save');
  await page.waitForFunction(() => /Saved · version 2/.test(document.getElementById('tpl-dirty')?.textContent ?? ''));
  assert.equal(await page.isDisabled('#tpl-save'), true);
  const saved = (await (await api(`/v1/templates/${templateId}`)).json()) as {
    version: number;
    variables: { properties: { title: { examples: string[] } } };
    layers: { id: string; kind: string; box?: object; asset?: string; font?: { asset?: string }; params?: object }[];
  };
  assert.equal(saved.version, 2);
  assert.deepEqual(saved.layers.find((l) => l.id === 'title')!.box, { ...shown, x: 301, y: 110 });
  assert.equal(saved.layers.find((l) => l.id === 'title')!.font?.asset, fontAsset);
  assert.deepEqual(
    saved.layers.map((l) => l.kind),
    ['generator', 'shape', 'text', 'image'],
  );
  assert.match(saved.layers[3].asset ?? '', /^ast_/);
  assert.deepEqual(saved.layers[0].params, { angle: 45 });
  assert.match(saved.variables.properties.title.examples[0], /^Deterministic og:images/);
  await page.locator('#tpl-history li[data-version="2"]').waitFor();
  assert.deepEqual(pageErrors, []);
});

test('versions: thumbnails, two compared side by side; Use gives a working API call for version 2', async () => {
  await page.waitForFunction(() => document.querySelectorAll('#tpl-history .tpl-thumb img[src^="blob:"]').length === 2);
  await page.check('#tpl-pick-1');
  assert.equal(await page.isDisabled('#tpl-compare'), true, 'one chosen: nothing to compare');
  await page.check('#tpl-pick-2');
  await page.click('#tpl-compare');
  await page.waitForFunction(() => document.querySelectorAll('#tpl-compare-view img[src^="blob:"]').length === 2);
  assert.deepEqual(await page.$$eval('#tpl-compare-view figure', (els) => els.map((e) => (e as HTMLElement).dataset.version)), ['1', '2']);
  await screenshot('template-editor-compare');

  const curl = (await page.textContent('#tpl-use-curl')) ?? '';
  assert.match(curl, new RegExp(`/v1/generate/${templateId}@2`));
  const body = /-d '(.*)' \\/.exec(curl)?.[1] ?? '';
  const res = await api(`/v1/generate/${templateId}@2`, { method: 'POST', body });
  assert.equal(res.status, 200, await res.clone().text());
  assert.equal(res.headers.get('content-type'), 'image/png');
  assert.match((await page.textContent('#tpl-use-cli')) ?? '', /npx render-service render --template tpl_\w+-v2\.json/);
  // A layer's row dragged onto another's place reorders the layers; Undo puts them back.
  const order = () => page.$$eval('#tpl-layers li', (els) => els.map((li) => (li as HTMLElement).dataset.layer).join());
  assert.equal(await order(), 'image,title,shape,bg');
  await page.dragAndDrop('#tpl-layers li[data-layer="image"]', '#tpl-layers li[data-layer="bg"]');
  await page.waitForFunction(() => /Unsaved changes/.test(document.getElementById('tpl-dirty')?.textContent ?? ''));
  assert.equal(await order(), 'title,shape,bg,image');
  await page.click('#tpl-undo');
  assert.equal(await order(), 'image,title,shape,bg');
  assert.match((await page.textContent('#tpl-dirty')) ?? '', /Saved · version 2/);
  // Delete on a focused box removes its layer (the focus moves to another box); Undo brings it back.
  await page.focus('#tpl-box-shape');
  await page.keyboard.press('Delete');
  await page.locator('#tpl-box-shape').waitFor({ state: 'detached' });
  assert.match((await page.textContent('#tpl-upload-status')) ?? '', /Deleted the layer shape/);
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('tpl-box')), true);
  await page.click('#tpl-undo');
  await page.locator('#tpl-box-shape').waitFor();
  assert.match((await page.textContent('#tpl-dirty')) ?? '', /Saved · version 2/);
  // Share… opens the Share panel for the saved version.
  await page.click('#tpl-share');
  await page.locator('#share-dialog').waitFor();
  await page.keyboard.press('Escape');
  await page.locator('#share-dialog').waitFor({ state: 'detached' });
  assert.deepEqual(pageErrors, []);
});

test('accessibility: every control labelled; axe-core finds no WCAG 2.1 A/AA violation in the light scheme, no contrast one in the dark', async () => {
  await page.click('#tpl-layer-title');
  await page.locator('#tpl-props #prop-text').waitFor();
  const unlabelled = await page.$$eval('input, select, textarea', (els) =>
    els
      .filter((el) => (el as HTMLElement).offsetParent !== null && (el as HTMLInputElement).type !== 'hidden')
      .filter((el) => !((el as HTMLInputElement).labels?.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')))
      .map((el) => el.outerHTML.slice(0, 120)),
  );
  assert.deepEqual(unlabelled, []);
  await page.addScriptTag({ content: readFileSync(path.join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8') });
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.waitForFunction(() => !document.getAnimations().some((a) => a instanceof CSSTransition));
    const runOnly =
      colorScheme === 'light'
        ? { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }
        : { type: 'rule', values: ['color-contrast', 'link-in-text-block'] };
    const violations = await page.evaluate(async (only) => {
      const axe = (
        window as unknown as {
          axe: { run: (c: unknown, o: unknown) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> };
        }
      ).axe;
      const result = await axe.run(document, { runOnly: only });
      return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`);
    }, runOnly);
    found.push(...violations.map((v) => `${colorScheme}: ${v}`));
    if (colorScheme === 'dark') await screenshot('template-editor-dark');
  }
  await page.emulateMedia({ colorScheme: 'light' });
  assert.deepEqual(found, []);
});
