/**
 * Wiegand frame layouts with facility (or company) and card fields and their parity rules, from the public
 * format definitions (HID's format guidelines; the Proxmark3 project's `wiegand_formats.c` as a cross-check).
 * Bit positions count from 0 = the first bit on the wire (the most significant of the frame); messages name
 * bits 1-based, as the format sheets do.
 */
export interface WiegandFrame {
  bits: number;
  value: bigint;
}

interface ParityRule {
  position: number;
  kind: 'even' | 'odd';
  over: readonly number[];
  /** How the format sheets describe the bit, for the error message. */
  describe: string;
}

export interface WiegandLayout {
  bits: number;
  /** The first field: a facility code, or the company id of the Corporate 1000 formats. */
  prefix: { start: number; length: number; name: 'facility code' | 'company id' };
  card: { start: number; length: number };
  /** In the order they must be checked (a Corporate 1000 overall bit covers the other two). */
  parity: readonly ParityRule[];
}

const range = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, i) => first + i);
/** Two bits of every three from `first` to `last` (first, first+1, skip, first+3, first+4, skip, ...). */
const twoOfThree = (first: number, last: number) => range(first, last).filter((p) => (p - first) % 3 !== 2);

/** The pair-of-halves rule of the 26/33/37-bit formats: a leading even and a trailing odd bit. */
function halves(bits: number, evenOver: [number, number], oddOver: [number, number]): ParityRule[] {
  return [
    { position: 0, kind: 'even', over: range(...evenOver), describe: `leading even parity (bit 1, over bits ${evenOver[0] + 1}-${evenOver[1] + 1})` },
    { position: bits - 1, kind: 'odd', over: range(...oddOver), describe: `trailing odd parity (bit ${bits}, over bits ${oddOver[0] + 1}-${oddOver[1] + 1})` },
  ];
}

/** The Corporate 1000 rule: even and odd bits over interleaved thirds, then an odd bit 1 over everything else. */
function corporate1000(bits: number, evenFirst: number, oddFirst: number): ParityRule[] {
  return [
    { position: 1, kind: 'even', over: twoOfThree(evenFirst, bits - 2), describe: 'even parity (bit 2, over two of every three bits)' },
    { position: bits - 1, kind: 'odd', over: twoOfThree(oddFirst, bits - 3), describe: `odd parity (bit ${bits}, over two of every three bits)` },
    { position: 0, kind: 'odd', over: range(1, bits - 1), describe: `overall odd parity (bit 1, over bits 2-${bits})` },
  ];
}

/** H10301: 26 bits, 8-bit facility code, 16-bit card number. */
export const H10301: WiegandLayout = {
  bits: 26,
  prefix: { start: 1, length: 8, name: 'facility code' },
  card: { start: 9, length: 16 },
  parity: halves(26, [1, 12], [13, 24]),
};

/** H10304: 37 bits, 16-bit facility code, 19-bit card number. */
export const H10304: WiegandLayout = {
  bits: 37,
  prefix: { start: 1, length: 16, name: 'facility code' },
  card: { start: 17, length: 19 },
  parity: halves(37, [1, 18], [18, 35]),
};

/** D10202: 33 bits, 7-bit facility code, 24-bit card number. */
export const D10202: WiegandLayout = {
  bits: 33,
  prefix: { start: 1, length: 7, name: 'facility code' },
  card: { start: 8, length: 24 },
  parity: halves(33, [1, 16], [16, 31]),
};

/** Corporate 1000, 35 bits: 12-bit company id, 20-bit card number. */
export const CORPORATE_1000_35: WiegandLayout = {
  bits: 35,
  prefix: { start: 2, length: 12, name: 'company id' },
  card: { start: 14, length: 20 },
  parity: corporate1000(35, 2, 1),
};

/** Corporate 1000, 48 bits: 22-bit company id, 23-bit card number. */
export const CORPORATE_1000_48: WiegandLayout = {
  bits: 48,
  prefix: { start: 2, length: 22, name: 'company id' },
  card: { start: 24, length: 23 },
  parity: corporate1000(48, 3, 2),
};

function bitAt(frame: WiegandFrame, position: number): number {
  return Number((frame.value >> BigInt(frame.bits - 1 - position)) & 1n);
}

function fieldOf(frame: WiegandFrame, start: number, length: number): number {
  return Number((frame.value >> BigInt(frame.bits - start - length)) & ((1n << BigInt(length)) - 1n));
}

/** The parity bit a rule asks for, given the frame's other bits. */
function expectedParity(frame: WiegandFrame, rule: ParityRule): number {
  const ones = rule.over.reduce((n, p) => n + bitAt(frame, p), 0);
  return rule.kind === 'even' ? ones % 2 : 1 - (ones % 2);
}

export type WiegandDecoding = { ok: true; prefix: number; card: number } | { ok: false; problem: string };

/** Splits a frame into its fields, or says which parity bit is wrong. */
export function decodeWiegand(layout: WiegandLayout, frame: WiegandFrame): WiegandDecoding {
  if (frame.bits !== layout.bits) return { ok: false, problem: `the format has ${layout.bits} bits, not ${frame.bits}` };
  for (const rule of layout.parity) {
    if (bitAt(frame, rule.position) !== expectedParity(frame, rule)) return { ok: false, problem: `${rule.describe} does not match` };
  }
  return { ok: true, prefix: fieldOf(frame, layout.prefix.start, layout.prefix.length), card: fieldOf(frame, layout.card.start, layout.card.length) };
}

export type WiegandEncoding = { ok: true; frame: WiegandFrame } | { ok: false; problem: string };

/**
 * Builds the frame of a facility (or company) code and a card number: the fields in place, then each parity
 * bit in the layout's order (a Corporate 1000 overall bit covers the two before it). Says which field does
 * not fit its bits.
 */
export function encodeWiegand(layout: WiegandLayout, prefix: number, card: number): WiegandEncoding {
  const fits = (value: number, length: number) => Number.isInteger(value) && value >= 0 && BigInt(value) < 1n << BigInt(length);
  if (!fits(prefix, layout.prefix.length))
    return { ok: false, problem: `the ${layout.prefix.name} is ${layout.prefix.length} bits (0-${2 ** layout.prefix.length - 1}), not ${prefix}` };
  if (!fits(card, layout.card.length))
    return { ok: false, problem: `the card number is ${layout.card.length} bits (0-${2 ** layout.card.length - 1}), not ${card}` };
  const at = (start: number, length: number, value: number) => BigInt(value) << BigInt(layout.bits - start - length);
  const frame: WiegandFrame = {
    bits: layout.bits,
    value: at(layout.prefix.start, layout.prefix.length, prefix) | at(layout.card.start, layout.card.length, card),
  };
  for (const rule of layout.parity) {
    if (expectedParity(frame, rule) === 1) frame.value |= 1n << BigInt(layout.bits - 1 - rule.position);
  }
  return { ok: true, frame };
}
