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

  it('takes a value that starts with -- but is no flag name, as a RUUID can', () => {
    // One RUUID in 4,096 starts with "--"; the CLI run of access/simulate-cli once drew one and sent {door: true}.
    assert.deepEqual(flagsToBody(['--door', '--Zx3_k9QaVbT0cYw1eRf2g', '--position', '-OPEN']), { door: '--Zx3_k9QaVbT0cYw1eRf2g', position: '-OPEN' });
    assert.deepEqual(flagsToBody(['--online', '--door', 'D']), { online: true, door: 'D' });
  });

  it('refuses a stray argument', () => {
    assert.throws(() => flagsToBody(['door', 'D']), /unexpected argument/);
    assert.throws(() => flagsToBody(['--Door', 'D']), /unexpected argument "--Door"/);
  });
});
