import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { parseDestination } from './destinations.js';
import { FrameError, FrameParser, header, serializeFrame, SUPPORTED_VERSIONS, type OutgoingFrame, type StompFrame, type StompVersion } from './frame.js';
import type { ChangeHub, PreparedChange } from './hub.js';
import type { Logger } from '../logger.js';
import type { StreamOptions } from './options.js';

const { version: gatehouseVersion } = createRequire(import.meta.url)('../../package.json') as { version: string };
export const SERVER_NAME = `Gatehouse/${gatehouseVersion}`;

/** What the session needs from its WebSocket. */
export interface Transport {
  /**
   * The bytes that carry one STOMP frame (or a heart-beat) as one WebSocket text message. Every transport of a
   * server encodes alike, so that bytes encoded for one connection may be sent on another (see PreparedChange).
   */
  encode(frame: string): Buffer;
  /** Sends encoded bytes (written at the end of the event loop's turn, with the others of the turn). */
  send(bytes: Buffer): void;
  /** Writes what was sent and not written yet, now. */
  flush(): void;
  /** Bytes sent that the network has not taken yet. */
  pendingBytes(): number;
  /** Writes what was sent, then closes. */
  close(code: number, reason: string): void;
}

/** Changes read from the log per page when a subscription resumes. */
const RESUME_PAGE = 500;
/** Live changes a resuming subscription holds while it reads the log; past this it reads the log again. */
const MAX_RESUME_BUFFER = 10_000;
/** The MESSAGE header that carries the organization's change position, and the SUBSCRIBE header that resumes after one. */
export const POSITION_HEADER = 'position';
export const RESUME_HEADER = 'resume-after';

/** WebSocket close codes the session uses. */
export const CLOSE = { normal: 1000, goingAway: 1001, protocolError: 1002, policy: 1008, tooBig: 1009 } as const;

type AckMode = 'auto' | 'client' | 'client-individual';
const ACK_MODES: readonly AckMode[] = ['auto', 'client', 'client-individual'];

interface Subscription {
  id: string;
  ack: AckMode;
  /** Numbers the subscriptions of the session: its message ids are `<change id>-<ordinal>`. */
  ordinal: number;
  /** Names the shape of its MESSAGE frames: subscriptions with equal keys, in any session, get equal frames. */
  frameKey: string;
  /** Unacknowledged message ids, in delivery order. */
  unacked: Set<string>;
  /** While resuming: the live changes that arrived meanwhile; null once the subscription is live. */
  resuming: PreparedChange[] | null;
  /** The position delivered last, of the hub's generation `generation`. */
  last: number;
  generation: number;
  stop(): void;
}

/** A protocol error: answered with ERROR (message header, detail in the body), then the connection closes. */
class ProtocolError extends Error {
  constructor(
    message: string,
    readonly detail = '',
    readonly closeCode: number = CLOSE.protocolError,
    readonly headers: Array<[string, string]> = [],
  ) {
    super(message);
  }
}

function parseHeartbeat(value: string | undefined): [number, number] {
  if (value === undefined) return [0, 0];
  const m = /^\s*(\d{1,9})\s*,\s*(\d{1,9})\s*$/.exec(value);
  if (!m) throw new ProtocolError('Malformed heart-beat header', `"${value.slice(0, 40)}" is not two numbers of milliseconds, as in 10000,10000`);
  return [Number(m[1]), Number(m[2])];
}

const messageIdOf = (change: PreparedChange, sub: Subscription): string => `${change.event.id}-${sub.ordinal}`;

function negotiateVersion(acceptVersion: string | undefined): StompVersion | null {
  if (acceptVersion === undefined) return '1.0';
  const offered = acceptVersion.split(',').map((v) => v.trim());
  for (const v of [...SUPPORTED_VERSIONS].reverse()) if (offered.includes(v)) return v;
  return null;
}

/**
 * One STOMP connection, from CONNECT to close: the state machine of STOMP 1.0-1.2 on the server side,
 * independent of the WebSocket underneath. The caller is already authenticated (the handshake did it),
 * so CONNECT's login and passcode are not needed; CONNECT without `host` is accepted.
 */
