import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shiftWeekIntervals } from '../../src/store/migrations/0000-0099/0012-fidelity.js';
import { intervalProblem, isInsideSchedule, isValidTimeZone, minuteOfWeek } from '../../src/domains/schedules/week-minutes.js';

const at = (iso: string) => Date.parse(iso);
const interval = (minuteOfWeekStart: number, minuteOfWeekStop: number) => ({ minuteOfWeekStart, minuteOfWeekStop });

describe('minuteOfWeek', () => {
  it("counts from Monday 00:00 in the time zone, as the platform's clients do", () => {
    assert.equal(minuteOfWeek(at('2024-01-08T00:00:00Z'), 'UTC'), 0); // a Monday
    assert.equal(minuteOfWeek(at('2024-01-08T08:00:00Z'), 'UTC'), 480); // Monday 08:00
    assert.equal(minuteOfWeek(at('2024-01-09T00:00:00Z'), 'UTC'), 1440); // Tuesday 00:00
    assert.equal(minuteOfWeek(at('2024-01-07T00:00:00Z'), 'UTC'), 6 * 1440); // Sunday 00:00
    assert.equal(minuteOfWeek(at('2024-01-14T23:59:00Z'), 'UTC'), 10079); // Sunday 23:59
  });

  it('reads the wall clock of the location, not UTC', () => {
    // Monday 13:00 UTC is Monday 08:00 in New York in winter (UTC-5).
    assert.equal(minuteOfWeek(at('2024-01-08T13:00:00Z'), 'America/New_York'), 480);
    // Monday 02:00 UTC is still Sunday 21:00 in New York: the week wraps backwards across zones.
    assert.equal(minuteOfWeek(at('2024-01-08T02:00:00Z'), 'America/New_York'), 6 * 1440 + 21 * 60);
  });
});

describe('isInsideSchedule', () => {
  const business = [interval(480, 1080)]; // Monday 08:00 to 18:00

  it('includes the start minute and excludes the stop minute', () => {
    assert.equal(isInsideSchedule(business, at('2024-01-08T13:00:00Z'), 'America/New_York'), true); // 08:00
    assert.equal(isInsideSchedule(business, at('2024-01-08T22:59:00Z'), 'America/New_York'), true); // 17:59
    assert.equal(isInsideSchedule(business, at('2024-01-08T23:00:00Z'), 'America/New_York'), false); // 18:00
    assert.equal(isInsideSchedule(business, at('2024-01-08T12:59:00Z'), 'America/New_York'), false); // 07:59
  });

  it('keeps local business hours across the spring daylight-saving change', () => {
    // After 2024-03-10 New York is UTC-4: Monday 08:00 local is 12:00 UTC, no longer 13:00.
    assert.equal(isInsideSchedule(business, at('2024-03-11T12:00:00Z'), 'America/New_York'), true);
    assert.equal(isInsideSchedule(business, at('2024-03-11T11:59:00Z'), 'America/New_York'), false);
    assert.equal(isInsideSchedule(business, at('2024-03-11T22:00:00Z'), 'America/New_York'), false); // 18:00 EDT
  });

  it('never matches the skipped spring hour and matches the repeated autumn hour twice', () => {
    const sundayTwoToThree = [interval(8640 + 120, 8640 + 180)];
    // 2024-03-10 in New York: 01:59 EST is followed by 03:00 EDT.
    for (let ms = at('2024-03-10T06:00:00Z'); ms < at('2024-03-10T08:00:00Z'); ms += 60_000) {
      assert.equal(isInsideSchedule(sundayTwoToThree, ms, 'America/New_York'), false);
    }
    const sundayOneToTwo = [interval(8640 + 60, 8640 + 120)];
    // 2024-11-03: 01:30 EDT (05:30 UTC) and 01:30 EST (06:30 UTC) are both Sunday 01:30.
    assert.equal(isInsideSchedule(sundayOneToTwo, at('2024-11-03T05:30:00Z'), 'America/New_York'), true);
    assert.equal(isInsideSchedule(sundayOneToTwo, at('2024-11-03T06:30:00Z'), 'America/New_York'), true);
    assert.equal(isInsideSchedule(sundayOneToTwo, at('2024-11-03T07:30:00Z'), 'America/New_York'), false);
  });

  it('covers a night across the end of the week as two intervals', () => {
    const sundayNight = [interval(10020, 10080), interval(0, 60)]; // Sunday 23:00 to Monday 01:00
    assert.equal(isInsideSchedule(sundayNight, at('2024-01-14T23:30:00Z'), 'UTC'), true);
    assert.equal(isInsideSchedule(sundayNight, at('2024-01-15T00:00:00Z'), 'UTC'), true);
    assert.equal(isInsideSchedule(sundayNight, at('2024-01-15T00:59:00Z'), 'UTC'), true);
    assert.equal(isInsideSchedule(sundayNight, at('2024-01-15T01:00:00Z'), 'UTC'), false);
    assert.equal(isInsideSchedule(sundayNight, at('2024-01-14T22:59:00Z'), 'UTC'), false);
  });

  it('is never inside an empty schedule', () => {
    assert.equal(isInsideSchedule([], at('2024-01-08T13:00:00Z'), 'UTC'), false);
  });
});

describe('intervalProblem', () => {
  it('accepts sorted, unsorted and touching intervals', () => {
    assert.equal(intervalProblem([interval(0, 10080)], 'i'), null);
    assert.equal(intervalProblem([interval(3000, 4000), interval(100, 200), interval(200, 300)], 'i'), null);
  });

  it('refuses bounds outside the week, start >= stop, fractions and overlaps, naming the interval', () => {
    assert.equal(intervalProblem([interval(-1, 10)], 'i'), 'i[0]: start and stop must be within 0..10080');
    assert.equal(intervalProblem([interval(0, 10081)], 'i'), 'i[0]: start and stop must be within 0..10080');
    assert.equal(intervalProblem([interval(0, 10), interval(50, 50)], 'i'), 'i[1]: start must be < stop');
    assert.equal(intervalProblem([interval(0, 10.5)], 'i'), 'i[0]: start and stop must be integers');
    assert.equal(intervalProblem([interval(500, 700), interval(100, 600)], 'i'), 'i[0]: overlaps i[1]');
  });
});

describe('isValidTimeZone', () => {
  it('knows IANA names and UTC, and refuses anything else', () => {
    assert.equal(isValidTimeZone('Europe/Berlin'), true);
    assert.equal(isValidTimeZone('UTC'), true);
    assert.equal(isValidTimeZone('Mars/Olympus'), false);
    assert.equal(isValidTimeZone(''), false);
  });
});

describe('shiftWeekIntervals (the migration from the Sunday count)', () => {
  it("moves intervals back one day, cutting the one that crosses the week's end and joining touching ones", () => {
    // Sunday-counted Sunday 23:00 to Monday 18:00, and Saturday 20:00 to Sunday 01:00.
    const sunday = [interval(1380, 2520), interval(9840, 10080), interval(0, 60)];
    assert.deepEqual(shiftWeekIntervals(sunday, -1440), [interval(0, 1080), interval(8400, 8700), interval(10020, 10080)]);
    assert.deepEqual(shiftWeekIntervals(shiftWeekIntervals(sunday, -1440), 1440), [interval(0, 60), interval(1380, 2520), interval(9840, 10080)]);
  });
});
