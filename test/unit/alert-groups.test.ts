import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { groupAlerts, pageOfGroups, rowsToRead } from '../../src/domains/events/alerts/alert-groups.js';

const at = (...times: number[]) => times.map((timestampMs, i) => ({ timestampMs, id: i }));
const sizes = (groups: Array<{ policyAlerts: unknown[] }>) => groups.map((g) => g.policyAlerts.length);

describe('policy alert grouping', () => {
  it('joins at exactly 2 minutes from the previous alert and splits at one ms more', () => {
    assert.deepEqual(sizes(groupAlerts(at(1_000_000, 880_000, 759_999))), [2, 1]);
  });

  it('caps groups at 50, cutting from the newest', () => {
    assert.deepEqual(sizes(groupAlerts(at(...Array.from({ length: 101 }, (_, k) => 1_000_000 - k)))), [50, 50, 1]);
  });

  it('keeps alerts sharing a timestamp together in order', () => {
    const groups = groupAlerts(at(5, 5, 5));
    assert.deepEqual(groups, [{ startTime: 5, endTime: 5, policyAlerts: at(5, 5, 5) }]);
  });
});

describe('a page of whole groups', () => {
  it('leaves out a last group that may continue past the rows read', () => {
    const rows = at(...Array.from({ length: rowsToRead(60) }, (_, k) => 10_000_000 - k * 1000));
    // 61 rows a second apart: groups of 50 and 11, and the 11 may continue.
    assert.deepEqual(sizes(pageOfGroups(rows, 60)), [50]);
  });

  it('takes the last group when the history ended before the limit', () => {
    assert.deepEqual(sizes(pageOfGroups(at(3_000_000, 2_999_000, 1_000_000), 100)), [2, 1]);
  });

  it('returns a first group larger than maxResults whole, so paging always advances', () => {
    const rows = at(...Array.from({ length: 30 }, (_, k) => 1_000_000 - k));
    assert.deepEqual(sizes(pageOfGroups(rows, 5)), [30]);
  });

  it('stops before a group that would take the page over maxResults', () => {
    const rows = at(10_000_000, 9_999_999, 5_000_000, 4_999_999, 4_999_998, 1_000_000);
    assert.deepEqual(sizes(pageOfGroups(rows, 4)), [2]);
  });
});