export class StompSession {
  readonly id = randomUUID();
  private state: 'connecting' | 'connected' | 'closed' = 'connecting';
  private version: StompVersion = '1.2';
  private readonly parser: FrameParser;
  private readonly subscriptions = new Map<string, Subscription>();
  /** Message id to the subscription that holds it unacknowledged. */
  private readonly unacked = new Map<string, Subscription>();
  private readonly transactions = new Map<string, Array<() => void>>();
  private subscriptionSeq = 0;
  private lastReceived = performance.now();
  private lastSent = performance.now();
  /** Something was sent since the heart-beat timer last looked (cheaper than reading the clock per frame). */
  private sentSinceTick = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly connectTimer: NodeJS.Timeout;
  /**
   * The backlog: frames waiting for the socket. At most `window` bytes are handed to the transport at a time
   * (counted until the network has taken them); the rest waits here, so that a slow consumer's ERROR can be sent
   * ahead of its backlog, which is dropped.
   */
  private backlog: Buffer[] = [];
  /** The first frame of `backlog` not handed over yet (frames are taken from the front without moving the rest). */
  private backlogHead = 0;
  private backlogBytes = 0;
  private readonly window: number;
  private drainWaiters: Array<() => void> = [];

  constructor(
    private readonly orgUuid: string,
    private readonly hub: ChangeHub,
    private readonly transport: Transport,
    private readonly options: StreamOptions,
    private readonly log: Pick<Logger, 'error'>,
    private readonly onClosed: (session: StompSession) => void = () => {},
  ) {
    this.parser = new FrameParser(options, { frame: (f) => this.handle(f), heartbeat: () => {} });
    this.window = Math.max(16 * 1024, Math.min(256 * 1024, Math.floor(options.maxBufferedBytes / 2)));
    this.connectTimer = setTimeout(
      () => this.fail(new ProtocolError('Connect timeout', `no CONNECT frame within ${options.connectTimeoutMs} ms`, CLOSE.policy)),
      options.connectTimeoutMs,
    );
  }

  /** Bytes from one WebSocket message. */
  receive(data: Buffer): void {
    if (this.state === 'closed') return;
    this.lastReceived = performance.now();
    try {
      this.parser.push(data);
    } catch (e) {
      this.fail(e);
    }
  }

  isOpen(): boolean {
    return this.state !== 'closed';
  }

  /** The WebSocket closed (by either side). */
  closed(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    clearTimeout(this.connectTimer);
    for (const t of this.timers) clearInterval(t);
    for (const sub of this.subscriptions.values()) sub.stop();
    this.subscriptions.clear();
    this.unacked.clear();
    this.dropBacklog();
    for (const wake of this.drainWaiters.splice(0)) wake();
    this.onClosed(this);
  }

  /**
   * The client sent a WebSocket message over the socket's limit, which the WebSocket is closing (1009): ERROR
   * first, ahead of the backlog, so that the client learns why.
   */
  oversized(limitBytes: number): void {
    if (this.state === 'closed') return;
    this.dropBacklog();
    this.write(
      serializeFrame(
        {
          command: 'ERROR',
          headers: [
            ['message', 'Frame too large'],
            ['content-type', 'text/plain'],
          ],
          body: `a WebSocket message may hold at most ${limitBytes} bytes`,
        },
        this.version,
      ),
    );
    this.transport.flush();
    this.closed();
  }

  /** Ends the session from the server side (shutdown, a revoked key): ERROR saying why, then close. */
  shutdown(reason: string, closeCode: number = CLOSE.goingAway): void {
    this.fail(new ProtocolError(reason, '', closeCode));
  }

  private send(frame: OutgoingFrame): void {
    this.sendText(serializeFrame(frame, this.version));
  }

  /** A frame to send after those sent before it. */
  private sendText(frame: string): void {
    this.enqueue(this.transport.encode(frame), this.transport.pendingBytes());
  }

  /** Encoded bytes to send after those sent before them; `inTransport`: the transport's pending bytes now. */
  private enqueue(bytes: Buffer, inTransport: number): void {
    this.sentSinceTick = true;
    if (this.backlogHead === this.backlog.length && inTransport < this.window) return this.transport.send(bytes);
    this.backlog.push(bytes);
    this.backlogBytes += bytes.length;
  }

  /** Sends a frame now, ahead of the backlog. */
  private write(frame: string): void {
    this.transport.send(this.transport.encode(frame));
  }

