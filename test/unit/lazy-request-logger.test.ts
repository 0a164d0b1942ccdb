import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lazyRequestLogger } from '../../src/edge/lazy-request-logger.js';
import { createLogger } from '../../src/logger.js';

describe('lazy request logger', () => {
  const capture = () => {
    const lines: Record<string, unknown>[] = [];
    const parent = createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) });
    let children = 0;
    // Counts the children made of the parent (the children themselves keep pino's own child method).
    const counted = Object.create(parent) as typeof parent;
    counted.child = ((...args: Parameters<typeof parent.child>) => (children++, parent.child(...args))) as typeof parent.child;
    return { parent: counted, lines, children: () => children };
  };

  it('makes no child logger for a request that never logs', () => {
    const { parent, children } = capture();
    lazyRequestLogger(parent, { reqId: 'r-1' }, {});
    assert.equal(children(), 0);
  });

  it('logs through one child with the request bindings, redacted as the parent is, at the parent level', () => {
    const { parent, lines, children } = capture();
    const log = lazyRequestLogger(parent, { reqId: 'r-2' }, {});
    log.debug('below the level');
    log.info({ apiKey: 'us_secret' }, 'first');
    log.error('second');
    assert.equal(children(), 1);
    assert.equal(log.level, 'info');
    assert.deepEqual(
      lines.map((l) => [l.reqId, l.msg, l.apiKey]),
      [
        ['r-2', 'first', '****'],
        ['r-2', 'second', undefined],
      ],
    );
    log.child({ step: 'inner' }).warn('third');
    assert.deepEqual([lines[2]!.reqId, lines[2]!.step, lines[2]!.msg], ['r-2', 'inner', 'third']);
  });
});
