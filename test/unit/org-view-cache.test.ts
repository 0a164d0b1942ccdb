import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createOrgViewCache } from '../../src/domains/orgs/org-view-cache.js';
import type { OrgView } from '../../src/domains/orgs/org-settings.service.js';

const view = (name: string) => ({ uuid: 'org', name }) as OrgView;

describe('the organization view cache', () => {
  it('answers a view it read from memory for its TTL, then reads again', async () => {
    const cache = createOrgViewCache(1000);
    let reads = 0;
    const read = async () => view(`read ${++reads}`);
    assert.equal((await cache.view('org', 0, read)).name, 'read 1');
    assert.equal((await cache.view('org', 999, read)).name, 'read 1');
    assert.equal((await cache.view('org', 1000, read)).name, 'read 2');
    assert.equal(reads, 2);
  });

  it('reads again after the organization is forgotten, and keeps the others', async () => {
    const cache = createOrgViewCache(1000);
    await cache.view('a', 0, async () => view('a1'));
    await cache.view('b', 0, async () => view('b1'));
    cache.forget('a');
    assert.equal((await cache.view('a', 1, async () => view('a2'))).name, 'a2');
    assert.equal((await cache.view('b', 1, async () => view('b2'))).name, 'b1');
    cache.clear();
    assert.equal((await cache.view('b', 2, async () => view('b3'))).name, 'b3');
  });

  it('does not keep a view whose read began before a forget: it may predate the write', async () => {
    const cache = createOrgViewCache(1000);
    let finish!: (v: OrgView) => void;
    const slow = cache.view('org', 0, () => new Promise<OrgView>((resolve) => (finish = resolve)));
    cache.forget('org'); // a write committed while the read ran
    finish(view('before the write'));
    assert.equal((await slow).name, 'before the write');
    assert.equal((await cache.view('org', 1, async () => view('after the write'))).name, 'after the write');
  });
});
