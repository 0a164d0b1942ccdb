import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRange } from '../../src/media/range.js';

describe('HTTP Range parsing', () => {
  it('reads a closed, an open and a suffix range', () => {
    assert.deepEqual(parseRange('bytes=0-9', 100), { kind: 'partial', start: 0, end: 9 });
    assert.deepEqual(parseRange('bytes=90-', 100), { kind: 'partial', start: 90, end: 99 });
    assert.deepEqual(parseRange('bytes=-10', 100), { kind: 'partial', start: 90, end: 99 });
  });

  it('clips an end past the size, and a suffix longer than the file', () => {
    assert.deepEqual(parseRange('bytes=50-500', 100), { kind: 'partial', start: 50, end: 99 });
    assert.deepEqual(parseRange('bytes=-500', 100), { kind: 'partial', start: 0, end: 99 });
  });

  it('is unsatisfiable when the range starts at or past the end, or asks for zero bytes', () => {
    assert.deepEqual(parseRange('bytes=100-', 100), { kind: 'unsatisfiable' });
    assert.deepEqual(parseRange('bytes=-0', 100), { kind: 'unsatisfiable' });
    assert.deepEqual(parseRange('bytes=0-', 0), { kind: 'unsatisfiable' });
  });

  it('ignores an absent, malformed, multi-range or other-unit header (the whole file is sent)', () => {
    for (const header of [undefined, '', 'bytes=5-2', 'bytes=0-1,5-6', 'items=0-5', 'bytes=-', 'bytes=a-b']) {
      assert.deepEqual(parseRange(header, 100), { kind: 'whole' }, String(header));
    }
  });
});
