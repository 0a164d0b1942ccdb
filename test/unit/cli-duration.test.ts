import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDuration } from '../../src/cli/org-commands.js';

describe('key create --expires-in durations', () => {
  it('reads seconds, minutes, hours and days', () => {
    assert.equal(parseDuration('90s'), 90_000);
    assert.equal(parseDuration('15m'), 900_000);
    assert.equal(parseDuration('12h'), 43_200_000);
    assert.equal(parseDuration(' 30d '), 2_592_000_000);
  });

  it('refuses zero, a bare number, another unit, a fraction or a sign', () => {
    for (const text of ['0d', '30', '1w', '1.5h', '-1d', 'soon', '', '1234567d']) {
      assert.throws(() => parseDuration(text), /is not a duration/, text);
    }
  });
});
