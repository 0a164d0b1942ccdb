import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createSegmentCache } from '../../src/footage/segment-cache.js';

describe('the segment cache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gh-segment-cache-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const segment = (fill: number) => Buffer.alloc(1000, fill);

  it('serves the recently used segments from memory, the others from disk, and encodes each once', async () => {
    const cache = createSegmentCache({ dir, maxBytes: 10_000, memoryBytes: 2_500 });
    let encodes = 0;
    const get = (key: string, fill: number) =>
      cache.get(key, async () => {
        encodes++;
        return segment(fill);
      });

    assert.deepEqual(await get('a', 1), segment(1));
    assert.deepEqual(await get('a', 9), segment(1), 'a hit answers the stored bytes');
    assert.equal(encodes, 1);

    // With its file gone, a segment still held in memory is served from there.
    for (const file of readdirSync(dir)) rmSync(join(dir, file));
    assert.deepEqual(await get('a', 9), segment(1));
    assert.equal(encodes, 1);

    // Two more segments push 'a' out of memory (2,500 bytes hold two); its file is gone, so it is encoded again.
    await get('b', 2);
    await get('c', 3);
    assert.deepEqual(await get('a', 4), segment(4));
    assert.equal(encodes, 4);

    // 'b' and 'c' have left memory for the more recent ones and are read back from their files.
    assert.deepEqual(await get('b', 9), segment(2));
    assert.deepEqual(await get('c', 9), segment(3));
    assert.equal(encodes, 4);
    assert.equal(cache.stats().hits, 4);
  });
});
