// The encoders' per-architecture pinning and the rewrites that make x86-64's and arm64's FFmpeg
// builds write the same files (test/determinism/arm64.test.ts checks the whole under qemu-aarch64).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import {
  canonicalPalette,
  cpuPin,
  ffmpegPasses,
  gifWithoutRepeatedPalettes,
  mp4WithoutConstraintClaims,
  startMotionEncoder,
} from './encoders.ts';
import { resolveFfmpeg } from './ffmpeg.ts';
import { CURRENT_ENGINE_PROFILE as profile } from './engine-profiles.ts';

const X86_NAMES = /mmx|sse|avx|cmov|cache64/i;
const options = { format: 'mp4', width: 32, height: 16, fps: 10, profile } as const;

test('no x86 instruction set is named on arm64, and other architectures run C', () => {
  for (const format of ['mp4', 'gif'] as const) {
    const arm = ffmpegPasses({ ...options, format }, '/tmp/x', cpuPin('arm64')).flat();
    assert.doesNotMatch(arm.join(' '), X86_NAMES);
    assert.equal(arm[arm.indexOf('-cpuflags') + 1], 'armv8+neon+vfp');
    const x86 = ffmpegPasses({ ...options, format }, '/tmp/x', cpuPin('x64')).flat();
    assert.equal(x86[x86.indexOf('-cpuflags') + 1], 'mmx+mmxext+sse+sse2+sse3+ssse3+sse4.1+sse4.2+cmov');
  }
  const mp4 = (arch: NodeJS.Architecture) => ffmpegPasses(options, '/tmp/x', cpuPin(arch))[0];
  const asm = (args: string[]) => args[args.indexOf('-x264-params') + 1];
  assert.equal(asm(mp4('x64')), 'asm=MMX2');
  assert.equal(asm(mp4('arm64')), 'asm=0');
  assert.deepEqual(cpuPin('riscv64'), { cpuflags: '0', x264Asm: '0' });
  // Every pass of every format starts from the pinned flags.
  for (const pass of ffmpegPasses({ ...options, format: 'gif' }, '/tmp/x', cpuPin('arm64')))
    assert.equal(pass[pass.indexOf('-cpuflags') + 1], 'armv8+neon+vfp');
});

/** A palette as palettegen writes it: `found` colours, `pad` up to entry 254, the transparent entry. */
function palette(found: number[], pad: 'black' | 'repeat'): Buffer {
  const out = Buffer.alloc(1024);
  for (let i = 0; i < 255; i++) {
    const colour = i < found.length ? found[i] : pad === 'black' ? 0x000000ff : found[found.length - 1];
    out.writeUInt32BE(colour >>> 0, 4 * i);
  }
  out.writeUInt32BE(0x00ff0000, 4 * 255);
  return out;
}

test("canonicalPalette gives arm64's palette x86-64's padding and leaves x86-64's alone", () => {
  const found = [0x1d1036ff, 0x1e1037ff, 0xfdc974ff];
  const x86 = palette(found, 'black');
  assert.deepEqual(canonicalPalette(palette(found, 'repeat')), x86);
  assert.deepEqual(canonicalPalette(x86), x86);
  // A last colour that is black: both builds already agree.
  assert.deepEqual(canonicalPalette(palette([0x102030ff, 0x000000ff], 'repeat')), palette([0x102030ff, 0x000000ff], 'black'));
  // No padding at all (255 colours and the transparent entry): unchanged.
  const full = palette(
    Array.from({ length: 255 }, (_, i) => ((i << 8) | 0xff) >>> 0),
    'black',
  );
  assert.deepEqual(canonicalPalette(full), full);
});

// A gif of 2×1 pixels: a global table of two colours, then three frames (the first and third with
// a local table equal to it, the third interlaced; the second with a table of its own).
const GLOBAL = [0, 0, 0, 255, 255, 255];
const OTHER = [255, 0, 0, 0, 0, 255];
const LZW = [0x02, 0x02, 0x44, 0x0a, 0x00]; // minimum code size 2; clear, 0, 1, end
const gce = [0x21, 0xf9, 0x04, 0x04, 0x0a, 0x00, 0x00, 0x00];
const image = (packed: number, table: number[]) => [0x2c, 0, 0, 0, 0, 2, 0, 1, 0, packed, ...table, ...LZW];
function craftedGif(frames: number[][]): Buffer {
  const head = [...Buffer.from('GIF89a'), 2, 0, 1, 0, 0x80, 0, 0, ...GLOBAL];
  const comment = [0x21, 0xfe, 0x03, 0x61, 0x62, 0x63, 0x00];
  return Buffer.from([...head, ...comment, ...frames.flatMap((f) => [...gce, ...f]), 0x3b]);
}

test('a local colour table equal to the global one is left out, any other kept', () => {
  const gif = craftedGif([image(0x80, GLOBAL), image(0x80, OTHER), image(0xc0, GLOBAL)]);
  const expected = craftedGif([image(0x00, []), image(0x80, OTHER), image(0x40, [])]);
  assert.deepEqual(gifWithoutRepeatedPalettes(gif), expected);
  // Nothing to leave out, or not a gif it can walk: the very same buffer.
  assert.equal(gifWithoutRepeatedPalettes(expected), expected);
  const truncated = gif.subarray(0, 40);
  assert.equal(gifWithoutRepeatedPalettes(truncated), truncated);
  const notGif = Buffer.from('not a gif at all');
  assert.equal(gifWithoutRepeatedPalettes(notGif), notGif);
});

