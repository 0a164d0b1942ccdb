import { crc32, deflateSync } from 'node:zlib';

/**
 * Real image files made byte by byte, so the tests need no fixtures: a baseline JPEG (8x8 grey, one
 * Huffman code per table), a PNG (RGB, deflated rows, CRCs), and a GIF to rename.
 */

const u16 = (n: number) => [(n >> 8) & 0xff, n & 0xff];
const segment = (marker: number, body: number[]) => [0xff, marker, ...u16(body.length + 2), ...body];

/** An 8x8 greyscale baseline JPEG; `padding` zero bytes of scan data make it as large as a test needs. */
export function makeJpeg(options: { width?: number; height?: number; padding?: number } = {}): Buffer {
  const width = options.width ?? 8;
  const height = options.height ?? 8;
  const head = [
    0xff,
    0xd8, // SOI
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]), // APP0 JFIF
    ...segment(0xdb, [0x00, ...new Array(64).fill(1)]), // DQT: table 0, all ones
    ...segment(0xc0, [8, ...u16(height), ...u16(width), 1, 1, 0x11, 0]), // SOF0: one component
    ...segment(0xc4, [0x00, 1, ...new Array(15).fill(0), 0x00]), // DHT DC 0: one 1-bit code for category 0
    ...segment(0xc4, [0x10, 1, ...new Array(15).fill(0), 0x00]), // DHT AC 0: one 1-bit code for EOB
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]), // SOS
  ];
  // Each 8x8 block: DC "0" (no change), AC "0" (end of block): two bits per block, padded with ones.
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const bits = '00'.repeat(blocks).padEnd(Math.ceil((blocks * 2) / 8) * 8, '1');
  const scan = bits.match(/.{8}/g)!.map((b) => parseInt(b, 2));
  return Buffer.concat([Buffer.from(head), Buffer.from(scan), Buffer.alloc(options.padding ?? 0), Buffer.from([0xff, 0xd9])]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** An RGB PNG of the given size, filled with one colour. */
export function makePng(width = 4, height = 3, rgb: [number, number, number] = [200, 40, 40]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter, no interlace
  const row = Buffer.from([0, ...new Array(width).fill(rgb).flat()]);
  const raw = Buffer.concat(new Array(height).fill(row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 1x1 GIF89a. */
export function makeGif(): Buffer {
  return Buffer.from('47494638396101000100800000000000ffffff2c00000000010001000002024401003b', 'hex');
}
