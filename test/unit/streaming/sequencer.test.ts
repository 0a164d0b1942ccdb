import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChangeEvent } from '../../../src/bus/events.js';
import { ChangeSequencer } from '../../../src/streaming/sequencer.js';

const change = (id: number): ChangeEvent => ({
  id,
  orgUuid: 'org',
  entity: 'DOOR',
  entityUuid: `d${id}`,
  type: 'UPDATE',
  deviceUuid: null,
  timestampMs: id,
  update: {},
});

/** A sequencer over an in-memory change log: `log` holds the committed ids. */
function setup(log: number[], gapWaitMs = 20) {
  const delivered: number[] = [];
  const reads: Array<[number, number]> = [];
  const seq = new ChangeSequencer({
    gapWaitMs,
    readRange: async (after, upTo) => {
      reads.push([after, upTo]);
      return log.filter((id) => id > after && id <= upTo).sort((a, b) => a - b).map(change);
    },
    deliver: (e) => delivered.push(e.id),
    onError: (e) => assert.fail(String(e)),
  });
  return { seq, delivered, reads };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('change sequencer', () => {
  it('delivers consecutive ids at once, without reading the log', () => {
    const { seq, delivered, reads } = setup([]);
    seq.start(10);
    for (const id of [11, 12, 13]) seq.accept(change(id));
    assert.deepEqual(delivered, [11, 12, 13]);
    assert.equal(reads.length, 0);
    seq.stop();
  });

  it('holds changes accepted before start, and drops those at or below the starting point', () => {
    const { seq, delivered } = setup([]);
    seq.accept(change(10));
    seq.accept(change(11));
    seq.start(10);
    assert.deepEqual(delivered, [11]);
    seq.stop();
  });

  it('puts changes that commit out of order back in order when the missing one arrives within the wait', async () => {
    const { seq, delivered, reads } = setup([11, 12, 13]);
    seq.start(10);
    seq.accept(change(12));
    seq.accept(change(13));
    assert.deepEqual(delivered, []);
    seq.accept(change(11));
    assert.deepEqual(delivered, [11, 12, 13]);
    await sleep(40);
    assert.equal(reads.length, 0);
    seq.stop();
  });

  it('fills a gap from the change log when the announcement never comes', async () => {
    const { seq, delivered, reads } = setup([11, 12, 13]);
    seq.start(10);
    seq.accept(change(13));
    await sleep(60);
    assert.deepEqual(delivered, [11, 12, 13]);
    assert.deepEqual(reads, [[10, 13]]);
    seq.accept(change(11));
    seq.accept(change(12));
    assert.deepEqual(delivered, [11, 12, 13], 'a change read from the log is not delivered again when announced');
    seq.stop();
  });

  it('skips an id the log does not hold (rolled back), and delivers it late if it shows up after all', async () => {
    const log = [12];
    const { seq, delivered } = setup(log);
    seq.start(10);
    seq.accept(change(12));
    await sleep(60);
    assert.deepEqual(delivered, [12]);
    seq.accept(change(13));
    assert.deepEqual(delivered, [12, 13]);
    log.push(11);
    seq.accept(change(11));
    assert.deepEqual(delivered, [12, 13, 11]);
    seq.accept(change(11));
    assert.deepEqual(delivered, [12, 13, 11], 'a late change is delivered once');
    seq.stop();
  });

  it('drops an announced change the log does not hold (another store on the same bus) without moving the sequence', async () => {
    const { seq, delivered } = setup([11]);
    seq.start(10);
    seq.accept(change(5000));
    await sleep(60);
    assert.deepEqual(delivered, [11], 'the gap up to the foreign id was read through');
    seq.accept(change(12));
    assert.deepEqual(delivered, [11, 12]);
    seq.stop();
  });

  it('delivers held changes in order when the log cannot be read', async () => {
    const delivered: number[] = [];
    const errors: unknown[] = [];
    const seq = new ChangeSequencer({
      gapWaitMs: 10,
      readRange: async () => {
        throw new Error('store down');
      },
      deliver: (e) => delivered.push(e.id),
      onError: (e) => errors.push(e),
    });
    seq.start(10);
    seq.accept(change(14));
    seq.accept(change(12));
    await sleep(50);
    assert.deepEqual(delivered, [12, 14]);
    assert.equal(errors.length, 1);
    seq.accept(change(15));
    assert.deepEqual(delivered, [12, 14, 15]);
    seq.stop();
  });

  it('stops delivering once stopped', async () => {
    const { seq, delivered } = setup([11, 12]);
    seq.start(10);
    seq.accept(change(12));
    seq.stop();
    await sleep(40);
    seq.accept(change(11));
    assert.deepEqual(delivered, []);
  });
});
