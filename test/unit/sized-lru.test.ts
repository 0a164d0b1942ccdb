import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SizedLru } from '../../src/sized-lru.js';

describe('SizedLru: values within a total length, least recently used out first', () => {
  it('lets the least recently used go when a new value needs the room; a read counts as a use', () => {
    const lru = new SizedLru<string>(10);
    lru.set('a', 'aaaa');
    lru.set('b', 'bbbb');
    assert.equal(lru.get('a'), 'aaaa');
    lru.set('c', 'cccc');
    assert.equal(lru.get('b'), undefined, 'b was used least recently');
    assert.equal(lru.get('a'), 'aaaa');
    assert.equal(lru.get('c'), 'cccc');
  });

  it('counts a replaced value once, frees a deleted one, and does not hold one larger than the bound', () => {
    const lru = new SizedLru<Buffer>(8);
    lru.set('a', Buffer.alloc(4));
    lru.set('a', Buffer.alloc(6));
    lru.set('b', Buffer.alloc(2));
    assert.equal(lru.get('a')?.length, 6, 'the old value of a no longer counts');
    lru.delete('a');
    lru.set('c', Buffer.alloc(6));
    assert.equal(lru.get('b')?.length, 2);
    lru.set('huge', Buffer.alloc(9));
    assert.equal(lru.get('huge'), undefined);
    assert.equal(lru.get('c')?.length, 6, 'and evicts nothing for it');
  });
});