  /** The network took what the transport held: hands it more of the backlog. */
  drained(): void {
    if (this.state === 'closed') return;
    while (this.backlogHead < this.backlog.length && this.transport.pendingBytes() < this.window) {
      const bytes = this.backlog[this.backlogHead++]!;
      this.backlogBytes -= bytes.length;
      this.transport.send(bytes);
    }
    if (this.backlogHead === this.backlog.length) this.dropBacklog();
    else if (this.backlogHead > 1024 && this.backlogHead * 2 > this.backlog.length) {
      this.backlog = this.backlog.slice(this.backlogHead);
      this.backlogHead = 0;
    }
    if (this.drainWaiters.length > 0 && this.pendingBytes() < this.options.maxBufferedBytes / 2) {
      for (const wake of this.drainWaiters.splice(0)) wake();
    }
  }

  /** Bytes sent to this connection that the network has not taken yet. */
  private pendingBytes(): number {
    return this.backlogBytes + this.transport.pendingBytes();
  }

  private dropBacklog(): void {
    this.backlog = [];
    this.backlogHead = 0;
    this.backlogBytes = 0;
  }

  /** Resolves once the backlog is below half its bound (or the session closed): a resuming subscription's pace. */
  private roomToWrite(): Promise<void> {
    if (this.pendingBytes() < this.options.maxBufferedBytes / 2 || this.state === 'closed') return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  private fail(error: unknown): void {
    if (this.state === 'closed') return;
    let e: ProtocolError;
    if (error instanceof ProtocolError) e = error;
    else if (error instanceof FrameError) {
      e = new ProtocolError(error.message, error.detail, error.limit ? CLOSE.policy : CLOSE.protocolError);
    } else {
      this.log.error({ err: error, session: this.id }, 'stream: session failed');
      e = new ProtocolError('Internal error');
    }
    // The ERROR goes ahead of the backlog, which is dropped: a consumer that fell behind learns why at once.
    this.dropBacklog();
    this.write(
      serializeFrame({ command: 'ERROR', headers: [['message', e.message], ...e.headers, ['content-type', 'text/plain']], body: e.detail }, this.version),
    );
    this.transport.close(e.closeCode, e.message.slice(0, 100));
    this.closed();
  }

  /** Frames that arrived while an earlier one was still being processed (a SUBSCRIBE waiting for its start). */
  private waiting: StompFrame[] | null = null;

  private handle(frame: StompFrame): void {
    if (this.state === 'closed') return;
    if (this.waiting) return void this.waiting.push(frame);
    const receipt = header(frame, 'receipt');
    const failed = (e: unknown) => {
      if (e instanceof ProtocolError && receipt !== undefined) e.headers.push(['receipt-id', receipt]);
      this.fail(e);
    };
    const done = () => {
      if (receipt !== undefined && frame.command !== 'DISCONNECT' && this.isOpen()) {
        this.send({ command: 'RECEIPT', headers: [['receipt-id', receipt]] });
      }
    };
    let pending: void | Promise<void>;
    try {
      pending = this.dispatch(frame);
    } catch (e) {
      return failed(e);
    }
    if (!pending) return done();
    // Frames keep their order: the ones after this wait until it is done.
    this.waiting = [];
    pending.then(done, failed).finally(() => {
      const next = this.waiting ?? [];
      this.waiting = null;
      for (let i = 0; i < next.length; i++) {
        // A frame handled here may itself wait: the rest then queue behind it.
        const queue = this.waiting as StompFrame[] | null;
        if (queue) {
          queue.push(...next.slice(i));
          break;
        }
        this.handle(next[i]!);
      }
    });
  }

  private dispatch(frame: StompFrame): void | Promise<void> {
    if (this.state === 'connecting') {
      if (frame.command !== 'CONNECT' && frame.command !== 'STOMP')
        throw new ProtocolError('Not connected', `the first frame must be CONNECT or STOMP, not ${frame.command}`);
      return this.connect(frame);
    }
    switch (frame.command) {
      case 'SUBSCRIBE':
        return this.subscribe(frame);
      case 'UNSUBSCRIBE':
        return this.unsubscribe(frame);
      case 'ACK':
      case 'NACK':
        return this.acknowledge(frame);
      case 'BEGIN':
      case 'COMMIT':
      case 'ABORT':
        return this.transaction(frame);
      case 'DISCONNECT':
        return this.disconnect(frame);
      case 'CONNECT':
      case 'STOMP':
        throw new ProtocolError('Already connected', 'CONNECT may be sent once per connection');
      case 'SEND':
        throw new ProtocolError('SEND is not supported', 'the stream is read-only: destinations carry what the server announces');
      default:
        throw new ProtocolError('Unknown command', `${frame.command} is not a STOMP client frame`);
    }
  }

  private connect(frame: StompFrame): void {
    const version = negotiateVersion(header(frame, 'accept-version'));
    if (!version) {
      throw new ProtocolError('Unsupported protocol version', `supported versions are ${SUPPORTED_VERSIONS.join(', ')}`, CLOSE.protocolError, [
        ['version', SUPPORTED_VERSIONS.join(',')],
      ]);
    }
    const [clientSends, clientWants] = parseHeartbeat(header(frame, 'heart-beat'));
    const [serverSends, serverWants] = version === '1.0' ? [0, 0] : this.options.heartbeat;
    const sendEvery = serverSends > 0 && clientWants > 0 ? Math.max(serverSends, clientWants) : 0;
    const expectEvery = clientSends > 0 && serverWants > 0 ? Math.max(clientSends, serverWants) : 0;
    this.version = version;
    this.parser.version = version;
    this.state = 'connected';
    clearTimeout(this.connectTimer);
    this.send({
      command: 'CONNECTED',
      headers: [
        ['version', version],
        ['heart-beat', `${serverSends},${serverWants}`],
        ['server', SERVER_NAME],
        ['session', this.id],
      ],
    });
    if (sendEvery > 0) {
      // Checked four times per interval, sending when a check could not wait for the next: at most
      // `sendEvery` ms pass without data.
      const tick = sendEvery / 4;
      this.timers.push(
        setInterval(() => {
          const now = performance.now();
          if (this.sentSinceTick) {
            this.sentSinceTick = false;
            this.lastSent = now;
          } else if (now - this.lastSent >= sendEvery - tick && this.backlogHead === this.backlog.length) this.sendText('\n');
        }, tick),
      );
    }
    if (expectEvery > 0) {
      const limit = expectEvery * this.options.heartbeatGrace;
      this.timers.push(
        setInterval(
          () => {
            const silent = performance.now() - this.lastReceived;
            if (silent > limit)
              this.fail(new ProtocolError('Heart-beat timeout', `nothing received for ${Math.round(silent)} ms (heart-beat ${expectEvery} ms)`, CLOSE.policy));
          },
          Math.max(10, expectEvery / 2),
        ),
      );
    }
  }

  private required(frame: StompFrame, name: string): string {
    const value = header(frame, name);
    if (value === undefined || value === '') throw new ProtocolError(`Missing ${name} header`, `${frame.command} needs a ${name} header`);
    return value;
  }

  private subscribe(frame: StompFrame): void | Promise<void> {
    const destinationName = this.required(frame, 'destination');
    // STOMP 1.0 made the id optional: the destination then names the subscription.
    const id = this.version === '1.0' ? (header(frame, 'id') ?? destinationName) : this.required(frame, 'id');
    const ack = (header(frame, 'ack') ?? 'auto') as AckMode;
    if (!ACK_MODES.includes(ack)) throw new ProtocolError('Invalid ack mode', `ack must be one of ${ACK_MODES.join(', ')}`);
    if (this.subscriptions.has(id)) throw new ProtocolError('Duplicate subscription id', `subscription ${id} already exists`);
    if (this.subscriptions.size >= this.options.maxSubscriptions) {
      throw new ProtocolError('Too many subscriptions', `a connection may have at most ${this.options.maxSubscriptions} subscriptions`, CLOSE.policy);
    }
    const destination = parseDestination(destinationName);
    if (!destination) throw new ProtocolError('Unknown destination', `${destinationName} is not a destination; subscribe to /topic/change/{orgUuid}`);
    if (destination.orgUuid !== this.orgUuid)
      throw new ProtocolError('Access denied', `${destinationName} is not a destination of the authenticated organization`);
    const resume = header(frame, RESUME_HEADER);
    if (resume !== undefined && !/^\d{1,15}$/.test(resume)) {
      throw new ProtocolError(
        `Invalid ${RESUME_HEADER} header`,
        `${RESUME_HEADER} is the ${POSITION_HEADER} header of the last MESSAGE received (0: from the start of the change log)`,
      );
    }
    const ordinal = ++this.subscriptionSeq;
    const frameKey = `${this.version}\n${ack === 'auto' ? 'auto' : 'ack'}\n${ordinal}\n${id}`;
    const after = resume === undefined ? null : Number(resume);
    const sub: Subscription = {
      id,
      ack,
      ordinal,
      frameKey,
      unacked: new Set(),
      resuming: after === null ? null : [],
      last: after ?? 0,
      generation: this.hub.generation,
      stop: () => {},
    };
    const listening = this.hub.listen(destination.orgUuid, (change) => this.deliver(sub, change));
    sub.stop = listening.stop;
    this.subscriptions.set(id, sub);
    // The subscription is in effect (RECEIPT, the frames after it) once the hub knows the organization's
    // position; a resume reads the log after that, so that the log and the live changes meet.
    const start = () => {
      if (after !== null && this.active(sub)) void this.resume(sub, after).catch((e) => this.fail(e));
    };
    if (!listening.ready) return start();
    return listening.ready.then(start);
  }

  private active(sub: Subscription): boolean {
    return this.state === 'connected' && this.subscriptions.get(sub.id) === sub;
  }

  /**
   * Replays the organization's changes after `after` from the change log, page by page at the pace the client
   * reads, then hands over to the live changes that arrived meanwhile: none twice (positions up to the last
   * replayed one are skipped), none missed (a gap between the two is read from the log again).
   */
  private async resume(sub: Subscription, after: number): Promise<void> {
    const problem = await this.hub.log.problem(this.orgUuid, after);
    if (!this.active(sub)) return;
    if (problem) throw new ProtocolError(problem.message, problem.detail, CLOSE.policy);
    for (let round = 0; round < 1_000_000; round++) {
      await this.roomToWrite();
      if (!this.active(sub)) return;
      const page = await this.hub.log.after(this.orgUuid, sub.last, RESUME_PAGE);
      if (!this.active(sub)) return;
      for (const event of page) {
        // A page may hold more than the backlog's bound (large changes): the replay waits for the client to
        // read, so that catching up never counts against it as a slow consumer.
        if (this.pendingBytes() >= this.options.maxBufferedBytes / 2) {
          await this.roomToWrite();
          if (!this.active(sub)) return;
        }
        this.send1(sub, this.hub.prepare(event));
        sub.last = event.position;
        if (!this.active(sub)) return;
      }
      if (page.length === RESUME_PAGE) continue;
      const live = sub.resuming!.filter((c) => c.event.position > sub.last);
      // A gap between the log's end and the live changes (held ones let go): read the log again, unless it has nothing more.
      if (live.length > 0 && live[0]!.event.position !== sub.last + 1 && page.length > 0) {
        sub.resuming = live;
        continue;
      }
      sub.resuming = null;
      for (const change of live) this.deliver(sub, change);
      return;
    }
  }

  private unsubscribe(frame: StompFrame): void {
    const id = this.version === '1.0' ? (header(frame, 'id') ?? this.required(frame, 'destination')) : this.required(frame, 'id');
    const sub = this.subscriptions.get(id);
    if (!sub) throw new ProtocolError('Unknown subscription', `there is no subscription ${id}`);
    sub.stop();
    this.subscriptions.delete(id);
    for (const messageId of sub.unacked) this.unacked.delete(messageId);
  }

  private deliver(sub: Subscription, change: PreparedChange): void {
    if (this.state !== 'connected') return;
    if (sub.resuming) {
      sub.resuming.push(change);
      // Past the bound the held changes are let go: the log holds them, and resume() reads them again.
      if (sub.resuming.length > MAX_RESUME_BUFFER) sub.resuming = [];
      return;
    }
    if (sub.generation !== this.hub.generation) {
      sub.generation = this.hub.generation;
      sub.last = 0;
    }
    // A resume may read the log ahead of the bus: a live change it already sent from the log goes out once.
    if (change.event.position <= sub.last) return;
    sub.last = change.event.position;
    this.send1(sub, change);
  }

  /** Sends one change's MESSAGE to a subscription; a connection whose backlog is past its bound is dropped. */
  private send1(sub: Subscription, change: PreparedChange): void {
    const inTransport = this.transport.pendingBytes();
    const pending = this.backlogBytes + inTransport;
    if (pending > this.options.maxBufferedBytes) {
      this.fail(
        new ProtocolError(
          'Slow consumer',
          `${pending} bytes are waiting to be read, more than the limit of ${this.options.maxBufferedBytes}: the connection is dropped and its backlog discarded; subscribe again with ${RESUME_HEADER} set to the ${POSITION_HEADER} of the last MESSAGE received to catch up`,
          CLOSE.policy,
        ),
      );
      return;
    }
    if (sub.ack !== 'auto') {
      if (this.unacked.size >= this.options.maxPendingAcks) {
        this.fail(
          new ProtocolError(
            'Too many unacknowledged messages',
            `a connection may have at most ${this.options.maxPendingAcks} messages waiting for ACK`,
            CLOSE.policy,
          ),
        );
        return;
      }
      const messageId = messageIdOf(change, sub);
      sub.unacked.add(messageId);
      this.unacked.set(messageId, sub);
    }
    const bytes = change.encoded(sub.frameKey) ?? change.keep(sub.frameKey, this.transport.encode(this.messageFrame(sub, change)));
    this.enqueue(bytes, inTransport);
  }

  /**
   * The MESSAGE of a change for a subscription. Nothing in it is particular to this session beyond what
   * `frameKey` names (the message id is unique in the session, as the change id is in the change log), so
   * every session with the same key may be sent the same frame.
   */
  private messageFrame(sub: Subscription, change: PreparedChange): string {
    const messageId = messageIdOf(change, sub);
    const headers: Array<[string, string]> = [
      ['subscription', sub.id],
      ['message-id', messageId],
      [POSITION_HEADER, String(change.event.position)],
    ];
    // 1.2 names the message to acknowledge by `ack`.
    if (sub.ack !== 'auto' && this.version === '1.2') headers.push(['ack', messageId]);
    headers.push(['destination', change.destination], ['content-type', 'application/json']);
    return serializeFrame({ command: 'MESSAGE', headers, body: change.body }, this.version);
  }

  /**
   * ACK and NACK: `client` acknowledges the message and every earlier one of its subscription,
   * `client-individual` only the message. The topic keeps no copy, so NACK discards like ACK does.
   */
  private acknowledge(frame: StompFrame): void {
    // 1.2 names the message by `id` (the MESSAGE's ack header); 1.0 and 1.1 by `message-id`.
    const messageId = this.version === '1.2' ? this.required(frame, 'id') : (header(frame, 'message-id') ?? this.required(frame, 'id'));
    const sub = this.unacked.get(messageId);
    if (!sub) throw new ProtocolError('Unknown message', `message ${messageId} is not waiting for ${frame.command}`);
    const apply = () => {
      if (sub.ack === 'client-individual') {
        sub.unacked.delete(messageId);
        this.unacked.delete(messageId);
        return;
      }
      for (const id of sub.unacked) {
        sub.unacked.delete(id);
        this.unacked.delete(id);
        if (id === messageId) break;
      }
    };
    const tx = header(frame, 'transaction');
    if (tx === undefined) return apply();
    const pending = this.transactions.get(tx);
    if (!pending) throw new ProtocolError('Unknown transaction', `there is no transaction ${tx}`);
    pending.push(apply);
  }

  private transaction(frame: StompFrame): void {
    const tx = this.required(frame, 'transaction');
    const pending = this.transactions.get(tx);
    if (frame.command === 'BEGIN') {
      if (pending) throw new ProtocolError('Duplicate transaction', `transaction ${tx} has already begun`);
      this.transactions.set(tx, []);
      return;
    }
    if (!pending) throw new ProtocolError('Unknown transaction', `there is no transaction ${tx}`);
    this.transactions.delete(tx);
    if (frame.command === 'COMMIT') for (const apply of pending) apply();
  }

  private disconnect(frame: StompFrame): void {
    const receipt = header(frame, 'receipt');
    // A graceful end: what is waiting goes out first, then the RECEIPT, then the close.
    for (let i = this.backlogHead; i < this.backlog.length; i++) this.transport.send(this.backlog[i]!);
    this.dropBacklog();
    if (receipt !== undefined) this.write(serializeFrame({ command: 'RECEIPT', headers: [['receipt-id', receipt]] }, this.version));
    this.transport.close(CLOSE.normal, 'DISCONNECT');
    this.closed();
  }
}
