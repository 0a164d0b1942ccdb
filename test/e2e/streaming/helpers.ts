import { Client, type IMessage, type IStompSocket, type StompConfig } from '@stomp/stompjs';
import WebSocket from 'ws';
import { systemActor } from '../../../src/deps.js';
import type { Deps } from '../../../src/deps.js';
import { write } from '../../../src/bus/write.js';
import { rawChange, type RawChange } from '../../helpers/changes.js';
import type { StreamOptions } from '../../../src/streaming/options.js';
import { startStream, type StreamServer } from '../../../src/streaming/server.js';
import { loadOrCreateTls } from '../../../src/tls.js';
import type { TestServer } from '../../helpers/server.js';

/** Raises changes of an organization the way every domain does: one audited write, announced after commit. */
export async function raiseChanges(deps: Deps, orgUuid: string, changes: Array<Partial<RawChange>>): Promise<void> {
  await write(deps, systemActor(orgUuid, 'test.raise'), async (w) => {
    for (const c of changes) {
      w.change(rawChange({ entity: 'DOOR', entityUuid: 'door-1', type: 'UPDATE', deviceUuid: null, update: {}, ...c }));
    }
  });
}

export interface HandshakeAuth {
  key?: string;
  scheme?: string;
  org?: string;
  /** Send x-auth-org in the query rather than a header. */
  orgInQuery?: boolean;
}

export function streamUrl(base: string, auth: HandshakeAuth): string {
  const url = new URL(base);
  if (auth.scheme !== undefined) url.searchParams.set('x-auth-scheme', auth.scheme);
  if (auth.org && auth.orgInQuery) url.searchParams.set('x-auth-org', auth.org);
  return url.toString();
}

function handshakeHeaders(auth: HandshakeAuth): Record<string, string> {
  const headers: Record<string, string> = {};
  if (auth.key) headers['x-auth-apikey'] = auth.key;
  if (auth.org && !auth.orgInQuery) headers['x-auth-org'] = auth.org;
  return headers;
}

export interface Frame {
  command: string;
  headers: Record<string, string>;
  body: string;
}

const deadline = <T>(ms: number, what: string, p: Promise<T>): Promise<T> =>
  Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms).unref())]);

/**
 * A deliberately strict STOMP client, as the platform's own clients behave: one frame per WebSocket
 * text message, LF line endings only, and the first frame must be CONNECTED. It parses frames on its own,
 * independently of the server's codec.
 */
