import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bucketIndex, cutBuckets, localIso } from '../../src/domains/events/reports/report-buckets.js';

const utc = (iso: string) => Date.parse(iso);
const local = (starts: number[], tz: string) => starts.map((s) => localIso(s, tz));

describe('report buckets in a time zone', () => {
  it('makes the spring-forward day 23 hours and the fall-back day 25 hours long', () => {
    const spring = cutBuckets(utc('2024-03-10T05:00:00Z'), utc('2024-03-12T04:00:00Z'), 'DAY', 'America/New_York');
    assert.deepEqual(spring, [utc('2024-03-10T05:00:00Z'), utc('2024-03-11T04:00:00Z')]);
    const fall = cutBuckets(utc('2024-11-03T04:00:00Z'), utc('2024-11-05T05:00:00Z'), 'DAY', 'America/New_York');
    assert.equal(fall[1] - fall[0], 25 * 3_600_000);
  });

  it('skips the missing spring hour and repeats the autumn one', () => {
    const spring = cutBuckets(utc('2024-03-10T05:00:00Z'), utc('2024-03-10T08:00:00Z'), 'HOUR', 'America/New_York');
    assert.deepEqual(local(spring, 'America/New_York'), ['2024-03-10T00:00:00', '2024-03-10T01:00:00', '2024-03-10T03:00:00']);
    const fall = cutBuckets(utc('2024-11-03T04:00:00Z'), utc('2024-11-03T08:00:00Z'), 'HOUR', 'America/New_York');
    assert.deepEqual(local(fall, 'America/New_York'), ['2024-11-03T00:00:00', '2024-11-03T01:00:00', '2024-11-03T01:00:00', '2024-11-03T02:00:00']);
  });

  it('starts a day whose midnight does not exist at its first minute', () => {
    // Santiago moved its clocks from 00:00 to 01:00 on 2024-09-08.
    const days = cutBuckets(utc('2024-09-07T12:00:00Z'), utc('2024-09-09T12:00:00Z'), 'DAY', 'America/Santiago');
    assert.deepEqual(local(days, 'America/Santiago'), ['2024-09-07T00:00:00', '2024-09-08T01:00:00', '2024-09-09T00:00:00']);
  });

  it('cuts hours on the local clock of a half-hour zone, and quarter hours of a :45 zone', () => {
    const hours = cutBuckets(utc('2024-01-01T00:00:00Z'), utc('2024-01-01T02:00:00Z'), 'HOUR', 'Asia/Kolkata');
    assert.deepEqual(local(hours, 'Asia/Kolkata'), ['2024-01-01T05:00:00', '2024-01-01T06:00:00', '2024-01-01T07:00:00']);
    const quarters = cutBuckets(utc('2024-01-01T00:00:00Z'), utc('2024-01-01T00:20:00Z'), 'QUARTER_HOUR', 'Asia/Kathmandu');
    assert.deepEqual(local(quarters, 'Asia/Kathmandu'), ['2024-01-01T05:45:00', '2024-01-01T06:00:00']);
  });

  it('starts weeks on Sunday and months on the first, and has no buckets for an empty range', () => {
    assert.deepEqual(local(cutBuckets(utc('2024-03-13T12:00:00Z'), utc('2024-03-13T13:00:00Z'), 'WEEK', 'UTC'), 'UTC'), ['2024-03-10T00:00:00']);
    assert.deepEqual(local(cutBuckets(utc('2024-02-29T12:00:00Z'), utc('2024-03-02T00:00:00Z'), 'MONTH', 'UTC'), 'UTC'), [
      '2024-02-01T00:00:00',
      '2024-03-01T00:00:00',
    ]);
    assert.deepEqual(cutBuckets(5, 5, 'DAY', 'UTC'), []);
  });

  it('finds the bucket that holds an instant', () => {
    const starts = [10, 20, 30];
    assert.deepEqual(
      [5, 10, 19, 20, 35].map((t) => bucketIndex(starts, t)),
      [-1, 0, 0, 1, 2],
    );
  });
});
