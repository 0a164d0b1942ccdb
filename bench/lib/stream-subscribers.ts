// The subscribers of the stream bench (bench/stream-fanout.bench.ts): C WebSocket connections of one target, in a
// process of their own (this file, forked), so that they share no event loop with any server. They are written for
// the least CPU per message, because on a small machine they compete with the server they measure: raw TLS sockets
// with a minimal WebSocket client (RFC 6455 framing, no extensions), and per message only the frame length and the
// two numbers the bench stamped in the body (`"seq":N,"sentAt":T`) are read, straight from the bytes. Every target
// is read by this same code, so the harness costs each of them the same.
// The latency of a message runs from its `sentAt` (the change's scheduled raise, on the monotonic clock that every
// process of the machine shares) to the moment the bytes that complete it are read.
import { randomBytes } from 'node:crypto';
import { connect as connectPlain, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { monotonicMs } from './monotonic.js';

/** What a subscriber process is told to open. */
export interface SubscribersCommand {
  host: string;
  port: number;
  /** The request target of the upgrade, as `/websocket?x-auth-scheme=api-token`. */
  path: string;
  headers: Record<string, string>;
  /** The WebSocket subprotocol asked for, or null. */
  subprotocol: string | null;
  /** STOMP frames sent after the upgrade, in order; the last asks for RECEIPT `ready`. Null: ready on upgrade. */
  stomp: string[] | null;
  /** Plain WebSocket (RabbitMQ's default listener) instead of TLS. */
  plain: boolean;
  connections: number;
  /** Changes the run raises in all, numbered from 0. */
  events: number;
  /** Room for the latencies of the largest measurement (messages). */
  capacity: number;
}

export interface SubscriberStats {
  delivered: number;
  p50: number;
  p99: number;
  /** When the last message arrived (monotonic ms). */
  lastAt: number;
  /** Connections the server closed since they were opened. */
  closedEarly: number;
  /** STOMP ERROR frames received after subscribing. */
  errors: number;
  /** This process's CPU time since the mark, in µs. */
  cpuMicros: number;
}

export type SubscriberMessage =
  { type: 'ready'; openMs: number } | { type: 'error'; message: string } | { type: 'done'; seq: number } | ({ type: 'stats' } & SubscriberStats);
/** `mark` starts counting anew; `stats` answers what arrived since the last mark; `exit` closes everything. */
export type SubscriberControl = { cmd: 'mark' } | { cmd: 'stats' } | { cmd: 'exit' };

const HEARTBEAT_MS = 10_000;
const SEQ = Buffer.from('"seq":');
const SENT_AT = Buffer.from(',"sentAt":');
const ERROR_COMMAND = Buffer.from('ERROR\n');

/** A client-to-server text frame (masked, as RFC 6455 requires of clients). */
function clientFrame(text: string, opcode = 0x1): Buffer {
  const payload = Buffer.from(text);
  const header = payload.length < 126 ? 2 : 4;
  const frame = Buffer.allocUnsafe(header + 4 + payload.length);
  frame[0] = 0x80 | opcode;
  if (header === 2) frame[1] = 0x80 | payload.length;
  else {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(payload.length, 2);
  }
  const mask = randomBytes(4);
  mask.copy(frame, header);
  for (let i = 0; i < payload.length; i++) frame[header + 4 + i] = payload[i]! ^ mask[i & 3]!;
  return frame;
}

/** The unsigned decimal number at `at` in `buf` (digits and at most one point), and where it ends. */
function readNumber(buf: Buffer, at: number, end: number): [number, number] {
  let value = 0;
  let scale = 0;
  let i = at;
  for (; i < end; i++) {
    const c = buf[i]!;
    if (c >= 0x30 && c <= 0x39) {
      value = value * 10 + (c - 0x30);
      if (scale > 0) scale *= 10;
    } else if (c === 0x2e && scale === 0) scale = 1;
    else break;
  }
  return [scale > 1 ? value / scale : value, i];
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
  const send = (m: SubscriberMessage) => process.send!(m);
  const cmd = await new Promise<SubscribersCommand>((resolve) => process.once('message', (m) => resolve(m as SubscribersCommand)));
  const counts = new Uint32Array(cmd.events);
  const latencies = new Float64Array(cmd.capacity);
  let delivered = 0;
  let lastAt = 0;
  let closedEarly = 0;
  let errors = 0;
  let stopping = false;
  let cpuMark = process.cpuUsage();
  const sockets: Socket[] = [];
  /** The connections past the WebSocket upgrade: the ones that heart-beat. */
  const upgradedSockets: Socket[] = [];
  const heartbeat = clientFrame('\n');

  /** One complete message from the server: [start, end) of `buf`. */
  function onMessage(buf: Buffer, start: number, end: number, at: number): void {
    if (end - start <= 2) return; // A heart-beat.
    const seqAt = buf.indexOf(SEQ, start);
    if (seqAt < 0 || seqAt >= end) {
      if (buf.compare(ERROR_COMMAND, 0, ERROR_COMMAND.length, start, start + ERROR_COMMAND.length) === 0) errors++;
      return;
    }
    const [seq, seqEnd] = readNumber(buf, seqAt + SEQ.length, end);
    if (buf.compare(SENT_AT, 0, SENT_AT.length, seqEnd, seqEnd + SENT_AT.length) !== 0) return;
    const [sentAt] = readNumber(buf, seqEnd + SENT_AT.length, end);
    if (delivered < latencies.length) latencies[delivered] = at - sentAt;
    delivered++;
    lastAt = at;
    if (++counts[seq]! === cmd.connections) send({ type: 'done', seq });
  }

  const open = () =>
    new Promise<void>((resolve, reject) => {
      const socket = cmd.plain ? connectPlain({ host: cmd.host, port: cmd.port }) : connectTls({ host: cmd.host, port: cmd.port, rejectUnauthorized: false });
      sockets.push(socket);
      socket.setNoDelay(true);
      let upgraded = false;
      let ready = false;
      /** Bytes of a frame not complete yet (or of the upgrade answer). */
      let pending: Buffer | null = null;
      socket.on('error', reject);
      socket.on('close', () => stopping || closedEarly++);
      socket.once(cmd.plain ? 'connect' : 'secureConnect', () => {
        const lines = [`GET ${cmd.path} HTTP/1.1`, `Host: ${cmd.host}:${cmd.port}`, 'Upgrade: websocket', 'Connection: Upgrade'];
        lines.push(`Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`, 'Sec-WebSocket-Version: 13');
        if (cmd.subprotocol) lines.push(`Sec-WebSocket-Protocol: ${cmd.subprotocol}`);
        for (const [name, value] of Object.entries(cmd.headers)) lines.push(`${name}: ${value}`);
        socket.write(lines.join('\r\n') + '\r\n\r\n');
      });
      const handshake = (text: string) => {
        if (text.startsWith('ERROR')) reject(new Error(text.slice(0, 300)));
        else if (text.includes('receipt-id:ready')) {
          ready = true;
          resolve();
        }
      };
      socket.on('data', (chunk: Buffer) => {
        const at = monotonicMs();
        const buf = pending === null ? chunk : Buffer.concat([pending, chunk]);
        pending = null;
        let offset = 0;
        if (!upgraded) {
          const headEnd = buf.indexOf('\r\n\r\n');
          if (headEnd < 0) return void (pending = buf);
          const head = buf.toString('latin1', 0, headEnd);
          if (!head.startsWith('HTTP/1.1 101')) return reject(new Error(`upgrade refused: ${buf.toString('utf8').slice(0, 600)}`));
          upgraded = true;
          upgradedSockets.push(socket);
          offset = headEnd + 4;
          if (cmd.stomp) for (const frame of cmd.stomp) socket.write(clientFrame(frame));
          else {
            ready = true;
            resolve();
          }
        }
        while (buf.length - offset >= 2) {
          const opcode = buf[offset]! & 0x0f;
          let length = buf[offset + 1]! & 0x7f;
          let header = 2;
          if (length === 126) {
            if (buf.length - offset < 4) break;
            length = buf.readUInt16BE(offset + 2);
            header = 4;
          } else if (length === 127) {
            if (buf.length - offset < 10) break;
            length = Number(buf.readBigUInt64BE(offset + 2));
            header = 10;
          }
          const start = offset + header;
          const end = start + length;
          if (end > buf.length) break;
          if (opcode === 0x1 || opcode === 0x2) {
            if (ready) onMessage(buf, start, end, at);
            else handshake(buf.toString('utf8', start, end));
          } else if (opcode === 0x9) socket.write(clientFrame(buf.toString('latin1', start, end), 0xa));
          else if (opcode === 0x8) socket.end();
          offset = end;
        }
        if (offset < buf.length) pending = offset === 0 ? buf : buf.subarray(offset);
      });
    });

  // A bare EOL is a STOMP heart-beat; the bare ws server ignores it.
  setInterval(() => {
    for (const socket of upgradedSockets) if (socket.writable) socket.write(heartbeat);
  }, HEARTBEAT_MS);
  const openStarted = monotonicMs();
  try {
    // Opened in slices, so that the handshakes do not all queue at once.
    for (let i = 0; i < cmd.connections; i += 50) await Promise.all(Array.from({ length: Math.min(50, cmd.connections - i) }, open));
    send({ type: 'ready', openMs: monotonicMs() - openStarted });
  } catch (e) {
    send({ type: 'error', message: (e as Error).message });
  }
  process.on('message', (m: SubscriberControl) => {
    if (m.cmd === 'mark') {
      delivered = 0;
      cpuMark = process.cpuUsage();
    } else if (m.cmd === 'stats') {
      const sorted = latencies.slice(0, Math.min(delivered, latencies.length)).sort();
      const cpu = process.cpuUsage(cpuMark);
      send({
        type: 'stats',
        delivered,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        lastAt,
        closedEarly,
        errors,
        cpuMicros: cpu.user + cpu.system,
      });
    } else {
      stopping = true;
      for (const socket of sockets) socket.destroy();
      setTimeout(() => process.exit(0), 100);
    }
  });
}

void main();
