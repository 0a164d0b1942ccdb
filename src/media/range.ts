/**
 * The one byte range of an HTTP `Range` request header (RFC 9110 §14), against a representation of
 * `size` bytes. A header that is absent, of another unit, malformed, or asking for several ranges is
 * ignored (the whole representation is sent, as the RFC allows); a range that starts past the end is
 * unsatisfiable (416).
 */
export type ByteRange = { kind: 'whole' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

const SINGLE_RANGE = /^bytes=\s*(\d*)-(\d*)\s*$/i;

export function parseRange(header: string | undefined, size: number): ByteRange {
  const match = header ? SINGLE_RANGE.exec(header) : null;
  if (!match) return { kind: 'whole' };
  const [, first, last] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    // A suffix: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  return { kind: 'partial', start, end };
}
