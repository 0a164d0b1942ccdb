import { resolve, join } from 'node:path';

export type Region = 'us' | 'eu';
export const REGIONS: readonly Region[] = ['us', 'eu'];

/** The one typed configuration of a Gatehouse process, built from flags, environment and defaults. */
export interface Config {
  region: Region;
  dataDir: string;
  host: string;
  httpPort: number;
  mediaPort: number;
  /**
   * The media host's public base URL (`--public-media-url`, GATEHOUSE_PUBLIC_MEDIA_URL): every media URI handed out
   * starts with it. Null: the media listener's own address (set it behind a load balancer).
   */
  publicMediaUrl: string | null;
  /** Bytes the encoded footage segments may take on disk (GATEHOUSE_MEDIA_CACHE_MB, default 1024). */
  mediaCacheBytes: number;
  wsPort: number;
  databaseUrl: string;
  busUrl: string;
  /** Names this deployment's channels on a shared Redis (`--bus-namespace`); default: derived from the store. */
  busNamespace: string | null;
  /** How long the change log keeps changes for resuming the stream (GATEHOUSE_CHANGE_LOG_RETENTION_DAYS, default 7). */
  changeLogRetentionMs: number;
  /** Bytes a stream connection may have waiting before it is dropped as a slow consumer (GATEHOUSE_STREAM_MAX_BACKLOG_BYTES). */
  streamMaxBacklogBytes: number | null;
  tlsCertFile: string | null;
  tlsKeyFile: string | null;
  /** Serve the REST port over TLS and ask for client certificates (needed by the `api` and `partner-api` schemes). */
  httpTls: boolean;
  /** 32-byte key that encrypts secrets at rest, as hex or base64; generated into the data dir when absent. */
  secretKey: string | null;
  adminToken: string | null;
  /** Outbound HTTP may reach loopback, private and link-local addresses (webhooks, integrations): GATEHOUSE_ALLOW_PRIVATE_OUTBOUND=1. */
  allowPrivateOutbound: boolean;
  /**
   * Outbound HTTP may reach loopback addresses. Default: only while the server listens on loopback only (the
   * laptop case); GATEHOUSE_ALLOW_PRIVATE_OUTBOUND set either way decides it too.
   */
  allowLoopbackOutbound: boolean;
  /** Requests per second per organization (token bucket, burst 10 times that); null: no limit. */
  rateLimit: number | null;
  /** Failed key attempts per minute per client address before they answer 429 until the minute ends. */
  authFailureLimit: number;
  /** A connection that has not sent its whole HTTP request within this time is closed (REST, media, WebSocket ports). */
  requestTimeoutMs: number;
  /** Take the client address from X-Forwarded-For (behind a load balancer): GATEHOUSE_TRUST_PROXY, true or a list of proxy addresses. */
  trustProxy: boolean | string;
  /** Base URL of the badge system's API, against which badge-integration tokens are checked (none: not checked). */
  badgeApiUrl: string | null;
  /** Base URL of the video-analytics system, to which its organization-scoped API keys are handed. */
  analyticsApiUrl: string | null;
  /**
   * Base URL of each integration partner's API, by its kind (GATEHOUSE_PARTNER_API_URLS=BRIVO=https://...,KISI=...):
   * what the partner adapters call (src/domains/integrations/partners/adapter.ts). A partner without one is not called.
   */
  partnerApiUrls: Readonly<Record<string, string>>;
  /**
   * Gatehouse's OAuth client id at each partner whose account the organization links by OAuth
   * (GATEHOUSE_PARTNER_OAUTH_CLIENT_IDS=GOOGLE=abc,DROPBOX=...); the authorize URL is at the partner's API base.
   */
  partnerOAuthClientIds: Readonly<Record<string, string>>;
  outbox: OutboxConfig;
  webhooks: WebhooksConfig;
  smtpUrl: string | null;
  /** Where support tickets, RMAs and feedback are e-mailed (GATEHOUSE_SUPPORT_EMAIL, through smtpUrl); null: stored only. */
  supportEmail: string | null;
  /**
   * The senders of Gatehouse's e-mails, by what they are about: GATEHOUSE_MAIL_FROM (an address, or `Name <address>`)
   * sends both; unset, each has its own `*@gatehouse.invalid` sender.
   */
  mailFrom: MailSenders;
  seed: boolean;
  logLevel: string;
  /** Calls the request journal keeps in memory for the console and `GET /_gatehouse/requests` (GATEHOUSE_JOURNAL_SIZE; 0: none). */
  journalSize: number;
}

