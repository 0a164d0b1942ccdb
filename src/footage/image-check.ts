import { fileTypeFromBuffer } from 'file-type';

/** The two kinds of image the platform takes (faces, logos, floor plans, badge templates, photos). */
export type ImageType = { mime: 'image/jpeg'; ext: 'jpg' } | { mime: 'image/png'; ext: 'png' };

export type ImageCheck = ({ ok: true; width: number; height: number } & ImageType) | { ok: false; reason: string };

const refuse = (reason: string): ImageCheck => ({ ok: false, reason });

/**
 * Decides what an uploaded file really is, by its content, never its name: file-type recognises the magic
 * bytes (and so names what a refused file is instead, a GIF for example), then a structural walk checks
 * that a JPEG or PNG has the segments or chunks an image needs and fits in the bytes received.
 */
export async function checkImage(bytes: Buffer): Promise<ImageCheck> {
  const detected = await fileTypeFromBuffer(bytes);
  if (detected?.mime === 'image/png') return checkPng(bytes);
  if (detected?.mime === 'image/jpeg') return checkJpeg(bytes);
  return refuse(`is not a JPEG or PNG image (its content is ${detected ? detected.mime : 'of no known image type'})`);
}

const PNG_BIT_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

/** Signature, an IHDR chunk first with a valid header, at least one IDAT, and IEND, every chunk inside the file. */
function checkPng(b: Buffer): ImageCheck {
  let pos = 8;
  let width = 0;
  let height = 0;
  let idat = 0;
  while (pos + 12 <= b.length) {
    const length = b.readUInt32BE(pos);
    const type = b.toString('latin1', pos + 4, pos + 8);
    const data = pos + 8;
    if (length > 0x7fffffff || data + length + 4 > b.length) return refuse(`is not a valid PNG image: chunk ${type} runs past the end of the file`);
    if (pos === 8) {
      if (type !== 'IHDR' || length !== 13) return refuse('is not a valid PNG image: it does not start with an IHDR chunk');
      width = b.readUInt32BE(data);
      height = b.readUInt32BE(data + 4);
      const [depth, colour, compression, filter, interlace] = b.subarray(data + 8, data + 13);
      if (width === 0 || height === 0 || width > 0x7fffffff || height > 0x7fffffff) return refuse('is not a valid PNG image: its width or height is 0');
      if (!PNG_BIT_DEPTHS[colour]?.includes(depth) || compression !== 0 || filter !== 0 || interlace > 1) {
        return refuse('is not a valid PNG image: its IHDR header is invalid');
      }
    }
    if (type === 'IDAT') idat++;
    if (type === 'IEND') {
      return idat > 0 ? { ok: true, mime: 'image/png', ext: 'png', width, height } : refuse('is not a valid PNG image: it has no image data');
    }
    pos = data + length + 4;
  }
  return refuse('is not a valid PNG image: it ends before its IEND chunk');
}

const isStartOfFrame = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

/** SOI, marker segments that fit, a frame header with a size before the first scan, and EOI after it. */
function checkJpeg(b: Buffer): ImageCheck {
  let pos = 2;
  let width = 0;
  let height = 0;
  while (pos < b.length) {
    if (b[pos] !== 0xff) return refuse('is not a valid JPEG image: a marker is missing between segments');
    while (pos < b.length && b[pos] === 0xff) pos++; // fill bytes
    if (pos >= b.length) break;
    const marker = b[pos];
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      pos++;
      continue;
    }
    if (marker === 0xd9) return refuse('is not a valid JPEG image: it ends before any image data');
    if (pos + 3 > b.length) break;
    const length = b.readUInt16BE(pos + 1);
    const end = pos + 1 + length;
    if (length < 2 || end > b.length) return refuse('is not a valid JPEG image: a segment runs past the end of the file');
    if (isStartOfFrame(marker)) {
      if (length < 8) return refuse('is not a valid JPEG image: its frame header is truncated');
      height = b.readUInt16BE(pos + 4);
      width = b.readUInt16BE(pos + 6);
      if (width === 0 || height === 0 || b[pos + 8] === 0) return refuse('is not a valid JPEG image: its frame has no size or no components');
    }
    if (marker === 0xda) {
      if (width === 0) return refuse('is not a valid JPEG image: its scan comes before any frame header');
      const eoi = b.lastIndexOf(Buffer.from([0xff, 0xd9]));
      return eoi >= end ? { ok: true, mime: 'image/jpeg', ext: 'jpg', width, height } : refuse('is not a valid JPEG image: it has no end-of-image marker');
    }
    pos = end;
  }
  return refuse('is not a valid JPEG image: it ends before any image data');
}
