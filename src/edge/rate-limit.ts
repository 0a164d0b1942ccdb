import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';

/** The platform's answer to a caller over its limit (429, text/plain, with Retry-After). */
export const TOO_MANY_REQUESTS = 'Too many api requests. Enhance your calm.';

/**
 * The two limits of the REST edge (src/http/app.ts):
 * - a token bucket per organization, shared by all its keys: `rate` requests per second, bursts of 10 times
 *   that (GATEHOUSE_RATE_LIMIT / --rate-limit; none when unset);
 * - failed key attempts per client address and minute (GATEHOUSE_AUTH_FAILURE_LIMIT, default 600): past the
 *   limit that address's failed attempts answer 429 until the minute is over; valid keys keep working.
 * Both are shared by the instances of a Redis bus, through Redis; each falls back to this instance's own
 * count while Redis does not answer. Each answers 0 (go on) or the seconds to wait (at least 1).
 */
export interface RequestLimits {
  /** Null when there is no per-organization limit: the edge then skips the check altogether. */
  takeRequest: ((orgUuid: string) => number | Promise<number>) | null;
  keyFailed(address: string): number | Promise<number>;
  close(): Promise<void>;
}

export const BURST_FACTOR = 10;
const MINUTE_MS = 60_000;
const MAX_TRACKED = 100_000;

const secondsFrom = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** An in-memory token bucket per key: refilled continuously at `perSecond`, holding at most `burst`. */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; atMs: number }>();
  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one token: 0 when there was one, else the seconds until there is. */
  take(key: string): number {
    const nowMs = this.now();
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= MAX_TRACKED) this.buckets.clear();
      bucket = { tokens: this.burst, atMs: nowMs };
      this.buckets.set(key, bucket);
    } else {
      bucket.tokens = Math.min(this.burst, bucket.tokens + ((nowMs - bucket.atMs) * this.perSecond) / 1000);
      bucket.atMs = nowMs;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return secondsFrom(((1 - bucket.tokens) * 1000) / this.perSecond);
  }
}

/** In-memory counts of failures per key and clock minute. */
export class MinuteCounts {
  private minute = -1;
  private readonly counts = new Map<string, number>();
  constructor(
    private readonly limit: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one failure: 0 while within the limit, else the seconds until the minute is over. */
  add(key: string): number {
    const nowMs = this.now();
    const minute = Math.floor(nowMs / MINUTE_MS);
    if (minute !== this.minute || this.counts.size >= MAX_TRACKED) {
      this.minute = minute;
      this.counts.clear();
    }
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return count > this.limit ? secondsFrom((minute + 1) * MINUTE_MS - nowMs) : 0;
  }
}

// KEYS[1]: the bucket. ARGV: tokens per ms, burst, tokens wanted. Answers {granted, ms until a token}.
const TAKE_TOKENS = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local want = tonumber(ARGV[3])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or burst
local at = tonumber(b[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local granted = math.min(want, math.floor(tokens))
tokens = tokens - granted
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate) + 1000)
local wait = 0
if granted == 0 then wait = math.ceil((1 - tokens) / rate) end
return {granted, wait}
`;

// KEYS[1]: the address's count of this minute. Answers the count.
const COUNT_FAILURE = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ${2 * MINUTE_MS}) end
return n
`;

type LimitRedis = Redis & {
  takeTokens(key: string, perMs: number, burst: number, want: number): Promise<[number, number]>;
  countFailure(key: string): Promise<number>;
};

/**
 * The organization buckets kept in Redis. Each instance leases tokens in small batches (about a tenth of a
 * second's worth) and spends them locally, so a request costs a Redis round trip only once per batch; a
 * lease not spent within LEASE_MS is dropped, and a refusal is remembered until its wait is over.
 */
class SharedBuckets {
  private readonly leases = new Map<string, { tokens: number; untilMs: number; deniedUntilMs: number; pending: Promise<void> | null }>();
  private readonly batch: number;
  static readonly LEASE_MS = 1000;

  constructor(
    private readonly redis: LimitRedis,
    private readonly prefix: string,
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly fallback: TokenBuckets,
    private readonly onRedisError: (e: unknown) => void,
  ) {
    this.batch = Math.max(1, Math.min(burst, Math.floor(perSecond / 10)));
  }