/** Who Gatehouse's e-mails come from: support tickets' and shipments' "shipped" mails. */
export interface MailSenders {
  support: string;
  shipping: string;
}

const DEFAULT_MAIL_FROM: MailSenders = {
  support: 'Gatehouse Support <support@gatehouse.invalid>',
  shipping: 'Gatehouse Shipping <shipping@gatehouse.invalid>',
};

/** GATEHOUSE_MAIL_FROM: one sender for every mail, `address` or `Name <address>`; unset: the defaults. */
function mailFrom(value: string | undefined): MailSenders {
  const from = value?.trim();
  if (!from) return DEFAULT_MAIL_FROM;
  if (!/^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/.test(from))
    throw new ConfigError(`GATEHOUSE_MAIL_FROM must be an address or "Name <address>", got "${value}"`);
  return { support: from, shipping: from };
}

/** The durable delivery outbox (src/outbox): polling, claims, retries. */
export interface OutboxConfig {
  pollMs: number;
  /** How long a claimed delivery stays with its instance before another may take it (a crashed instance's rows). */
  leaseMs: number;
  timeoutMs: number;
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** The organization's own webhooks (src/domains/integrations/webhooks). */
export interface WebhooksConfig {
  /** Multiplies the retry schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h): 1 in production, small in tests. */
  retryScale: number;
  timeoutMs: number;
  /** How often the dispatcher reads the change log for changes the bus did not bring. */
  dispatchPollMs: number;
}

/** Flags as the CLI passes them; every one has an environment variable of the same meaning. */
export interface ConfigFlags {
  region?: string;
  dataDir?: string;
  host?: string;
  httpPort?: string | number;
  mediaPort?: string | number;
  publicMediaUrl?: string;
  wsPort?: string | number;
  database?: string;
  bus?: string;
  busNamespace?: string;
  httpTls?: boolean;
  seed?: boolean;
  logLevel?: string;
  rateLimit?: string | number;
  journalSize?: string | number;
}

export class ConfigError extends Error {}

function port(name: string, value: string | number | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(`${name} must be a port number from 0 to 65535, got "${value}"`);
  return n;
}

function positive(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new ConfigError(`${name} must be a positive integer, got "${value}"`);
  return n;
}

function positiveNumber(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new ConfigError(`${name} must be a positive number, got "${value}"`);
  return n;
}

/** Whether a listen address reaches only this machine: 127.0.0.0/8, ::1 or localhost. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h) || /^::ffff:127\./.test(h);
}

/** An absolute http(s) base URL without a trailing slash, query or fragment. */
/** `KIND=url,KIND=url` to a map; a malformed entry is a configuration error. */
function partnerApiUrls(value: string | undefined): Record<string, string> {
  const urls: Record<string, string> = {};
  for (const entry of (value ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const match = /^([A-Z0-9_]+)=(https?:\/\/\S+)$/.exec(entry);
    if (!match) throw new ConfigError(`GATEHOUSE_PARTNER_API_URLS: "${entry}" is not KIND=http(s)://...`);
    urls[match[1]] = match[2].replace(/\/+$/, '');
  }
  return urls;
}

/** `KIND=clientId,...` to a map; a malformed entry is a configuration error. */
function partnerClientIds(value: string | undefined): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const entry of (value ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const match = /^([A-Z0-9_]+)=([\x21-\x7e]+)$/.exec(entry);
    if (!match) throw new ConfigError(`GATEHOUSE_PARTNER_OAUTH_CLIENT_IDS: "${entry}" is not KIND=clientId`);
    ids[match[1]] = match[2];
  }
  return ids;
}

function publicUrl(name: string, value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got "${value}"`);
  }
  if (!/^https?:$/.test(url.protocol) || url.search || url.hash)
    throw new ConfigError(`${name} must be an http(s) URL without query or fragment, got "${value}"`);
  return url.toString().replace(/\/+$/, '');
}

/** The request journal's size: 0 turns it off. */
function journalSize(value: string | number | undefined): number {
  if (value === undefined || value === '') return 500;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 100_000) throw new ConfigError(`journal size must be an integer from 0 to 100000, got "${value}"`);
  return n;
}

function rate(value: string | number | undefined): number | null {
  if (value === undefined || value === '') return null;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new ConfigError(`rate limit must be a positive number of requests per second, got "${value}"`);
  return n;
}

function trustProxy(value: string | undefined): boolean | string {
  if (value === undefined || value === '' || ['0', 'false', 'no', 'off'].includes(value.toLowerCase())) return false;
  return ['1', 'true', 'yes', 'on'].includes(value.toLowerCase()) ? true : value;
}

function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}

export function loadConfig(flags: ConfigFlags = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const region = (flags.region ?? env.GATEHOUSE_REGION ?? 'us').toLowerCase();
  if (!REGIONS.includes(region as Region)) throw new ConfigError(`region must be one of ${REGIONS.join(', ')}, got "${region}"`);
  const dataDir = resolve(flags.dataDir ?? env.GATEHOUSE_DATA_DIR ?? '.gatehouse');
  const databaseUrl = flags.database ?? env.GATEHOUSE_DATABASE_URL ?? `sqlite:${join(dataDir, 'gatehouse.db')}`;
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(databaseUrl)) throw new ConfigError(`database must be sqlite:<file> or postgres://..., got "${databaseUrl}"`);
  const busUrl = flags.bus ?? env.GATEHOUSE_BUS_URL ?? 'memory:';
  if (!/^(memory:|rediss?:\/\/)/.test(busUrl)) throw new ConfigError(`bus must be memory: or redis://..., got "${busUrl}"`);
  const busNamespace = flags.busNamespace ?? env.GATEHOUSE_BUS_NAMESPACE ?? null;
  if (busNamespace !== null && !/^[A-Za-z0-9_.-]{1,64}$/.test(busNamespace)) {
    throw new ConfigError(`bus namespace must be 1 to 64 letters, digits, ".", "_" or "-", got "${busNamespace}"`);
  }
  const host = flags.host ?? env.GATEHOUSE_HOST ?? '127.0.0.1';
  const privateOutbound = env.GATEHOUSE_ALLOW_PRIVATE_OUTBOUND;
  const allowPrivateOutbound = bool(privateOutbound, false);
  return {
    region: region as Region,
    dataDir,
    host,
    httpPort: port('http port', flags.httpPort ?? env.GATEHOUSE_HTTP_PORT, 8080),
    mediaPort: port('media port', flags.mediaPort ?? env.GATEHOUSE_MEDIA_PORT, 8081),
    publicMediaUrl: publicUrl('public media URL', flags.publicMediaUrl ?? env.GATEHOUSE_PUBLIC_MEDIA_URL),
    mediaCacheBytes: Math.round(positiveNumber('GATEHOUSE_MEDIA_CACHE_MB', env.GATEHOUSE_MEDIA_CACHE_MB, 1024) * 1024 * 1024),
    wsPort: port('ws port', flags.wsPort ?? env.GATEHOUSE_WS_PORT, 8443),
    databaseUrl,
    busUrl,
    busNamespace,
    changeLogRetentionMs: positiveNumber('GATEHOUSE_CHANGE_LOG_RETENTION_DAYS', env.GATEHOUSE_CHANGE_LOG_RETENTION_DAYS, 7) * 24 * 60 * 60 * 1000,
    streamMaxBacklogBytes: env.GATEHOUSE_STREAM_MAX_BACKLOG_BYTES
      ? positive('GATEHOUSE_STREAM_MAX_BACKLOG_BYTES', env.GATEHOUSE_STREAM_MAX_BACKLOG_BYTES, 0)
      : null,
    tlsCertFile: env.GATEHOUSE_TLS_CERT || null,
    tlsKeyFile: env.GATEHOUSE_TLS_KEY || null,
    httpTls: flags.httpTls ?? bool(env.GATEHOUSE_HTTP_TLS, false),
    secretKey: env.GATEHOUSE_SECRET_KEY || null,
    adminToken: env.GATEHOUSE_ADMIN_TOKEN || null,
    allowPrivateOutbound,
    allowLoopbackOutbound: privateOutbound === undefined || privateOutbound === '' ? isLoopbackHost(host) : allowPrivateOutbound,
    rateLimit: rate(flags.rateLimit ?? env.GATEHOUSE_RATE_LIMIT),
    authFailureLimit: positive('GATEHOUSE_AUTH_FAILURE_LIMIT', env.GATEHOUSE_AUTH_FAILURE_LIMIT, 600),
    requestTimeoutMs: positive('GATEHOUSE_REQUEST_TIMEOUT_MS', env.GATEHOUSE_REQUEST_TIMEOUT_MS, 10_000),
    trustProxy: trustProxy(env.GATEHOUSE_TRUST_PROXY),
    badgeApiUrl: env.GATEHOUSE_BADGE_API_URL || null,
    analyticsApiUrl: env.GATEHOUSE_ANALYTICS_API_URL || null,
    partnerApiUrls: partnerApiUrls(env.GATEHOUSE_PARTNER_API_URLS),
    partnerOAuthClientIds: partnerClientIds(env.GATEHOUSE_PARTNER_OAUTH_CLIENT_IDS),
    outbox: {
      pollMs: positive('GATEHOUSE_OUTBOX_POLL_MS', env.GATEHOUSE_OUTBOX_POLL_MS, 1000),
      leaseMs: positive('GATEHOUSE_OUTBOX_LEASE_MS', env.GATEHOUSE_OUTBOX_LEASE_MS, 60_000),
      timeoutMs: positive('GATEHOUSE_OUTBOX_TIMEOUT_MS', env.GATEHOUSE_OUTBOX_TIMEOUT_MS, 10_000),
      maxAttempts: positive('GATEHOUSE_OUTBOX_MAX_ATTEMPTS', env.GATEHOUSE_OUTBOX_MAX_ATTEMPTS, 8),
      baseDelayMs: positive('GATEHOUSE_OUTBOX_BASE_DELAY_MS', env.GATEHOUSE_OUTBOX_BASE_DELAY_MS, 2000),
      maxDelayMs: positive('GATEHOUSE_OUTBOX_MAX_DELAY_MS', env.GATEHOUSE_OUTBOX_MAX_DELAY_MS, 15 * 60_000),
    },
    webhooks: {
      retryScale: positiveNumber('GATEHOUSE_WEBHOOK_RETRY_SCALE', env.GATEHOUSE_WEBHOOK_RETRY_SCALE, 1),
      timeoutMs: positive('GATEHOUSE_WEBHOOK_TIMEOUT_MS', env.GATEHOUSE_WEBHOOK_TIMEOUT_MS, 15_000),
      dispatchPollMs: positive('GATEHOUSE_WEBHOOK_DISPATCH_POLL_MS', env.GATEHOUSE_WEBHOOK_DISPATCH_POLL_MS, 2000),
    },
    smtpUrl: env.GATEHOUSE_SMTP_URL || null,
    supportEmail: env.GATEHOUSE_SUPPORT_EMAIL?.trim() || null,
    mailFrom: mailFrom(env.GATEHOUSE_MAIL_FROM),
    seed: flags.seed ?? !bool(env.GATEHOUSE_NO_SEED, false),
    logLevel: flags.logLevel ?? env.GATEHOUSE_LOG_LEVEL ?? 'info',
    journalSize: journalSize(flags.journalSize ?? env.GATEHOUSE_JOURNAL_SIZE),
  };
}
