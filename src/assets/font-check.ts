// An uploaded font is untrusted input for a parser: it is parsed here, in JavaScript (fontkit), on a
// worker thread of its own with V8 resource limits and a CPU budget, so a parse that throws, loops or
// eats memory ends that thread and never the serving process's event loop or heap. The budget is the
// thread's own CPU time (Linux: /proc/<pid>/task/<tid>/stat), not the clock: on a machine at load 26 a
// good font's check took over 15 s of wall time with a fraction of that in CPU, and was refused as a
// bad font. A check that has not used its CPU yet when the clock runs out is the machine's fault: 503. The thread reads
// every glyph's outline (up to GLYPHS_CHECKED of them, the same ones every time) and the names and
// weight the response reports. Skia never sees an uploaded font: templates shape text with HarfBuzz
// compiled to WebAssembly (src/generators/lib/shaper.ts).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { type ResourceLimits, Worker } from 'node:worker_threads';
import { ProblemError } from '../errors/problem.ts';
import type { AssetMediaType } from './asset-files.ts';

export interface FontFacts {
  /** The typographic family (name ID 16), else the family (name ID 1). */
  family: string;
  /** The subfamily ("Regular", "Bold Italic"). */
  subfamily: string;
  /** OS/2 usWeightClass (100..900 for a well-made font; 400 when the table is missing). */
  weight: number;
  glyphs: number;
  /** Code points the font maps. */
  characters: number;
  /** TrueType (`glyf`) or CFF outlines. */
  outlines: 'truetype' | 'cff';
}

export interface FontCheckOptions {
  /** The CPU time one check may use (default 15 s): past it the thread is terminated and the font refused (400). */
  cpuBudgetMs?: number;
  /**
   * The wall-clock backstop (default 120 s): a check still running then, within its CPU budget, was
   * starved by a busy machine — 503 `overloaded`, to try again. Where a thread's CPU time cannot be
   * read (no /proc), this is also where the font is refused, at the CPU budget.
   */
  wallLimitMs?: number;
  /** V8 limits of the thread (default: 256 MB old generation, 32 MB young, 4 MB stack). */
  resourceLimits?: ResourceLimits;
}

/** Glyph outlines read per font, in glyph-id order: every glyph of most fonts, bounded for a large CJK one. */
export const GLYPHS_CHECKED = 8_000;

const require = createRequire(import.meta.url);
const FONTKIT = require.resolve('fontkit');
// What the compositor shapes with (src/generators/lib/shaper.ts): HarfBuzz in WebAssembly, and wawoff2 to unpack WOFF2.
const HARFBUZZ = pathToFileURL(require.resolve('harfbuzzjs')).href;
const WOFF2 = require.resolve('wawoff2/decompress.js');

