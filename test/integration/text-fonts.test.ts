// Issues 30 and 39: social-card text comes from the bundled fonts only, so its bytes do not depend
// on the machine's fonts. Each sample of test/golden/golden-recipes.text.ts (every covered script,
// right-to-left cards, colour and monochrome emoji) is rendered in a child process (compiled) three times, side by side: as
// the machine is — with Debian's fonts-noto-color-emoji and fonts-dejavu installed, which `.ci/run`
// installs and this test requires —, with the machine's fonts hidden, and with extra fonts added:
// Noto Color Emoji, DejaVu, a DejaVu Sans renamed "Noto Sans Arabic" and a DejaVu Sans Mono renamed
// "Space Grotesk" (the real family names of two bundled fonts). All three must agree. Text is
// shaped by HarfBuzz and drawn as paths: Skia is never asked for a font, so it cannot fall back to
// one (an emoji presentation sequence such as "❤️" once reached the machine's colour emoji font).
//
// How the fonts are changed: @napi-rs/canvas's Skia does not use fontconfig (FONTCONFIG_FILE has no
// effect on it; its font manager scans /usr/share/fonts/ itself), so each child runs under
// `unshare -m` with a tmpfs mounted over /usr/share/fonts, empty or holding the extra fonts. That
// needs root (CI runs as root); elsewhere the test is skipped, saying why. "Control" renders that
// ask Skia for the machine's fonts on purpose prove the mounts change what Skia sees, the colour
// emoji font included.
//
// Also: a character no bundled font has, or an emoji sequence the emoji font lacks, is refused with
// 400 unsupported_characters naming it, through the HTTP app (on SQLite), for generate,
// batch and jobs.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ONE_ENGINE } from '../support/black-box/databases.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';
import { testBundle } from '../support/render-digests-bundle.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DEJAVU = '/usr/share/fonts/truetype/dejavu';
const COLOR_EMOJI = '/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf';
/** The hostile host fonts the test needs installed (it installs nothing itself). */
const HOST_FONTS = [
  COLOR_EMOJI,
  path.join(DEJAVU, 'DejaVuSans.ttf'),
  path.join(DEJAVU, 'DejaVuSerif.ttf'),
  path.join(DEJAVU, 'DejaVuSansMono.ttf'),
];

/** A copy of a TrueType font whose name table says `family` (a new name table appended at the end). */
function renamed(file: string, family: string): Buffer {
  const font = readFileSync(file);
  const numTables = font.readUInt16BE(4);
  const records: Array<[number, string]> = [
    [1, family],
    [2, 'Regular'],
    [4, `${family} Regular`],
    [6, family.replace(/\s/g, '') + '-Regular'],
    [16, family],
  ];
  const strings = records.map(([, s]) => Buffer.from(s, 'utf16le').swap16());
  const header = Buffer.alloc(6 + records.length * 12);
  header.writeUInt16BE(0, 0);
  header.writeUInt16BE(records.length, 2);
  header.writeUInt16BE(header.length, 4);
  let offset = 0;
  records.forEach(([id], i) => {
    const o = 6 + i * 12;
    header.writeUInt16BE(3, o); // Windows
    header.writeUInt16BE(1, o + 2); // Unicode BMP
    header.writeUInt16BE(0x409, o + 4); // en-US
    header.writeUInt16BE(id, o + 6);
    header.writeUInt16BE(strings[i].length, o + 8);
    header.writeUInt16BE(offset, o + 10);
    offset += strings[i].length;
  });
  const name = Buffer.concat([header, ...strings]);
  const out = Buffer.concat([font, Buffer.alloc((4 - (font.length % 4)) % 4), name]);
  const at = font.length + ((4 - (font.length % 4)) % 4);
  for (let t = 0; t < numTables; t++) {
    const rec = 12 + t * 16;
    if (out.toString('latin1', rec, rec + 4) !== 'name') continue;
    out.writeUInt32BE(at, rec + 8);
    out.writeUInt32BE(name.length, rec + 12);
  }
  return out;
}

interface Renders {
  samples: Record<string, string>;
  controls: Record<string, string>;
}

/**
 * The child's renders (test/support/render-text-samples.ts, compiled), with /usr/share/fonts as it is,
 * or replaced by `fontsDir`'s contents (empty for none).
 */
async function renderIn(script: string, fontsDir?: string): Promise<Renders> {
  const quoted = [process.execPath, script].map((a) => `'${a}'`).join(' ');
  const args =
    fontsDir === undefined
      ? ['-c', `exec ${quoted}`]
      : ['-c', `mount -t tmpfs fonts /usr/share/fonts && cp -r '${fontsDir}'/. /usr/share/fonts/ && exec ${quoted}`];
  const cmd = fontsDir === undefined ? 'sh' : 'unshare';
  const { stdout } = await promisify(execFile)(cmd, fontsDir === undefined ? args : ['-m', 'sh', ...args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  }).catch((err: Error & { stderr?: string }) => assert.fail(`${err.message}\n${err.stderr ?? ''}`));
  return JSON.parse(stdout) as Renders;
}

