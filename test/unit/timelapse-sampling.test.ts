import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sampledWindows } from '../../src/domains/events/timelapses/timelapse-sampling.js';
import { sampleTimeExpression, type SampledWindow } from '../../src/footage/render-timelapse.js';

const at = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;

/** The expression evaluated as ffmpeg's setpts does: `gte(a\,b)` is 1 when a >= b, N the frame's number. */
function sampledSeconds(expression: string, n: number): number {
  const js = expression.replace(/gte\(([^\\]+)\\,([^)]+)\)/g, '(($1) >= ($2) ? 1 : 0)').replaceAll('N', String(n));
  return Function(`return (${js});`)() as number;
}

describe('sampledWindows', () => {
  it('samples the whole span when nothing is skipped', () => {
    assert.deepEqual(sampledWindows(at('2025-03-01T00:00:00Z'), at('2025-03-04T00:00:00Z'), {}, 'UTC'), [[0, 72 * HOUR]]);
  });

  it("leaves out the nights on the location's wall clock, across a daylight-saving change", () => {
    // New York: 8 March 2025 is EST (UTC-5), 9 March from 02:00 EDT (UTC-4).
    const start = at('2025-03-08T00:00:00Z');
    const windows = sampledWindows(start, at('2025-03-10T00:00:00Z'), { skipNights: true }, 'America/New_York');
    assert.deepEqual(
      windows.map(([from, to]) => [new Date(start + from).toISOString(), new Date(start + to).toISOString()]),
      [
        ['2025-03-08T00:00:00.000Z', '2025-03-08T01:00:00.000Z'], // Friday 19:00 to 20:00 EST
        ['2025-03-08T11:00:00.000Z', '2025-03-09T01:00:00.000Z'], // 06:00 to 20:00 EST
        ['2025-03-09T10:00:00.000Z', '2025-03-10T00:00:00.000Z'], // 06:00 to 20:00 EDT
      ],
    );
  });

  it('leaves out Saturdays and Sundays, and answers nothing when all is left out', () => {
    const friday = at('2025-03-07T12:00:00Z');
    const windows = sampledWindows(friday, at('2025-03-10T12:00:00Z'), { skipWeekends: true }, 'UTC');
    assert.deepEqual(windows, [
      [0, 12 * HOUR],
      [60 * HOUR, 72 * HOUR],
    ]);
    assert.deepEqual(sampledWindows(at('2025-03-08T01:00:00Z'), at('2025-03-08T05:00:00Z'), { skipNights: true, skipWeekends: true }, 'UTC'), []);
  });
});

describe('sampleTimeExpression', () => {
  it('spreads the frames evenly over the sampled windows, each frame inside one', () => {
    const windows: SampledWindow[] = [
      [6 * HOUR, 20 * HOUR],
      [30 * HOUR, 44 * HOUR],
      [54 * HOUR, 68 * HOUR],
    ];
    const expression = sampleTimeExpression(windows, 21);
    const seconds = Array.from({ length: 21 }, (_, n) => sampledSeconds(expression, n));
    assert.equal(seconds[0], 6 * 3600, 'the first frame is the start of the first window');
    for (const [n, s] of seconds.entries()) {
      assert.ok(
        windows.some(([from, to]) => s * 1000 >= from && s * 1000 < to),
        `frame ${n} at ${s} s lies in a window`,
      );
      if (n > 0) assert.ok(s > seconds[n - 1], 'in time order');
    }
    // 42 hours over 21 frames: one every 2 hours of sampled time.
    assert.equal(seconds[7] - seconds[6], 2 * 3600 + 10 * 3600, 'the night between is skipped');
    assert.equal(seconds[1] - seconds[0], 2 * 3600);
  });
});
