import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { deviceOfFacet, facetId, isRuuid, newRuuid } from '../../src/ids.js';
import { createSecretBox, maskSecret, parseSecretKey } from '../../src/secrets.js';
import { regionOfApiKey, generateApiKey } from '../../src/domains/orgs/keys/api-keys.js';

describe('RUUIDs and facet ids', () => {
  it('makes 22-character URL-safe base-64 RUUIDs from random UUIDs', () => {
    const ids = new Set(Array.from({ length: 1000 }, newRuuid));
    assert.equal(ids.size, 1000);
    for (const id of ids) assert.ok(isRuuid(id), id);
    assert.equal(Buffer.from(newRuuid(), 'base64url').length, 16);
  });

  it('reads the device of a facet id and refuses what is not one', () => {
    const device = newRuuid();
    assert.equal(deviceOfFacet(facetId(device)), device);
    assert.equal(deviceOfFacet(device), null);
    assert.equal(deviceOfFacet(`${device}.`), null);
    assert.equal(deviceOfFacet('short.v0'), null);
  });
});

describe('API keys', () => {
  it('prefixes keys with their region', () => {
    assert.equal(regionOfApiKey(generateApiKey('eu')), 'eu');
    assert.equal(regionOfApiKey('garbage'), null);
  });
});

describe('secret box', () => {
  const box = createSecretBox(parseSecretKey(randomBytes(32).toString('hex')));

  it('seals and opens a secret bound to its record identity', () => {
    const sealed = box.seal('s3cret-token', 'integration:org1:badge:apiToken');
    assert.ok(!sealed.includes('s3cret-token'));
    assert.equal(box.open(sealed, 'integration:org1:badge:apiToken'), 's3cret-token');
  });

  it('refuses a ciphertext moved to another record, or tampered with', () => {
    const sealed = box.seal('s3cret-token', 'a');
    assert.throws(() => box.open(sealed, 'b'));
    const parts = sealed.split('.');
    parts[2] = Buffer.from('XXXXXXXXXXXX').toString('base64url');
    assert.throws(() => box.open(parts.join('.'), 'a'));
  });

  it('refuses a key of the wrong size, and masks values', () => {
    assert.throws(() => parseSecretKey('abcd'));
    assert.equal(maskSecret('abcdefghijkl'), '****ijkl');
    assert.equal(maskSecret('short'), '****');
    assert.equal(maskSecret(null), null);
  });
});
