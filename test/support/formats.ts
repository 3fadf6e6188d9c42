// Recognises each output format by its bytes.
import type { OutputFormat } from '../../src/lib/formats.ts';

export function looksLike(format: OutputFormat, bytes: Buffer): boolean {
  switch (format) {
    case 'png':
      return bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    case 'webp':
      return bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP';
    case 'jpeg':
      // SOI, then the JFIF APP0 segment, and EOI at the end.
      return (
        bytes.subarray(0, 4).equals(Buffer.from([0xff, 0xd8, 0xff, 0xe0])) &&
        bytes.toString('latin1', 6, 11) === 'JFIF\0' &&
        bytes.subarray(-2).equals(Buffer.from([0xff, 0xd9]))
      );
    case 'gif':
      return bytes.subarray(0, 6).toString('latin1') === 'GIF89a';
    case 'mp4': {
      // ISO BMFF with the index (moov) before the media data (mdat): "faststart", streamable in a browser.
      const text = bytes.toString('latin1');
      return bytes.subarray(4, 8).toString('latin1') === 'ftyp' && text.indexOf('moov') > 0 && text.indexOf('moov') < text.indexOf('mdat');
    }
    case 'svg':
      return (
        /^(<\?xml[^>]*>\s*)?<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/.test(bytes.toString('utf8')) &&
        bytes.toString('utf8').trimEnd().endsWith('</svg>')
      );
    case 'css':
      return /\.[a-z][\w-]*\s*\{[^}]*--[\w-]+\s*:/.test(bytes.toString('utf8'));
  }
}
