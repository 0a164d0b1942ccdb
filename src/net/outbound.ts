import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Config } from '../config.js';
import { isLoopbackAddress, isPublicAddress } from './address-policy.js';

/** Whether outbound requests may reach private (and link-local, metadata) addresses, and loopback ones. */
export interface OutboundPolicy {
  allowPrivate: boolean;
  /** Loopback only (127.0.0.0/8, ::1); implied by allowPrivate. */
  allowLoopback?: boolean;
}

/** The policy of the configuration, read at each use (see Config.allowPrivateOutbound and allowLoopbackOutbound). */
export function outboundPolicy(config: Pick<Config, 'allowPrivateOutbound' | 'allowLoopbackOutbound'>): OutboundPolicy {
  return { allowPrivate: config.allowPrivateOutbound, allowLoopback: config.allowLoopbackOutbound };
}

/** Whether the policy lets a request reach this address. */
export function allowedAddress(address: string, policy: OutboundPolicy): boolean {
  return policy.allowPrivate || isPublicAddress(address) || (policy.allowLoopback === true && isLoopbackAddress(address));
}

export class OutboundRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefused';
  }
}

/** A URL outbound requests may be sent to: http or https, with a host; the address is checked when connecting. */
export function parseOutboundUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OutboundRefused('not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefused('only http and https URLs are allowed');
  if (!url.hostname) throw new OutboundRefused('the URL has no host');
  return url;
}

const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

function refusal(address: string): OutboundRefused {
  return new OutboundRefused(`${address} is a private, loopback or link-local address`);
}

/**
 * A DNS lookup that refuses private addresses: used as the socket's own lookup, so the address checked is
 * the address connected to (a name that resolves differently on a second lookup cannot slip through).
 */
function guardedLookup(policy: OutboundPolicy): LookupFunction {
  return ((hostname: string, options: object, callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as LookupAddress[];
      const refused = list.find((a) => !allowedAddress(a.address, policy));
      if (refused) return callback(refusal(refused.address), '', 0);
      if ((options as { all?: boolean }).all) return callback(null, list);
      return callback(null, list[0].address, list[0].family);
    });
  }) as LookupFunction;
}

/**
 * Resolves the URL's host and refuses it when any of its addresses is private and the policy does not
 * allow that: for checking a URL when it is configured (sending checks again, at connect time).
 */
export async function checkOutboundUrl(value: string, policy: OutboundPolicy): Promise<URL> {
  const url = parseOutboundUrl(value);
  if (policy.allowPrivate) return url;
  const host = bareHost(url.hostname);
  if (isIP(host)) {
    if (!allowedAddress(host, policy)) throw refusal(host);
    return url;
  }
  // A name that does not resolve (yet) is let through: every connection checks the address it reaches.
  await new Promise<void>((resolve, reject) => guardedLookup(policy)(host, { all: true }, (err) => (err instanceof OutboundRefused ? reject(err) : resolve())));
  return url;
}

export interface OutboundRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** JSON text sent exactly as given (the bytes a signature covers), when there is no `json`. */
  rawJson?: string;
  /** Sent form-encoded (application/x-www-form-urlencoded), when there is no `json`. */
  form?: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  /** The first bytes of the body (at most 64 KiB): enough to read an answer, never a memory hazard. */
  body: string;
  /** The Retry-After header, when the answer has one. */
  retryAfter?: string;
}

const MAX_BODY = 64 * 1024;

/** Sends one HTTP request under the outbound policy, with a whole-request timeout. */
export async function sendOutbound(request: OutboundRequest, policy: OutboundPolicy): Promise<OutboundResponse> {
  const url = parseOutboundUrl(request.url);
  const host = bareHost(url.hostname);
  // A literal address is connected to without a lookup, so it is checked here.
  if (isIP(host) && !allowedAddress(host, policy)) throw refusal(host);
  const form = request.form && new URLSearchParams(request.form).toString();
  const isJson = request.json !== undefined || request.rawJson !== undefined;
  const text = request.json !== undefined ? JSON.stringify(request.json) : (request.rawJson ?? form);
  const payload = text === undefined ? undefined : Buffer.from(text, 'utf8');
  const headers: Record<string, string> = { ...request.headers };
  if (payload) {
    headers['content-type'] ??= isJson ? 'application/json' : 'application/x-www-form-urlencoded';
    headers['content-length'] = String(payload.length);
  }
  const options: RequestOptions = { method: request.method, headers, lookup: guardedLookup(policy), signal: request.signal, timeout: request.timeoutMs };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<OutboundResponse>((resolve, reject) => {
    const req = send(url, options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < MAX_BODY) chunks.push(chunk.subarray(0, MAX_BODY - size));
        size += chunk.length;
      });
      res.on('end', () => {
        clearTimeout(deadline);
        const retryAfter = res.headers['retry-after'];
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ...(retryAfter ? { retryAfter } : {}) });
      });
      res.on('error', reject);
    });
    // `timeout` above only covers idle sockets; the deadline covers a receiver that trickles its answer.
    const deadline = setTimeout(() => req.destroy(new Error(`timed out after ${request.timeoutMs} ms`)), request.timeoutMs);
    req.on('timeout', () => req.destroy(new Error(`timed out after ${request.timeoutMs} ms`)));
    req.on('error', (e) => {
      clearTimeout(deadline);
      reject(e);
    });
    req.end(payload);
  });
}
