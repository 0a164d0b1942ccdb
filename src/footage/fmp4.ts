/**
 * Fragmented MP4 (ISO/IEC 14496-12) as the DASH and HLS segments need it: ffmpeg writes one file per segment
 * (`ftyp` + `moov`, then `moof` + `mdat`), and this module cuts it into the initialization part (shared by every
 * segment of one size) and the media part, whose decode time (`tfdt`) and sequence number (`mfhd`) are set here:
 * ffmpeg always starts a file at time 0, while a segment must sit at its place on the presentation's time line.
 */

interface Box {
  type: string;
  start: number;
  size: number;
  /** Where the box's payload starts (after the 8- or 16-byte header). */
  body: number;
}

/** The boxes laid one after the other in buf[from, to). */
function boxes(buf: Buffer, from = 0, to = buf.length): Box[] {
  const out: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = buf.readUInt32BE(at);
    let header = 8;
    if (size === 1) {
      size = Number(buf.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) throw new Error(`malformed MP4 box at ${at}`);
    out.push({ type: buf.toString('latin1', at + 4, at + 8), start: at, size, body: at + header });
    at += size;
  }
  return out;
}

const box = (type: string, ...payload: Buffer[]) => {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};

export interface SplitFragment {
  /** `ftyp` + `moov`: what `seg_init.mp4` serves. */
  init: Buffer;
  /** `moof` + `mdat`, its `tfdt` in the 64-bit form (version 1) so that any decode time can be written in place. */
  media: Buffer;
}

/** Cuts ffmpeg's fragmented MP4 into its initialization part and its (first) media fragment. */
export function splitFragmented(file: Buffer): SplitFragment {
  const top = boxes(file);
  const take = (type: string) => {
    const found = top.find((b) => b.type === type);
    if (!found) throw new Error(`no ${type} box in the encoded segment`);
    return found;
  };
  const ftyp = take('ftyp');
  const moov = take('moov');
  const moof = take('moof');
  const mdatIndex = top.indexOf(moof) + 1;
  const mdat = top[mdatIndex];
  if (!mdat || mdat.type !== 'mdat') throw new Error('the segment has no mdat after its moof');
  if (top.filter((b) => b.type === 'moof').length !== 1) throw new Error('the segment has more than one fragment');
  const init = Buffer.concat([file.subarray(ftyp.start, ftyp.start + ftyp.size), file.subarray(moov.start, moov.start + moov.size)]);
  return { init, media: Buffer.concat([widenTfdt(file.subarray(moof.start, moof.start + moof.size)), file.subarray(mdat.start, mdat.start + mdat.size)]) };
}

/** The `moof` with its `tfdt` rewritten as version 1 (64-bit); the `trun` data offsets follow the growth. */
function widenTfdt(moof: Buffer): Buffer {
  const outer = boxes(moof)[0];
  const children = boxes(moof, outer.body, outer.start + outer.size);
  const traf = children.find((b) => b.type === 'traf');
  const tfdt = traf && boxes(moof, traf.body, traf.start + traf.size).find((b) => b.type === 'tfdt');
  if (!traf || !tfdt) throw new Error('the fragment has no tfdt');
  if (moof[tfdt.body] === 1) return Buffer.from(moof);
  const grow = 4;
  const time = BigInt(moof.readUInt32BE(tfdt.body + 4));
  const wide = Buffer.alloc(12);
  wide.writeUInt32BE(0x01000000);
  wide.writeBigUInt64BE(time, 4);
  const trafParts = boxes(moof, traf.body, traf.start + traf.size).map((b) => {
    if (b.type === 'tfdt') return box('tfdt', wide);
    const copy = Buffer.from(moof.subarray(b.start, b.start + b.size));
    // trun: version/flags, sample count, then the data offset when flag 0x1 is set (from the moof's start).
    if (b.type === 'trun' && (copy.readUInt32BE(8) & 0x1) !== 0) copy.writeInt32BE(copy.readInt32BE(16) + grow, 16);
    return copy;
  });
  const parts = children.map((b) => (b.type === 'traf' ? box('traf', ...trafParts) : moof.subarray(b.start, b.start + b.size)));
  return box('moof', ...parts);
}

