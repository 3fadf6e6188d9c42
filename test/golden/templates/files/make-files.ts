// Writes the uploaded-format fixtures of the template goldens once (they are committed; an encoder
// upgrade must not change a golden's input): the fixture photo as a JPEG whose pixels are stored
// turned a quarter (EXIF orientation 6, which the upload applies), and the fixture logo as a lossy
// WebP with alpha.   node --import tsx test/golden/templates/files/make-files.ts
import { writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { logoRgba, photoRgba } from '../template-fixtures.ts';

const dir = new URL('./', import.meta.url);
const raw = (rgba: Uint8Array, width: number, height: number) => sharp(Buffer.from(rgba), { raw: { width, height, channels: 4 } });

// Stored turned 90° anticlockwise; orientation 6 tells a viewer (and the upload) to turn it back.
const turned = await raw(photoRgba(), 480, 600).rotate(270).flatten().raw().toBuffer({ resolveWithObject: true });
writeFileSync(
  new URL('photo.jpg', dir),
  await sharp(turned.data, { raw: turned.info })
    .jpeg({ quality: 85, chromaSubsampling: '4:2:0' })
    .withMetadata({ orientation: 6 })
    .toBuffer(),
);
writeFileSync(new URL('logo.webp', dir), await raw(logoRgba(), 256, 256).webp({ quality: 80, alphaQuality: 90 }).toBuffer());
