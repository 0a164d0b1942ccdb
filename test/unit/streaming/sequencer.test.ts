import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChangeEvent } from '../../../src/store/change-event.js';
import { ChangeSequencer } from '../../../src/streaming/sequencer.js';

const change = (position: number, orgUuid = 'org'): ChangeEvent => ({
  id: position,
  position,
  orgUuid,
  entity: 'DOOR',
  entityUuid: `d${position}`,
  type: 'UPDATE',
  deviceUuid: null,
  timestampMs: position,
  update: {},
});

/** A sequencer over an in-memory change log of one organization: `log` holds its committed positions. */
function setup(log: number[], options: { gapWaitMs?: number; failReads?: number } = {}) {
  const delivered: number[] = [];
  const reads: Array<[number, number]> = [];
  let failures = options.failReads ?? 0;
  const errors: unknown[] = [];
  const seq = new ChangeSequencer({
    gapWaitMs: options.gapWaitMs ?? 20,
    retryMs: 20,
    lastPosition: async () => Math.max(0, ...log),
    lastPositions: async (orgs) => new Map(orgs.map((o) => [o, Math.max(0, ...log)])),
    readRange: async (_org, after, upTo, limit) => {
      reads.push([after, upTo]);
      if (failures-- > 0) throw new Error('log unreachable');
      return log
        .filter((p) => p > after && p <= upTo)
        .sort((a, b) => a - b)
        .slice(0, limit)
        .map((p) => change(p));
    },
    deliver: (e) => delivered.push(e.position),
    onError: (e) => errors.push(e),
  });
  return { seq, delivered, reads, errors, log };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Lets the sequencer's read of the starting position finish. */
const settle = () => sleep(5);

describe('change sequencer (per-organization positions)', () => {
  it('delivers consecutive positions at once, without reading the log', async () => {
    const { seq, delivered, reads, log } = setup([1, 2]);
    void seq.follow('org');
    await settle();
    log.push(3, 4, 5);
    for (const p of [3, 4, 5]) seq.accept(change(p));
    assert.deepEqual(delivered, [3, 4, 5]);
    assert.equal(reads.length, 0);
    seq.stop();
  });

  it('ignores organizations it does not follow, and duplicates', async () => {
    const { seq, delivered } = setup([1]);
    void seq.follow('org');
    await settle();
    seq.accept(change(2, 'other'));
    seq.accept(change(2));
    seq.accept(change(2));
    seq.accept(change(1));
    assert.deepEqual(delivered, [2]);
    seq.stop();
  });

  it('delivers, in order, changes announced while the starting position was read', async () => {
    const { seq, delivered } = setup([1, 2, 3]);
    void seq.follow('org');
    seq.accept(change(3));
    seq.accept(change(2));
    await settle();
    assert.deepEqual(delivered, [2, 3]);
    seq.stop();
  });

  it('puts out-of-order announcements back in order when the missing one arrives within the wait', async () => {
    const { seq, delivered, reads, log } = setup([]);
    void seq.follow('org');
    await settle();
    log.push(1, 2, 3);
    seq.accept(change(2));
    seq.accept(change(3));
    assert.deepEqual(delivered, []);
    seq.accept(change(1));
    assert.deepEqual(delivered, [1, 2, 3]);
    await sleep(40);
    assert.equal(reads.length, 0);
    seq.stop();
  });

  it('reads a gap from the log after the wait (a lost announcement)', async () => {
    const { seq, delivered, reads, log } = setup([]);
    void seq.follow('org');
    await settle();
    log.push(1, 2, 3);
    seq.accept(change(3));
    await sleep(60);
    assert.deepEqual(delivered, [1, 2, 3]);
    assert.deepEqual(reads, [[0, 3]]);
    seq.stop();
  });

  it('drops an announced change that the log does not hold (another deployment)', async () => {
    const { seq, delivered, log } = setup([]);
    void seq.follow('org');
    await settle();
    seq.accept(change(2));
    await sleep(60);
    assert.deepEqual(delivered, []);
    log.push(1);
    seq.accept(change(1));
    assert.deepEqual(delivered, [1]);
    seq.stop();
  });

  it('retries a log it cannot read, and loses nothing', async () => {
    const { seq, delivered, errors, log } = setup([], { failReads: 2 });
    void seq.follow('org');
    await settle();
    log.push(1, 2);
    seq.accept(change(2));
    await sleep(200);
    assert.deepEqual(delivered, [1, 2]);
    assert.equal(errors.length, 2);
    seq.stop();
  });

  it('polls the log for changes no announcement carried', async () => {
    const { seq, delivered, log } = setup([1]);
    void seq.follow('org');
    await settle();
    log.push(2, 3);
    await seq.poll();
    await settle();
    assert.deepEqual(delivered, [2, 3]);
    seq.stop();
  });

  it('follows the store when it is replaced: positions start again', async () => {
    const { seq, delivered, log } = setup([1, 2, 3, 4, 5]);
    void seq.follow('org');
    await settle();
    log.length = 0;
    seq.rebase();
    await settle();
    log.push(1, 2);
    seq.accept(change(1));
    seq.accept(change(2));
    assert.deepEqual(delivered, [1, 2]);
    seq.stop();
  });
});
