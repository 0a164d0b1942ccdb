import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodePageKey, encodePageKey } from '../../../src/store/page-key.js';

describe('page keys', () => {
  it('round-trips the keyset position it encodes', () => {
    assert.deepEqual(decodePageKey(encodePageKey([1_700_000_000_000, 42]), ['number', 'number'] as const), [1_700_000_000_000, 42]);
    assert.deepEqual(decodePageKey(encodePageKey(['Front Door', 'AAAAAAAAAAAAAAAAAAAAAA']), ['string', 'string'] as const), [
      'Front Door',
      'AAAAAAAAAAAAAAAAAAAAAA',
    ]);
  });

  it('refuses a key of another shape, another operation, or no key at all', () => {
    const refused = (key: string, shape: readonly ('string' | 'number')[]) =>
      assert.throws(() => decodePageKey(key, shape), /lastEvaluatedKey: not a key this operation returned/);
    refused(encodePageKey(['Front Door', 'x']), ['number', 'number']);
    refused(encodePageKey([1]), ['number', 'number']);
    refused(encodePageKey([1.5, 2]), ['number', 'number']);
    refused('%%%', ['number', 'number']);
    refused(Buffer.from('{"a":1}').toString('base64url'), ['number', 'number']);
  });
});