export class StrictClient {
  readonly frames: Frame[] = [];
  /** Bare heart-beat EOLs received. */
  heartbeats = 0;
  closeCode: number | null = null;
  private waiters: Array<() => void> = [];
  readonly closed: Promise<number>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary) throw new Error('server sent a binary WebSocket message: STOMP frames go as text');
      const text = data.toString('utf8');
      if (text === '\n') this.heartbeats += 1;
      else this.frames.push(StrictClient.parse(text));
      this.wake();
    });
    this.closed = new Promise((resolve) => ws.on('close', (code) => ((this.closeCode = code), this.wake(), resolve(code))));
  }

  static parse(text: string): Frame {
    if (text.includes('\r')) throw new Error(`server sent CR in a frame: ${JSON.stringify(text)}`);
    if (!text.endsWith('\0')) throw new Error(`frame is not NUL terminated: ${JSON.stringify(text)}`);
    const split = text.indexOf('\n\n');
    if (split < 0) throw new Error(`frame has no header end: ${JSON.stringify(text)}`);
    const [command, ...lines] = text.slice(0, split).split('\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon <= 0) throw new Error(`bad header line ${JSON.stringify(line)}`);
      headers[line.slice(0, colon)] ??= line.slice(colon + 1);
    }
    const body = text.slice(split + 2, -1);
    if (headers['content-length'] !== undefined && Number(headers['content-length']) !== Buffer.byteLength(body)) {
      throw new Error(`content-length ${headers['content-length']} but body has ${Buffer.byteLength(body)} bytes`);
    }
    return { command: command!, headers, body };
  }

  /** Opens the WebSocket; resolves with the client, or with the HTTP status and body of a refused handshake. */
  static open(base: string, auth: HandshakeAuth): Promise<StrictClient | { status: number; body: string }> {
    return deadline(
      5000,
      'the handshake',
      new Promise((resolve, reject) => {
        const ws = new WebSocket(streamUrl(base, auth), ['v12.stomp'], { headers: handshakeHeaders(auth), rejectUnauthorized: false });
        ws.once('open', () => resolve(new StrictClient(ws)));
        ws.once('unexpected-response', (_req, res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        ws.once('error', reject);
      }),
    );
  }

  /** Opens and sends CONNECT; requires CONNECTED as the first frame. */
  static async connect(base: string, auth: HandshakeAuth, connectHeaders = 'accept-version:1.2\nheart-beat:0,0\n'): Promise<StrictClient> {
    const client = await StrictClient.open(base, auth);
    if (!(client instanceof StrictClient)) throw new Error(`handshake refused: ${client.status} ${client.body}`);
    client.send(`CONNECT\n${connectHeaders}\n\0`);
    const first = await client.next();
    if (client.heartbeats > 0) throw new Error('a heart-beat arrived before CONNECTED');
    if (first.command !== 'CONNECTED') throw new Error(`first frame is ${first.command}: ${JSON.stringify(first)}`);
    return client;
  }

  send(text: string | Buffer): void {
    this.ws.send(text);
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** Waits until `test` holds (checked on every frame, heart-beat and close). */
  async until(test: () => boolean, what: string, ms = 5000): Promise<void> {
    await deadline(
      ms,
      what,
      (async () => {
        while (!test()) await new Promise<void>((r) => this.waiters.push(r));
      })(),
    );
  }

  private read = 0;
  /** The next frame not read yet. */
  async next(ms = 5000): Promise<Frame> {
    await this.until(() => this.frames.length > this.read || this.closeCode !== null, 'a frame', ms);
    if (this.frames.length <= this.read) throw new Error(`connection closed (${this.closeCode}) with no further frame`);
    return this.frames[this.read++]!;
  }

  /** The ERROR frame that ends the connection, once the connection has closed. */
  async expectErrorAndClose(ms = 5000): Promise<Frame> {
    const frame = await this.next(ms);
    if (frame.command !== 'ERROR') throw new Error(`expected ERROR, got ${frame.command}: ${JSON.stringify(frame)}`);
    await deadline(ms, 'the close', this.closed);
    return frame;
  }

  close(): void {
    this.ws.terminate();
  }
}

/** A @stomp/stompjs client over real TLS (self-signed certificate accepted), activated; resolves once connected. */
export async function stompjsClient(base: string, auth: HandshakeAuth, config: StompConfig = {}): Promise<Client> {
  const client = new Client({
    reconnectDelay: 0,
    heartbeatIncoming: 0,
    heartbeatOutgoing: 0,
    ...config,
    webSocketFactory: () =>
      new WebSocket(streamUrl(base, auth), ['v12.stomp', 'v11.stomp', 'v10.stomp'], {
        headers: handshakeHeaders(auth),
        rejectUnauthorized: false,
      }) as unknown as IStompSocket,
  });
  await deadline(
    5000,
    'stompjs CONNECTED',
    new Promise<void>((resolve, reject) => {
      client.onConnect = () => resolve();
      client.onStompError = (f) => reject(new Error(`ERROR ${f.headers.message}`));
      client.onWebSocketClose = (e) => reject(new Error(`closed ${e.code}`));
      client.activate();
    }),
  );
  return client;
}

let receipts = 0;
/** Subscribes and collects the messages; resolves once the server has confirmed the subscription (RECEIPT). */
export async function collect(
  client: Client,
  destination: string,
  headers: Record<string, string> = {},
): Promise<{ messages: IMessage[]; unsubscribe(): void }> {
  const messages: IMessage[] = [];
  const receipt = `collect-${++receipts}`;
  const confirmed = deadline(5000, 'the subscription RECEIPT', new Promise<void>((resolve) => client.watchForReceipt(receipt, () => resolve())));
  const sub = client.subscribe(destination, (m) => messages.push(m), { ...headers, receipt });
  await confirmed;
  return { messages, unsubscribe: () => sub.unsubscribe() };
}

/** A second stream listener on a running server's dependencies, with its own limits and timings. */
export async function startStreamWith(server: TestServer, options: Partial<StreamOptions>): Promise<StreamServer> {
  return startStream(server.gatehouse.deps, await loadOrCreateTls(server.config), { host: '127.0.0.1', port: 0 }, options);
}
