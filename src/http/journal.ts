import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { JsonParts } from '../edge/json-parts.js';

/**
 * The request journal: the last N calls the REST port served (method, path, organization, key id, status,
 * duration, request and response bodies), kept in memory in a ring and read through the control API
 * (`GET /_gatehouse/requests`) and the console. Secrets never enter it: the API key header is kept as a mask
 * and every body field whose name speaks of a secret (password, token, apiKey, secret, ...) is masked.
 */

export interface JournalEntry {
  /** Increasing per process: tells entries apart and orders them. */
  id: number;
  /** When the request arrived (epoch ms). */
  at: number;
  method: string;
  /** The path without the query string. */
  path: string;
  query: string;
  orgUuid: string | null;
  keyId: string | null;
  status: number;
  durationMs: number;
  /** The request headers a client chose (x-auth-*, content-type), secrets masked. */
  requestHeaders: Record<string, string>;
  requestBody: unknown;
  responseBody: unknown;
}

export interface JournalFilter {
  /** Part of the path. */
  path?: string;
  /** An exact status (404) or a class (4xx). */
  status?: string;
  org?: string;
  limit?: number;
}

export const MASK = '***';
/** Field names whose values are secrets (or could be): their values are masked wherever they nest. */
const SECRET_FIELD = /pass(word|code|phrase)?$|secret|token|api_?key|credential|private_?key|authorization|cookie|^pin$|^pin_?code$|^otp$/i;
/** Bodies longer than this (in characters) are cut, so that the ring's memory stays bounded. */
const MAX_BODY_CHARS = 16 * 1024;
/** Paths that are not API calls: the console's assets, the docs and the journal itself. */
const UNJOURNALED = /^\/(console(\/|$)|docs(\/|$)|openapi\.json$|healthz$|favicon\.ico$|_gatehouse\/requests$)/;

/** A copy of a JSON value with every secret-named field's value masked. */
export function maskSecrets(value: unknown, depth = 0): unknown {
  if (depth > 40 || value === null || typeof value !== 'object') return value;
  if (ArrayBuffer.isView(value)) return `(${value.byteLength} bytes)`;
  if (typeof (value as { pipe?: unknown }).pipe === 'function') return '(stream)';
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = SECRET_FIELD.test(k) && v !== null && v !== '' && typeof v !== 'boolean' ? MASK : maskSecrets(v, depth + 1);
  }
  return out;
}

const cutText = (text: string) => `${text.slice(0, MAX_BODY_CHARS)}... (${text.length} characters, cut)`;

/** A value as kept: masked, and cut to text when its JSON is too long. */
function cut(value: unknown): unknown {
  const masked = maskSecrets(value);
  if (masked === null || typeof masked !== 'object') return masked;
  const text = JSON.stringify(masked);
  return text.length > MAX_BODY_CHARS ? cutText(text) : masked;
}

/** A body as kept: parsed JSON masked (and cut when long); other text cut. */
function keptBody(raw: unknown): unknown {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string' && !Buffer.isBuffer(raw)) return cut(raw);
  const text = typeof raw === 'string' ? raw : raw.toString('utf8');
  try {
    return cut(JSON.parse(text));
  } catch {
    return text.length > MAX_BODY_CHARS ? cutText(text) : text;
  }
}

/**
 * A body held by the ring. The common small body is held as it came (the parsed request, the serialized answer)
 * and masked when the journal is read, so that serving a call pays for no copy; a long request is masked and cut at
 * once, a long answer held as the copy of its head.
 */
type HeldBody = { ready: unknown } | { parsed: unknown } | { text: string | Buffer } | { head: Buffer; length: number; unit: 'characters' | 'bytes' };

function held(body: HeldBody): unknown {
  if ('ready' in body) return body.ready;
  if ('parsed' in body) return maskSecrets(body.parsed);
  if ('head' in body) return `${maskSecretsInText(body.head.toString('utf8'))}... (${body.length} ${body.unit}, cut)`;
  return keptBody(body.text);
}

const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

/** The index after the string that opens at `i` (a quote), or the text's end when it is cut inside it. */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 92) j++;
    else if (c === 34) return j + 1;
  }
  return text.length;
}

/** The index after the JSON value that starts at `i` (an object or array with what it nests), or the text's end. */
function valueEnd(text: string, i: number): number {
  const first = text.charCodeAt(i);
  if (first === 34) return stringEnd(text, i);
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 34) j = stringEnd(text, j) - 1;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      if (depth === 0) return j;
      if (--depth === 0) return j + 1;
    } else if (depth === 0 && (c === 44 || isSpace(c))) return j;
  }
  return text.length;
}

/**
 * JSON text, possibly cut short, with every secret-named field's value masked as `maskSecrets` masks it, by a scan
 * of the text: a long answer is held as its first characters, which no longer parse.
 */
export function maskSecretsInText(text: string): string {
  let out = '';
  let copied = 0;
  for (let i = 0; i < text.length;) {
    if (text.charCodeAt(i) !== 34) {
      i++;
      continue;
    }
    const end = stringEnd(text, i);
    let j = end;
    while (j < text.length && isSpace(text.charCodeAt(j))) j++;
    if (text.charCodeAt(j) !== 58 || !SECRET_FIELD.test(text.slice(i + 1, end - 1))) {
      i = end;
      continue;
    }
    let start = j + 1;
    while (start < text.length && isSpace(text.charCodeAt(start))) start++;
    const stop = valueEnd(text, start);
    if (!/^(null|true|false|""|)$/.test(text.slice(start, stop))) {
      out += `${text.slice(copied, start)}"${MASK}"`;
      copied = stop;
    }
    i = stop;
  }
  return out + text.slice(copied);
}