/** An ISO BMFF box. */
const box = (type: string, ...payload: Buffer[]) => {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};
function craftedMp4(profile: number, constraints: number): Buffer {
  const sps = [0x67, profile, constraints, 31, 0xac, 0xd9];
  const avcC = Buffer.from([1, profile, constraints, 31, 0xff, 0xe1, 0, sps.length, ...sps, 1, 0, 2, 0x68, 0xef]);
  const avc1 = box('avc1', Buffer.alloc(78), box('avcC', avcC));
  const stsd = box('stsd', Buffer.from([0, 0, 0, 0, 0, 0, 0, 1]), avc1);
  const moov = box('moov', box('mvhd', Buffer.alloc(100)), box('trak', box('mdia', box('minf', box('stbl', stsd)))));
  return Buffer.concat([box('ftyp', Buffer.from('isom')), moov, box('mdat', Buffer.from([0, 0, 0, 2, 0x65, 0x88]))]);
}

test("the High profile's constraint_set4/5 claims are cleared in avcC, nothing else", () => {
  assert.deepEqual(mp4WithoutConstraintClaims(craftedMp4(100, 0x08)), craftedMp4(100, 0x00));
  assert.deepEqual(mp4WithoutConstraintClaims(craftedMp4(100, 0x1c)), craftedMp4(100, 0x10));
  const baseline = craftedMp4(66, 0x4c);
  assert.equal(mp4WithoutConstraintClaims(baseline), baseline);
  const clean = craftedMp4(100, 0);
  assert.equal(mp4WithoutConstraintClaims(clean), clean);
  const noMoov = Buffer.concat([box('ftyp', Buffer.from('isom')), box('mdat', Buffer.alloc(4))]);
  assert.equal(mp4WithoutConstraintClaims(noMoov), noMoov);
});

const ffmpeg = resolveFfmpeg(process.env.FFMPEG_PATH);
const scratch = mkdtempSync(path.join(tmpdir(), 'encoders-test-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

async function encode(format: 'gif' | 'mp4'): Promise<Buffer> {
  const encoder = await startMotionEncoder({
    ffmpegPath: ffmpeg!.path,
    format,
    width: 48,
    height: 32,
    fps: 10,
    profile,
    timeoutMs: 60_000,
  });
  for (let f = 0; f < 6; f++) {
    const frame = new Uint8Array(48 * 32 * 4);
    for (let i = 0; i < frame.length; i += 4) frame.set([(i / 4 + f * 7) % 256, (i / 64) % 256, f * 40, 255], i);
    await encoder.writeFrame(frame);
  }
  return encoder.finish();
}

/** FFmpeg's decoded frames of a file, as md5 per frame. */
function decoded(file: Buffer, name: string): string {
  const at = path.join(scratch, name);
  writeFileSync(at, file);
  return execFileSync(ffmpeg!.path, ['-hide_banner', '-loglevel', 'error', '-i', at, '-f', 'framemd5', '-'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .join('\n');
}

test(
  "real output: arm64's repeated palette and constraint flag put into this machine's files come out again exactly",
  {
    skip: ffmpeg ? false : 'FFmpeg is required',
  },
  async () => {
    const gif = await encode('gif');
    assert.equal(gif.subarray(0, 6).toString('latin1'), 'GIF89a');
    // As arm64's build writes it: the first frame carries the global table again.
    const table = gif.subarray(13, 13 + (3 << ((gif[10] & 7) + 1)));
    let first = 13 + table.length;
    while (gif[first] === 0x21) {
      // An extension: its label, then data sub-blocks up to a zero length.
      first += 2;
      while (gif[first] !== 0) first += gif[first] + 1;
      first++;
    }
    assert.ok(gif[first] === 0x2c && (gif[first + 9] & 0x80) === 0, 'the first image descriptor, without a table of its own');
    const armLike = Buffer.concat([
      gif.subarray(0, first + 9),
      Buffer.from([gif[first + 9] | 0x80 | (gif[10] & 7)]),
      table,
      gif.subarray(first + 10),
    ]);
    assert.equal(decoded(armLike, 'arm.gif'), decoded(gif, 'x86.gif'), 'the same pictures either way');
    assert.deepEqual(gifWithoutRepeatedPalettes(armLike), gif);

    const mp4 = await encode('mp4');
    const avcC = mp4.indexOf('avcC') + 4;
    assert.equal(mp4[avcC + 1], 100, 'High profile');
    assert.equal(mp4[avcC + 2] & 0x0c, 0, 'no constraint_set4/5 claim left');
    const claimed = Buffer.from(mp4);
    claimed[avcC + 2] |= 0x08;
    claimed[avcC + 8 + 2] |= 0x08;
    assert.deepEqual(mp4WithoutConstraintClaims(claimed), mp4);
    // No x264 version SEI: its text begins "x264 - core".
    assert.equal(mp4.indexOf('x264 - core'), -1);
  },
);
