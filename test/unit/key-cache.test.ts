import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createKeyCache } from '../../src/domains/orgs/keys/key-cache.js';
import type { ApiKeysTable } from '../../src/domains/orgs/tables.js';

const key = (id: string): ApiKeysTable => ({
  id,
  org_uuid: 'org',
  user_uuid: null,
  kind: 'standard',
  digest: `digest-${id}`,
  hint: 'abcd',
  region: 'us',
  cert_fingerprint: null,
  created_at_ms: 0,
  revoked_at_ms: null,
  expires_at_ms: null,
});

describe('the key cache', () => {
  it('keeps a key for its TTL, then reads the store again', () => {
    const cache = createKeyCache(1000);
    cache.set('d1', key('k1'), 0);
    assert.equal(cache.get('d1', 999)?.id, 'k1');
    assert.equal(cache.get('d1', 1000), undefined);
  });

  it('forgets a key by its id, leaving the others', () => {
    const cache = createKeyCache(1000);
    cache.set('d1', key('k1'), 0);
    cache.set('d2', key('k2'), 0);
    cache.forgetKey('k1');
    assert.equal(cache.get('d1', 1), undefined);
    assert.equal(cache.get('d2', 1)?.id, 'k2');
  });
});