const KEPT_HEADERS = ['content-type', 'x-auth-scheme', 'x-auth-org', 'x-auth-apikey', 'authorization'];

function keptHeaders(request: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const v = request.headers[name];
    if (v === undefined) continue;
    const value = Array.isArray(v) ? v.join(', ') : v;
    out[name] = name === 'x-auth-apikey' || name === 'authorization' ? MASK : value;
  }
  return out;
}

function statusMatches(status: number, wanted: string): boolean {
  const w = wanted.trim().toLowerCase();
  if (/^[1-5]xx$/.test(w)) return Math.floor(status / 100) === Number(w[0]);
  return String(status) === w;
}

/** The ring: a fixed array written round, so that recording is O(1) and memory is bounded by the size. */
type HeldEntry = Omit<JournalEntry, 'requestBody' | 'responseBody'> & { requestBody: HeldBody; responseBody: HeldBody };

export class RequestJournal {
  private readonly ring: (HeldEntry | undefined)[];
  private next = 0;
  private seq = 0;

  constructor(readonly size: number) {
    this.ring = new Array<HeldEntry | undefined>(Math.max(0, size));
  }

  record(entry: Omit<HeldEntry, 'id'>): void {
    if (this.size === 0) return;
    this.ring[this.next] = { id: ++this.seq, ...entry };
    this.next = (this.next + 1) % this.size;
  }

  /** Entries newest first, filtered. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    const out: JournalEntry[] = [];
    const limit = filter.limit ?? this.size;
    for (let i = 1; i <= this.size && out.length < limit; i++) {
      const entry = this.ring[(this.next - i + this.size) % this.size];
      if (!entry) break;
      if (filter.path && !entry.path.toLowerCase().includes(filter.path.toLowerCase())) continue;
      if (filter.status && !statusMatches(entry.status, filter.status)) continue;
      if (filter.org && entry.orgUuid !== filter.org) continue;
      out.push({ ...entry, requestBody: held(entry.requestBody), responseBody: held(entry.responseBody) });
    }
    return out;
  }

  /** How many entries the ring holds now. */
  count(): number {
    return this.ring.reduce((n, e) => n + (e ? 1 : 0), 0);
  }

  clear(): void {
    this.ring.fill(undefined);
    this.next = 0;
  }
}

function heldRequest(request: FastifyRequest): HeldBody {
  const body = request.body;
  if (body === undefined || body === null) return { ready: null };
  if (typeof body !== 'object' || Buffer.isBuffer(body)) return { ready: keptBody(body) };
  const length = Number(request.headers['content-length'] ?? Infinity);
  return length <= MAX_BODY_CHARS ? { parsed: body } : { ready: keptBody(body) };
}

function heldResponse(payload: unknown, contentType: string): HeldBody {
  if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
    if (!contentType.startsWith('application/json') && !contentType.startsWith('text/')) {
      return { ready: `(${contentType || 'binary'} body, ${Buffer.byteLength(payload)} bytes)` };
    }
    if (payload.length <= MAX_BODY_CHARS) return { text: payload };
    // A long answer (a page of records) is held as a copy of its head, masked when read: parsing, masking and
    // writing it again here cost more than building it did. Its length is told in what it was counted in: a
    // string's characters, a Buffer's bytes (decoding it to count its characters is the cost avoided here).
    if (typeof payload === 'string') return { head: Buffer.from(payload.slice(0, MAX_BODY_CHARS)), length: payload.length, unit: 'characters' };
    return { head: Buffer.from(payload.subarray(0, MAX_BODY_CHARS)), length: payload.length, unit: 'bytes' };
  }
  if (payload instanceof JsonParts) {
    const head = payload.head(MAX_BODY_CHARS);
    return payload.byteLength <= MAX_BODY_CHARS ? { text: head } : { head, length: payload.byteLength, unit: 'bytes' };
  }
  return { ready: payload ? '(streamed body)' : null };
}

declare module 'fastify' {
  interface FastifyRequest {
    journalPayload?: unknown;
  }
}

/** Records every request of the app (except the console's assets, the docs and the journal itself) into the journal. */
export function journalRequests(app: FastifyInstance, journal: RequestJournal): void {
  if (journal.size === 0) return;
  app.addHook('onSend', (_request: FastifyRequest, _reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
    _request.journalPayload = payload;
    done(null, payload);
  });
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const [path, query = ''] = request.url.split('?', 2);
    if (!UNJOURNALED.test(path)) {
      const caller = (request as { caller?: { orgUuid?: string; apiKeyId?: string | null } | null }).caller;
      const payload = request.journalPayload;
      journal.record({
        at: Date.now() - Math.round(reply.elapsedTime),
        method: request.method,
        path,
        query,
        orgUuid: caller?.orgUuid ?? null,
        keyId: caller?.apiKeyId ?? null,
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
        requestHeaders: keptHeaders(request),
        requestBody: heldRequest(request),
        responseBody: heldResponse(payload, String(reply.getHeader('content-type') ?? '')),
      });
    }
    done();
  });
}