  take(orgUuid: string): number | Promise<number> {
    let lease = this.leases.get(orgUuid);
    if (!lease) {
      if (this.leases.size >= MAX_TRACKED) this.leases.clear();
      lease = { tokens: 0, untilMs: 0, deniedUntilMs: 0, pending: null };
      this.leases.set(orgUuid, lease);
    }
    const nowMs = Date.now();
    if (lease.tokens >= 1 && lease.untilMs > nowMs) {
      lease.tokens -= 1;
      return 0;
    }
    if (lease.deniedUntilMs > nowMs) return secondsFrom(lease.deniedUntilMs - nowMs);
    return this.refill(orgUuid, lease).then(() => this.take(orgUuid));
  }

  private refill(orgUuid: string, lease: { tokens: number; untilMs: number; deniedUntilMs: number; pending: Promise<void> | null }): Promise<void> {
    lease.pending ??= this.redis
      .takeTokens(this.prefix + 'org:' + orgUuid, this.perSecond / 1000, this.burst, this.batch)
      .then(([granted, waitMs]) => {
        const nowMs = Date.now();
        lease.tokens = Number(granted);
        lease.untilMs = nowMs + SharedBuckets.LEASE_MS;
        lease.deniedUntilMs = Number(granted) > 0 ? 0 : nowMs + Math.max(1, Number(waitMs));
      })
      .catch((e) => {
        this.onRedisError(e);
        // Redis is out of reach: this instance's own bucket decides, for a lease's time.
        const wait = this.fallback.take(orgUuid);
        const nowMs = Date.now();
        lease.tokens = wait === 0 ? 1 : 0;
        lease.untilMs = nowMs + SharedBuckets.LEASE_MS;
        lease.deniedUntilMs = wait === 0 ? 0 : nowMs + wait * 1000;
      })
      .finally(() => {
        lease.pending = null;
      });
    return lease.pending;
  }
}

/** The limits of a configuration; with a Redis bus, shared through that Redis. */
export function createRequestLimits(config: Pick<Config, 'rateLimit' | 'authFailureLimit' | 'busUrl'>, log: Logger, namespace: string): RequestLimits {
  const rate = config.rateLimit;
  const localBuckets = rate ? new TokenBuckets(rate, rate * BURST_FACTOR) : null;
  const localFailures = new MinuteCounts(config.authFailureLimit);
  if (!/^rediss?:\/\//.test(config.busUrl)) {
    return {
      takeRequest: localBuckets ? (org) => localBuckets.take(org) : null,
      keyFailed: (address) => localFailures.add(address),
      close: async () => {},
    };
  }

  // A client of its own (not the bus's): a slow or lost Redis must cost a request little, so no offline
  // queue and a short command timeout; then this instance's own counts decide until Redis is back.
  // ioredis loads only with a Redis bus (most servers have none); it is CommonJS, so it can be required here.
  const { Redis: RedisClient } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
  const redis = new RedisClient(config.busUrl, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 250,
    connectTimeout: 2000,
  }) as LimitRedis;
  // The deployment's namespace (the bus's) in every key, so that deployments sharing a Redis count apart.
  const prefix = `gatehouse:${namespace}:limit:`;
  redis.defineCommand('takeTokens', { numberOfKeys: 1, lua: TAKE_TOKENS });
  redis.defineCommand('countFailure', { numberOfKeys: 1, lua: COUNT_FAILURE });
  let lastWarnMs = 0;
  const onRedisError = (e: unknown) => {
    const nowMs = Date.now();
    if (nowMs - lastWarnMs < 60_000) return;
    lastWarnMs = nowMs;
    log.warn({ component: 'rate-limit', err: (e as Error)?.message }, 'rate limits: Redis does not answer; counting on this instance until it does');
  };
  redis.on('error', () => {});
  redis.connect().catch(onRedisError);
  const shared = rate && localBuckets ? new SharedBuckets(redis, prefix, rate, rate * BURST_FACTOR, localBuckets, onRedisError) : null;
  return {
    takeRequest: shared ? (org) => shared.take(org) : null,
    async keyFailed(address) {
      const nowMs = Date.now();
      const minute = Math.floor(nowMs / MINUTE_MS);
      try {
        const count = await redis.countFailure(`${prefix}auth:${address}:${minute}`);
        return Number(count) > config.authFailureLimit ? secondsFrom((minute + 1) * MINUTE_MS - nowMs) : 0;
      } catch (e) {
        onRedisError(e);
        return localFailures.add(address);
      }
    },
    async close() {
      redis.disconnect();
    },
  };
}