/**
 * A copy of a media fragment (from `splitFragmented`) placed at `decodeTime` (in the track's timescale) with
 * sequence number `sequence`.
 */
export function placeFragment(media: Buffer, decodeTime: number, sequence: number): Buffer {
  const out = Buffer.from(media);
  const moof = boxes(out)[0];
  for (const child of boxes(out, moof.body, moof.start + moof.size)) {
    if (child.type === 'mfhd') out.writeUInt32BE(sequence >>> 0, child.body + 4);
    if (child.type !== 'traf') continue;
    for (const inner of boxes(out, child.body, child.start + child.size)) {
      if (inner.type === 'tfdt') out.writeBigUInt64BE(BigInt(decodeTime), inner.body + 4);
    }
  }
  return out;
}

/** The samples of a media fragment (`moof` + `mdat`, one track), in decode order: their bytes as stored. */
export function fragmentSamples(media: Buffer): Buffer[] {
  const moof = boxes(media)[0];
  if (!moof || moof.type !== 'moof') throw new Error('the fragment does not start with a moof');
  const traf = boxes(media, moof.body, moof.start + moof.size).find((b) => b.type === 'traf');
  const parts = traf ? boxes(media, traf.body, traf.start + traf.size) : [];
  const tfhd = parts.find((b) => b.type === 'tfhd');
  const trun = parts.find((b) => b.type === 'trun');
  if (!tfhd || !trun) throw new Error('the fragment has no tfhd or trun');
  // tfhd: flags, track id, then its optional fields in order; only the default sample size is wanted here.
  const tfhdFlags = media.readUInt32BE(tfhd.body) & 0xffffff;
  let at = tfhd.body + 8 + (tfhdFlags & 0x1 ? 8 : 0) + (tfhdFlags & 0x2 ? 4 : 0) + (tfhdFlags & 0x8 ? 4 : 0);
  const defaultSize = tfhdFlags & 0x10 ? media.readUInt32BE(at) : 0;
  const flags = media.readUInt32BE(trun.body) & 0xffffff;
  const count = media.readUInt32BE(trun.body + 4);
  at = trun.body + 8;
  const dataOffset = flags & 0x1 ? media.readInt32BE(at) : 0;
  if (flags & 0x1) at += 4;
  if (flags & 0x4) at += 4;
  // Offsets are from the moof's start (default-base-is-moof, as the segments are written).
  let offset = moof.start + dataOffset;
  const samples: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    if (flags & 0x100) at += 4;
    const size = flags & 0x200 ? media.readUInt32BE(at) : defaultSize;
    if (flags & 0x200) at += 4;
    if (flags & 0x400) at += 4;
    if (flags & 0x800) at += 4;
    if (offset + size > media.length) throw new Error('a sample runs past the fragment');
    samples.push(media.subarray(offset, offset + size));
    offset += size;
  }
  return samples;
}

/** The H.264 parameter sets of an initialization segment's `avcC`, and the size of its NAL unit length fields. */
export function avcConfiguration(init: Buffer): { sps: Buffer[]; pps: Buffer[]; lengthSize: number } {
  const at = init.indexOf('avcC', 0, 'latin1');
  if (at < 4) throw new Error('the initialization segment has no avcC');
  let p = at + 4;
  const lengthSize = (init[p + 4]! & 0x3) + 1;
  p += 5;
  const read = (count: number) => {
    const out: Buffer[] = [];
    for (let i = 0; i < count; i++) {
      const size = init.readUInt16BE(p);
      out.push(init.subarray(p + 2, p + 2 + size));
      p += 2 + size;
    }
    return out;
  };
  const sps = read(init[p++]! & 0x1f);
  const pps = read(init[p++]!);
  return { sps, pps, lengthSize };
}
