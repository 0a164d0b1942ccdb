import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { flagsToBody } from '../../src/cli/simulate.js';

describe('gatehouse simulate flags', () => {
  it('turns --kebab-case flags into a camelCase body, keeping values as strings', () => {
    assert.deepEqual(flagsToBody(['--sensor', 'S1', '--co2-ppm', '1800', '--hex', '0123']), { sensor: 'S1', co2Ppm: '1800', hex: '0123' });
  });

  it('reads bare switches as true and --name=value forms', () => {
    assert.deepEqual(flagsToBody(['--door', 'D', '--offline', '--position=OPEN']), { door: 'D', offline: true, position: 'OPEN' });
  });

  it('refuses a stray argument', () => {
    assert.throws(() => flagsToBody(['door', 'D']), /unexpected argument/);
  });
});
