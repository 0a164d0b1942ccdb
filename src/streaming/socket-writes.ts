import type { Duplex } from 'node:stream';

/**
 * How the stream's frames reach the network. A MESSAGE of a change is encoded once, as the whole WebSocket text
 * frame (RFC 6455: FIN, opcode 1, unmasked, its length), and those very bytes are handed to every connection
 * whose frame is equal: no per-connection framing, copying or `ws` sender call. The frames queued for a
 * connection during one turn of the event loop are written together at the end of the turn (setImmediate), in
 * one socket write and so one TLS record: a burst of changes costs each connection one encryption and one system
 * call, not one per change. Connections queued with the same frames in the same order (usually all subscribers of
 * an organization) are handed one and the same joined buffer.
 *
 * The queued connections are written in sweeps, WRITES_PER_TURN of them a turn so that the loop goes on serving
 * meanwhile, and a sweep is followed by a rest as long as its writes took (at most MAX_REST_MS). A connection
 * sent a frame after its write in this sweep waits for the next; one not written yet takes it with the frames it
 * holds. So each connection is written at most once a sweep and its rest: when changes come faster than a sweep
 * over every subscriber takes (one write each, 6 to 8 µs on TLS over loopback), each write carries several
 * changes and the writes take at most about half the loop, instead of a queue of one write per change growing
 * without end. With few subscribers a sweep takes microseconds, and so does its rest.
 */

/** A server-to-client WebSocket text frame holding `payload` (RFC 6455 section 5.2). */
export function textFrame(payload: string | Buffer): Buffer {
  const length = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
  const head = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(head + length);
  frame[0] = 0x81;
  if (head === 2) frame[1] = length;
  else if (head === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  if (typeof payload === 'string') frame.write(payload, head);
  else payload.copy(frame, head);
  return frame;
}

/** The joined buffers of one end-of-turn pass, by their parts: equal lists of parts (by identity) are joined once. */
export class JoinedFrames {
  private readonly byFirst = new Map<Buffer, Array<{ parts: Buffer[]; joined: Buffer }>>();

  join(parts: Buffer[], bytes: number): Buffer {
    let known = this.byFirst.get(parts[0]!);
    if (known === undefined) this.byFirst.set(parts[0]!, (known = []));
    for (const k of known) if (k.parts.length === parts.length && k.parts.every((p, i) => p === parts[i])) return k.joined;
    const joined = Buffer.concat(parts, bytes);
    known.push({ parts, joined });
    return joined;
  }
}

/** The connections written in one turn of the event loop at most: about a millisecond of TLS writes. */
export const WRITES_PER_TURN = 128;
/** The longest rest between two sweeps (ms): what resting may add to a change's delivery. */
export const MAX_REST_MS = 10;

/** Connections with frames queued, written in sweeps at the ends of turns of the event loop; one per stream server. */
export class TurnWrites {
  /** The sweep under way, written from `next` on. */
  private sweep: SocketWriter[] = [];
  private next = 0;
  /** The write time of the sweep under way (ms). */
  private sweepMs = 0;
  /** The sweep's joined buffers: equal queues share one across its turns too. */
  private joined = new JoinedFrames();
  /** The connections for the sweep after it. */
  private waiting: SocketWriter[] = [];
  private scheduled = false;
  /** No sweep starts before this (performance.now()). */
  private restUntil = 0;

  /** `writer` has frames to write at the end of this turn, or after the sweep under way and its rest. */
  schedule(writer: SocketWriter): void {
    this.waiting.push(writer);
    if (!this.scheduled) this.writeAfterRest();
  }

  private writeAfterRest(): void {
    this.scheduled = true;
    const rest = this.restUntil - performance.now();
    if (rest >= 1) setTimeout(this.writeSome, rest);
    else setImmediate(this.writeSome);
  }

  private readonly writeSome = () => {
    if (this.next === this.sweep.length) {
      this.sweep = this.waiting;
      this.waiting = [];
      this.next = 0;
      this.sweepMs = 0;
    }
    const started = performance.now();
    const end = Math.min(this.sweep.length, this.next + WRITES_PER_TURN);
    for (let i = this.next; i < end; i++) this.sweep[i]!.flush(this.joined);
    this.next = end;
    const ended = performance.now();
    this.sweepMs += ended - started;
    if (end < this.sweep.length) return void setImmediate(this.writeSome);
    // Done: the sweep's connections and joined buffers are let go while resting.
    this.sweep = [];
    this.next = 0;
    this.joined = new JoinedFrames();
    this.restUntil = ended + Math.min(this.sweepMs, MAX_REST_MS);
    if (this.waiting.length > 0) this.writeAfterRest();
    else this.scheduled = false;
  };
}

/** The frames queued for one connection's socket, written at the end of the turn (or at once by `flush`). */
export class SocketWriter {
  private queued: Buffer[] = [];
  private queuedBytes = 0;

  constructor(
    private readonly socket: Duplex,
    private readonly turn: TurnWrites,
    /** Whether data frames may still be written (the WebSocket has not begun to close). */
    private readonly open: () => boolean,
    /**
     * Called when a write has left the socket's buffer. Not the socket's 'drain': that comes only after a write
     * past the socket's high-water mark (16 KiB before Node.js 22, 64 KiB since), and a sender waiting for a
     * smaller backlog to clear would wait for ever.
     */
    private readonly written: () => void,
  ) {}

  /** Queues one whole WebSocket frame (see `textFrame`). */
  send(frame: Buffer): void {
    if (this.queued.length === 0) this.turn.schedule(this);
    this.queued.push(frame);
    this.queuedBytes += frame.length;
  }

  /** Bytes queued or written that the network has not taken yet. */
  pendingBytes(): number {
    return this.queuedBytes + this.socket.writableLength;
  }

  /** Writes what is queued now, in one write; `joined` shares the joined buffer between equal queues. */
  flush(joined?: JoinedFrames): void {
    const frames = this.queued;
    if (frames.length === 0) return;
    const bytes = this.queuedBytes;
    this.queued = [];
    this.queuedBytes = 0;
    if (!this.open() || this.socket.destroyed) return;
    this.socket.write(frames.length === 1 ? frames[0]! : joined ? joined.join(frames, bytes) : Buffer.concat(frames, bytes), this.onWritten);
  }

  private readonly onWritten = (error?: Error | null) => {
    if (!error) this.written();
  };
}
