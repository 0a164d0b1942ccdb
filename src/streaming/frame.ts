/**
 * The STOMP frame codec (STOMP 1.0, 1.1 and 1.2, https://stomp.github.io/stomp-specification-1.2.html):
 *
 *   frame = command EOL *(header EOL) EOL *OCTET NUL *(EOL)      EOL = [CR] LF
 *
 * Header escaping depends on the version: none in 1.0; `\n`, `\c`, `\\` in 1.1; and `\r` too in 1.2.
 * CONNECT, STOMP and CONNECTED frames are never escaped, so that a 1.0 peer can read them.
 */

export type StompVersion = '1.0' | '1.1' | '1.2';
export const SUPPORTED_VERSIONS: readonly StompVersion[] = ['1.0', '1.1', '1.2'];

export interface StompFrame {
  command: string;
  /** In order of appearance; a repeated header keeps its first value (see `header()`). */
  headers: Array<[string, string]>;
  body: Buffer;
}

/** A frame that breaks the grammar or a limit: the session answers it with ERROR and closes. */
export class FrameError extends Error {
  constructor(
    message: string,
    readonly detail = '',
    /** A limit was exceeded, rather than the grammar broken. */
    readonly limit = false,
  ) {
    super(message);
    this.name = 'FrameError';
  }
}

/** The first value of a header: STOMP 1.2 says a repeated header's first occurrence wins. */
export function header(frame: StompFrame, name: string): string | undefined {
  for (const [k, v] of frame.headers) if (k === name) return v;
  return undefined;
}

const UNESCAPED_COMMANDS = new Set(['CONNECT', 'STOMP', 'CONNECTED']);

function escapeValue(value: string, version: StompVersion): string {
  if (version === '1.0') return value.replace(/[\r\n]/g, ' '); // 1.0 cannot carry line breaks in a header.
  let out = value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/:/g, '\\c');
  if (version === '1.2') out = out.replace(/\r/g, '\\r');
  else out = out.replace(/\r/g, ' ');
  return out;
}

function unescapeValue(raw: string, version: StompVersion): string {
  if (version === '1.0' || !raw.includes('\\')) return raw;
  return raw.replace(/\\(.?)/gs, (_, c: string) => {
    if (c === 'n') return '\n';
    if (c === 'c') return ':';
    if (c === '\\') return '\\';
    if (c === 'r' && version === '1.2') return '\r';
    throw new FrameError('Invalid header escape', `"\\${c}" is not an escape sequence of STOMP ${version}`);
  });
}

export interface OutgoingFrame {
  command: string;
  headers?: Array<[string, string]>;
  body?: string;
}

/**
 * Serializes a frame as one string: headers escaped for the version, `content-length` (in bytes) added
 * whenever there is a body, LF line endings, NUL terminated.
 */
export function serializeFrame(frame: OutgoingFrame, version: StompVersion): string {
  const escape = !UNESCAPED_COMMANDS.has(frame.command);
  let out = frame.command + '\n';
  for (const [k, v] of frame.headers ?? []) {
    out += escape ? `${escapeValue(k, version)}:${escapeValue(v, version)}\n` : `${k.replace(/[\r\n:]/g, ' ')}:${v.replace(/[\r\n]/g, ' ')}\n`;
  }
  const body = frame.body ?? '';
  if (body.length > 0) out += `content-length:${Buffer.byteLength(body)}\n`;
  return out + '\n' + body + '\0';
}

export interface ParserLimits {
  /** Bytes of one frame: command, headers and body. */
  maxFrameBytes: number;
  maxHeaders: number;
}

export interface ParserEvents {
  frame(frame: StompFrame): void;
  /** A bare EOL between frames: the peer's heart-beat. */
  heartbeat(): void;
}

const LF = 0x0a;
const CR = 0x0d;
const NUL = 0x00;

/**
 * An incremental parser: `push` takes bytes as they arrive (a WebSocket message may hold one frame,
 * several, or part of one) and calls back for each complete frame and each heart-beat, synchronously,
 * so that the session may change `version` between two frames of the same message.
 */
