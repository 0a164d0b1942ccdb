import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { latestSegment, livePlaylist, LIVE, segmentServable } from '../../src/footage/live.js';

const at = (iso: string) => Date.parse(iso);

describe('live playlist', () => {
  it('lists the newest segments whose time has passed, numbered from the epoch, and serves no segment before its time', () => {
    const now = at('2025-03-08T12:00:05.500Z');
    const latest = latestSegment(now);
    assert.equal((latest + 1) * LIVE.segmentSec * 1000 <= now, true);
    assert.equal((latest + 2) * LIVE.segmentSec * 1000 > now, true);
    const playlist = livePlaylist(now);
    const listed = [...playlist.matchAll(/^(\d+)\.ts$/gm)].map((m) => Number(m[1]));
    assert.deepEqual(
      listed,
      Array.from({ length: LIVE.windowSegments }, (_, i) => latest - LIVE.windowSegments + 1 + i),
    );
    assert.match(playlist, new RegExp(`#EXT-X-MEDIA-SEQUENCE:${listed[0]}\\n`));
    assert.deepEqual(
      [latest + 1, latest, latest - LIVE.retainSegments + 1, latest - LIVE.retainSegments].map((seq) => segmentServable(seq, now)),
      [false, true, true, false],
    );
  });
});
