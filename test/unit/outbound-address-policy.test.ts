import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPublicAddress } from '../../src/net/address-policy.js';
import { retryDelayMs, isRetryableStatus } from '../../src/outbox/backoff.js';

describe('isPublicAddress', () => {
  it('refuses loopback, private, link-local, carrier-grade NAT, unspecified and multicast addresses', () => {
    for (const a of [
      '127.0.0.1',
      '127.8.9.1',
      '10.0.0.1',
      '172.16.5.4',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      'fc00::1',
      'ff02::1',
    ]) {
      assert.equal(isPublicAddress(a), false, a);
    }
  });

  it('refuses IPv4-mapped IPv6 forms of private addresses, dotted or hex', () => {
    assert.equal(isPublicAddress('::ffff:192.168.1.1'), false);
    assert.equal(isPublicAddress('::ffff:c0a8:101'), false);
    assert.equal(isPublicAddress('::ffff:7f00:1'), false);
  });

  it('accepts public addresses of both families', () => {
    for (const a of ['8.8.8.8', '93.184.215.14', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) assert.equal(isPublicAddress(a), true, a);
  });

  it('refuses what is not an address', () => {
    assert.equal(isPublicAddress('localhost'), false);
    assert.equal(isPublicAddress(''), false);
  });
});

describe('retryDelayMs', () => {
  const policy = { baseDelayMs: 1000, maxDelayMs: 60_000 };

  it('doubles with each failed attempt, half of it fixed and half random', () => {
    assert.equal(
      retryDelayMs(1, policy, () => 0),
      500,
    );
    assert.equal(
      retryDelayMs(1, policy, () => 1),
      1000,
    );
    assert.equal(
      retryDelayMs(2, policy, () => 0),
      1000,
    );
    assert.equal(
      retryDelayMs(3, policy, () => 1),
      4000,
    );
    assert.equal(
      retryDelayMs(4, policy, () => 0.5),
      6000,
    );
  });

  it('never exceeds the cap, however many attempts failed', () => {
    assert.equal(
      retryDelayMs(7, policy, () => 1),
      60_000,
    );
    assert.equal(
      retryDelayMs(1000, policy, () => 1),
      60_000,
    );
    assert.equal(
      retryDelayMs(1000, policy, () => 0),
      30_000,
    );
  });
});

describe('isRetryableStatus', () => {
  it('retries server errors, timeouts and rate limits, not other client errors', () => {
    assert.deepEqual([500, 502, 503, 408, 429].map(isRetryableStatus), [true, true, true, true, true]);
    assert.deepEqual([400, 401, 404, 410].map(isRetryableStatus), [false, false, false, false]);
  });
});