export class FrameParser {
  /** The version whose escaping rules apply to the next frames; set by the session after CONNECTED. */
  version: StompVersion = '1.2';
  private buffer: Buffer = Buffer.alloc(0);

  constructor(
    private readonly limits: ParserLimits,
    private readonly on: ParserEvents,
  ) {}

  /** Throws FrameError on the first malformed frame; the parser is unusable after. */
  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    let offset = 0;
    for (;;) {
      // Heart-beats: EOLs between frames.
      while (offset < this.buffer.length) {
        if (this.buffer[offset] === LF) {
          offset += 1;
        } else if (this.buffer[offset] === CR && this.buffer[offset + 1] === LF) {
          offset += 2;
        } else break;
        this.on.heartbeat();
      }
      if (offset >= this.buffer.length || (this.buffer[offset] === CR && offset + 1 === this.buffer.length)) break;
      const consumed = this.parseFrame(offset);
      if (consumed === 0) break;
      offset += consumed;
    }
    this.buffer = offset === this.buffer.length ? Buffer.alloc(0) : this.buffer.subarray(offset);
    if (this.buffer.length > this.limits.maxFrameBytes) {
      throw new FrameError('Frame too large', `a frame may have at most ${this.limits.maxFrameBytes} bytes`, true);
    }
  }

  /** Parses the frame at `start`; returns the bytes it took, or 0 when it is not complete yet. */
  private parseFrame(start: number): number {
    const buf = this.buffer;
    const lines: string[] = [];
    let pos = start;
    // Command and header lines, up to the empty line.
    for (;;) {
      const lf = buf.indexOf(LF, pos);
      if (lf < 0) return 0;
      const end = lf > pos && buf[lf - 1] === CR ? lf - 1 : lf;
      const line = buf.toString('utf8', pos, end);
      pos = lf + 1;
      if (line === '') break;
      lines.push(line);
      if (lines.length - 1 > this.limits.maxHeaders) {
        throw new FrameError('Too many headers', `a frame may have at most ${this.limits.maxHeaders} headers`, true);
      }
    }
    const command = lines[0]!;
    if (!/^[A-Z]+$/.test(command)) throw new FrameError('Malformed frame', `"${command.slice(0, 40)}" is not a STOMP command`);
    const version = UNESCAPED_COMMANDS.has(command) ? '1.0' : this.version;
    const headers: Array<[string, string]> = [];
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon <= 0) throw new FrameError('Malformed header', `"${line.slice(0, 40)}" is not name:value`);
      headers.push([unescapeValue(line.slice(0, colon), version), unescapeValue(line.slice(colon + 1), version)]);
    }
    const frame: StompFrame = { command, headers, body: Buffer.alloc(0) };
    const length = header(frame, 'content-length');
    let bodyEnd: number;
    if (length !== undefined) {
      if (!/^\d{1,10}$/.test(length)) throw new FrameError('Malformed header', `content-length "${length.slice(0, 20)}" is not a number of bytes`);
      const n = Number(length);
      if (n > this.limits.maxFrameBytes) {
        throw new FrameError('Frame too large', `a frame may have at most ${this.limits.maxFrameBytes} bytes`, true);
      }
      bodyEnd = pos + n;
      if (buf.length <= bodyEnd) return 0;
      if (buf[bodyEnd] !== NUL) throw new FrameError('Malformed frame', 'the body is not followed by NUL where content-length says it ends');
    } else {
      bodyEnd = buf.indexOf(NUL, pos);
      if (bodyEnd < 0) return 0;
    }
    if (bodyEnd + 1 - start > this.limits.maxFrameBytes) {
      throw new FrameError('Frame too large', `a frame may have at most ${this.limits.maxFrameBytes} bytes`, true);
    }
    frame.body = Buffer.from(buf.subarray(pos, bodyEnd));
    this.on.frame(frame);
    return bodyEnd + 1 - start;
  }
}