// Plain JavaScript run as the worker's script (eval): no file to find beside a bundle, no TypeScript
// loader in the thread. It posts one message: { ok: true, facts } or { ok: false, reason }. After
// fontkit, HarfBuzz (what templates shape with) must read the face's characters and shape some of
// them to real glyphs.
const WORKER_SOURCE = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
// Which OS thread this is ("<pid>/task/<tid>"), so the parent can read its CPU time; null without /proc.
let thread = null;
try { thread = require('node:fs').readlinkSync('/proc/thread-self'); } catch {}
parentPort.postMessage({ thread });
const fontkit = require(workerData.fontkit);
function check() {
  const bytes = Buffer.from(workerData.bytes);
  let font;
  try { font = fontkit.create(bytes); } catch (err) { return { ok: false, reason: 'it cannot be parsed (' + String(err && err.message || err).slice(0, 200) + ')' }; }
  if (!font || Array.isArray(font.fonts)) return { ok: false, reason: 'it is a font collection: upload one face' };
  const tables = font.directory && font.directory.tables ? font.directory.tables : {};
  for (const tag of ['cmap', 'head', 'hhea', 'hmtx', 'maxp', 'name']) if (!tables[tag]) return { ok: false, reason: 'it has no ' + tag + ' table' };
  const outlines = tables['CFF '] || tables.CFF2 ? 'cff' : tables.glyf && tables.loca ? 'truetype' : undefined;
  if (!outlines) return { ok: false, reason: 'it has no glyph outlines (neither glyf nor CFF)' };
  const upem = font.unitsPerEm;
  if (!(upem >= 16 && upem <= 16384)) return { ok: false, reason: 'its unitsPerEm (' + upem + ') is outside 16..16384' };
  const glyphs = font.numGlyphs;
  if (!(glyphs > 1)) return { ok: false, reason: 'it has no glyphs besides .notdef' };
  const characters = font.characterSet.length;
  if (characters === 0) return { ok: false, reason: 'it maps no characters to glyphs' };
  let drawn = 0;
  for (let id = 0; id < Math.min(glyphs, workerData.glyphsChecked); id++) {
    const glyph = font.getGlyph(id);
    if (glyph.path.commands.length === 0) continue;
    const box = glyph.bbox;
    if (![box.minX, box.minY, box.maxX, box.maxY].every(Number.isFinite)) return { ok: false, reason: 'glyph ' + id + ' has an outline without finite bounds' };
    drawn++;
  }
  if (drawn === 0) return { ok: false, reason: 'none of its glyphs has an outline' };
  const name = (key) => { try { const v = font.getName(key); return typeof v === 'string' ? v : undefined; } catch { return undefined; } };
  const family = name('preferredFamily') || name('fontFamily') || font.familyName;
  if (!family) return { ok: false, reason: 'it has no family name' };
  const os2 = tables['OS/2'] ? font['OS/2'] : undefined;
  const weight = os2 && Number.isInteger(os2.usWeightClass) ? os2.usWeightClass : 400;
  return { ok: true, facts: { family: String(family).slice(0, 200), subfamily: String(name('preferredSubfamily') || name('fontSubfamily') || 'Regular').slice(0, 200), weight, glyphs, characters, outlines } };
}
async function shapes() {
  let sfnt = new Uint8Array(workerData.bytes);
  if (workerData.woff2) sfnt = Uint8Array.from(await require(workerData.woff2Path)(sfnt));
  const hb = await import(workerData.harfbuzz);
  const face = new hb.Face(new hb.Blob(sfnt));
  const unicodes = face.collectUnicodes();
  if (!(face.upem > 0) || unicodes.length === 0) return 'HarfBuzz reads no characters from it';
  const sample = Array.from(unicodes.slice(0, 32)).filter((u) => u > 0x20 && u <= 0x10ffff && (u < 0xd800 || u > 0xdfff));
  if (sample.length === 0) return 'it maps no visible characters';
  const buffer = new hb.Buffer();
  buffer.addText(String.fromCodePoint(...sample));
  buffer.guessSegmentProperties();
  hb.shape(new hb.Font(face), buffer);
  if (!buffer.getGlyphInfos().some((g) => g.codepoint !== 0)) return 'HarfBuzz finds no glyph for its characters';
  return undefined;
}
(async () => {
  let answer;
  try {
    answer = check();
    if (answer.ok) {
      const reason = await shapes();
      if (reason) answer = { ok: false, reason };
    }
  } catch (err) { answer = { ok: false, reason: 'it cannot be read (' + String(err && err.message || err).slice(0, 200) + ')' }; }
  parentPort.postMessage(answer);
})();
`;

const invalidFont = (type: AssetMediaType, reason: string) =>
  new ProblemError('invalid_font', {
    detail: `The ${type} body is not a usable font: ${reason}.`,
    issues: [{ path: 'body', message: `is not a valid ${type} font`, keyword: 'contentMediaType' }],
  });

/** Clock ticks per second of /proc's CPU times (USER_HZ): 100 on every Linux the service supports. */
const USER_HZ = 100;

/** CPU time (ms) a thread has used, from /proc/<pid>/task/<tid>/stat; undefined once it is gone. */
function threadCpuMs(thread: string): number | undefined {
  try {
    const stat = readFileSync(`/proc/${thread}/stat`, 'utf8');
    // Fields after the command (which may hold spaces) in its parentheses: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
  } catch {
    return undefined;
  }
}

/** How often the thread's CPU time is read while it runs. */
const SAMPLE_MS = 100;

/**
 * Parses the font on a thread of its own; resolves with what the response reports, or rejects with
 * 400 `invalid_font` naming the reason (a parse error, a missing table, no glyphs, a crash, the
 * thread's memory limit or its CPU budget), or 503 `overloaded` when the machine gave it too little
 * CPU to finish in `wallLimitMs`.
 */
export function checkFont(type: AssetMediaType, bytes: Uint8Array, options: FontCheckOptions = {}): Promise<FontFacts> {
  const cpuBudgetMs = options.cpuBudgetMs ?? 15_000;
  const wallLimitMs = options.wallLimitMs ?? 120_000;
  return new Promise((resolve, reject) => {
    const copy = new Uint8Array(bytes);
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        bytes: copy,
        fontkit: FONTKIT,
        harfbuzz: HARFBUZZ,
        woff2Path: WOFF2,
        woff2: type === 'font/woff2',
        glyphsChecked: GLYPHS_CHECKED,
      },
      transferList: [copy.buffer],
      resourceLimits: options.resourceLimits ?? { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
      env: {},
    });
    let thread: string | null | undefined; // undefined until the thread says which it is; null: its CPU cannot be read
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(wall);
      clearInterval(sampling);
      outcome();
      void worker.terminate();
    };
    const overBudget = () => reject(invalidFont(type, `checking it needed more than ${cpuBudgetMs} ms of CPU`));
    /** True (and the check ended) when the thread has used more CPU than its budget. */
    const spent = () => {
      const used = thread ? threadCpuMs(thread) : undefined;
      if (used === undefined || used <= cpuBudgetMs) return false;
      finish(overBudget);
      return true;
    };
    const sampling = setInterval(spent, SAMPLE_MS);
    const starved = () =>
      reject(new ProblemError('overloaded', { detail: `The font checker got too little CPU to finish in ${wallLimitMs} ms; try again.` }));
    let wall = setTimeout(() => finish(starved), wallLimitMs);
    worker.on('message', (message: { thread: string | null } | { ok: true; facts: FontFacts } | { ok: false; reason: string }) => {
      if ('thread' in message) {
        thread = message.thread;
        if (thread === null) {
          // Its CPU time cannot be read (no /proc): the budget is measured by the clock, as a deadline, from here.
          clearTimeout(wall);
          wall = setTimeout(() => finish(overBudget), cpuBudgetMs);
        }
        return;
      }
      // A check that answered after using more than its budget is refused all the same: the budget, not the sampling, decides.
      if (spent()) return;
      finish(() => (message.ok ? resolve(message.facts) : reject(invalidFont(type, message.reason))));
    });
    worker.once('error', (err: Error & { code?: string }) =>
      finish(() =>
        reject(
          invalidFont(
            type,
            err.code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? 'checking it needed more memory than a font may'
              : `checking it failed (${err.message.slice(0, 200)})`,
          ),
        ),
      ),
    );
    worker.once('exit', (code) => finish(() => reject(invalidFont(type, `checking it stopped the checker (exit ${code})`))));
  });
}