const canUnshare = (() => {
  try {
    execFileSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs probe /usr/share/fonts'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe(
  'social-card text does not depend on the machine’s fonts',
  { skip: canUnshare ? false : 'needs root for unshare -m (CI runs as root)' },
  () => {
    const work = mkdtempSync(path.join(tmpdir(), 'text-fonts-'));
    after(() => rmSync(work, { recursive: true, force: true }));

    test('the host has the fonts this test hides and adds', () => {
      const missing = HOST_FONTS.filter((f) => !existsSync(f));
      assert.deepEqual(missing, [], 'install them: apt-get install fonts-noto-color-emoji fonts-dejavu (.ci/run does)');
    });

    test('every script renders the same bytes with the fonts hidden and with namesakes of the bundled fonts added', async () => {
      const none = path.join(work, 'none');
      const extra = path.join(work, 'extra');
      execFileSync('mkdir', ['-p', none, extra]);
      execFileSync('cp', [path.join(DEJAVU, 'DejaVuSerif.ttf'), path.join(DEJAVU, 'DejaVuSans.ttf'), COLOR_EMOJI, extra]);
      writeFileSync(path.join(extra, 'namesake-arabic.ttf'), renamed(path.join(DEJAVU, 'DejaVuSans.ttf'), 'Noto Sans Arabic'));
      writeFileSync(path.join(extra, 'namesake-grotesk.ttf'), renamed(path.join(DEJAVU, 'DejaVuSansMono.ttf'), 'Space Grotesk'));

      const script = path.join(root, await testBundle('render-text-samples'));
      const [normal, hidden, added] = await Promise.all([renderIn(script), renderIn(script, none), renderIn(script, extra)]);

      // The mounts do change the fonts Skia sees: text asking for the machine's fonts changes.
      assert.notEqual(hidden.controls['sans-serif'], normal.controls['sans-serif'], 'hiding /usr/share/fonts changes sans-serif');
      assert.notEqual(added.controls['"Space Grotesk"'], hidden.controls['"Space Grotesk"'], 'the renamed font is visible to Skia');
      assert.notEqual(normal.controls.emoji, hidden.controls.emoji, 'the colour emoji font is visible to Skia');
      assert.notEqual(added.controls.emoji, hidden.controls.emoji, 'the added colour emoji font is visible to Skia');

      assert.ok(Object.keys(normal.samples).length >= 17);
      assert.deepEqual(hidden.samples, normal.samples, 'with no system font');
      assert.deepEqual(added.samples, normal.samples, 'with extra fonts named like the bundled ones');
    });
  },
);

for (const engine of ONE_ENGINE) {
  describe(`unsupported characters on ${engine}`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(engine);
    });
    after(async () => t?.close());

    const size = { width: 120, height: 64 };
    const check = (body: { code: string; issues: Array<{ path: string; message: string }>; characters: string[] }, pathPrefix: string) => {
      assert.equal(body.code, 'unsupported_characters');
      const title = body.issues.find((i) => i.path === `${pathPrefix}.params.title`);
      assert.ok(title, JSON.stringify(body.issues));
      assert.match(title.message, /U\+E000/);
      // An emoji newer than the bundled Twemoji 15.
      assert.match(title.message, /"🫩" \(U\+1FAE9\)/);
      const subtitle = body.issues.find((i) => i.path === `${pathPrefix}.params.subtitle`);
      assert.ok(subtitle, JSON.stringify(body.issues));
      assert.match(subtitle.message, /U\+13000/);
      // A sequence the emoji font would draw in pieces is refused whole, never drawn as a bird beside a fire.
      assert.match(subtitle.message, /U\+1F426 U\+200D U\+1F525/);
      assert.deepEqual(body.characters.sort(), ['\uE000', '🫩', '𓀀', '🐦‍🔥'].sort());
    };
    const params = { title: 'Hello \uE000 🫩', subtitle: 'Hieroglyph 𓀀 🐦‍🔥' };

    test('generate answers 400 naming each character and its param', async () => {
      const res = await t.request('post', '/v1/generate/social-card', { body: { size, params } });
      assert.equal(res.status, 400, res.text);
      check(res.body, 'body');
    });

    test('a batch item and a job are refused the same way; covered scripts render', async () => {
      const batch = await t.request('post', '/v1/batch', { body: { items: [{ slug: 'social-card', size, params }] } });
      assert.equal(batch.status, 200, batch.text);
      assert.equal(batch.body.results[0].ok, false, batch.text);
      assert.match(JSON.stringify(batch.body.results[0]), /unsupported_characters/);
      assert.match(JSON.stringify(batch.body.results[0]), /body\.items\.0\.params\.title/);
      const job = await t.request('post', '/v1/jobs', { body: { generator: 'social-card', size, params } });
      assert.equal(job.status, 400, job.text);
      check(job.body, 'body');
      const ok = await t.request('post', '/v1/generate/social-card', {
        body: { size, params: { title: 'مرحبا 你好 こんにちは नमस्ते 안녕 สวัสดี', subtitle: 'Ωμέγα Привет שלום ❤️ 👍🏽 👨‍👩‍👧 🇫🇷 🏳️‍🌈' } },
      });
      assert.equal(ok.status, 200, ok.text);
    });
  });
}
