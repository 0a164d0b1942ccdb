import type { Duplex } from 'node:stream';

/**
 * How the stream's frames reach the network. A MESSAGE of a change is encoded once, as the whole WebSocket text
 * frame (RFC 6455: FIN, opcode 1, unmasked, its length), and those very bytes are handed to every connection
 * whose frame is equal: no per-connection framing, copying or `ws` sender call. The frames queued for a
 * connection during one turn of the event loop are written together at the end of the turn (setImmediate), in
 * one socket write and so one TLS record: a burst of changes costs each connection one encryption and one system
 * call, not one per change. Connections queued with the same frames in the same order (usually all subscribers of
 * an organization) are handed one and the same joined buffer.
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

/** Connections with frames queued in this turn of the event loop; one per stream server. */
export class TurnWrites {
  private queued: SocketWriter[] = [];
  private scheduled = false;

  /** `writer` has frames to write at the end of this turn. */
  schedule(writer: SocketWriter): void {
    this.queued.push(writer);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.writeAll);
    }
  }

  private readonly writeAll = () => {
    this.scheduled = false;
    const writers = this.queued;
    this.queued = [];
    const joined = new JoinedFrames();
    for (const writer of writers) writer.flush(joined);
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
