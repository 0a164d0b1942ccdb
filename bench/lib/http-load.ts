// An HTTP/1.1 load generator for the REST benches, run in a child process of its own (this file, forked) so that
// it does not share the servers' event loop. Closed loop: each of C keep-alive connections sends one request,
// waits for its answer, and sends the next. Open loop (`ratePerSecond`): requests are due at a constant rate
// and each one's latency counts from when it was due, so that a stall shows in every request it held up
// instead of slowing the sender. Both follow a weighted mix of operations; every request is serialized once up
// front, so that the generator costs little CPU beside the server. Bounded by a count and a duration; loopback
// only. Answers are read by Content-Length (Fastify always sends one).
import { fork } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';

export interface LoadOperation {
  name: string;
  path: string;
  headers?: Record<string, string>;
  /** JSON bodies, sent in turn by each connection. */
  bodies: string[];
  /** Share of the requests (relative to the other operations' weights). */
  weight: number;
}

export interface LoadPlan {
  port: number;
  connections: number;
  durationMs: number;
  maxRequests: number;
  operations: LoadOperation[];
  /** Open loop: requests sent at this constant rate, whatever the answers (else each connection waits for its answer). */
  ratePerSecond?: number;
  /**
   * Open loop: a first span at the same rate whose answers are not counted (the generator is a new process: its
   * first requests ran its code cold and were each a connection's first). `durationMs` is measured after it.
   */
  warmupMs?: number;
}

export interface Figures {
  count: number;
  rps: number;
  p50: number;
  p99: number;
  p999: number;
}

export interface LoadResult {
  seconds: number;
  total: Figures;
  operations: Record<string, Figures>;
  /** Answers other than 200, by operation and status (a 200 with `error: true` counts too). */
  failures: string[];
  /**
   * Open loop: how late the generator itself sent its requests (ms after each was due, p99 and max), the part of a
   * latency that is the generator's own stall (it shares the machine) rather than the server's.
   */
  sendLateness?: { p99: number; max: number };
  /** Open loop: the answers of the warm-up, not counted in the figures (so that a server's CPU can be divided by every answer). */
  warmupAnswers?: number;
}

const HOST = '127.0.0.1';
/** How much of an answer's body is kept: enough to tell a domain failure (`"error":true`) and to quote it. */
const BODY_START_BYTES = 160;

/** Runs a plan in a child process and resolves its figures. */
export function runLoad(plan: LoadPlan): Promise<LoadResult> {
  const child = fork(fileURLToPath(import.meta.url), [], { execArgv: ['--import', 'tsx'], env: { ...process.env, GH_HTTP_LOAD_CHILD: '1' } });
  return new Promise<LoadResult>((resolve, reject) => {
    const timer = setTimeout(() => (child.kill(), reject(new Error('load generator did not finish'))), plan.durationMs + (plan.warmupMs ?? 0) + 60_000);
    child.once('message', (m: { result?: LoadResult; error?: string }) => {
      clearTimeout(timer);
      child.kill();
      if (m.error) reject(new Error(m.error));
      else resolve(m.result!);
    });
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`load generator exited (${code})`))));
    child.send(plan);
  });
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** A fixed, evenly spread sequence of operation indexes in proportion to their weights. */
function schedule(operations: LoadOperation[], length = 1000): number[] {
  const total = operations.reduce((s, o) => s + o.weight, 0);
  const out: number[] = [];
  const credit = operations.map(() => 0);
  for (let i = 0; i < length; i++) {
    operations.forEach((o, k) => (credit[k]! += o.weight / total));
    let best = 0;
    for (let k = 1; k < operations.length; k++) if (credit[k]! > credit[best]!) best = k;
    credit[best]! -= 1;
    out.push(best);
  }
  return out;
}

/**
 * One keep-alive connection that sends a request at a time and hands each answer (status, body start) back. An
 * answer's body is counted, not gathered: only its head and first bytes are kept, so that a long answer (the camera
 * list's 577 KB) costs the generator a pass over its chunks, not a copy of all it has read so far at each chunk.
 */
function connection(port: number, onAnswer: (status: string, bodyStart: string) => void): Promise<{ socket: Socket }> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host: HOST, port, noDelay: true });
    /** An answer's head read so far, until it is whole. */
    let head: Buffer | null = null;
    let status = '';
    /** The body's bytes still to come; -1 while a head is being read. */
    let bodyLeft = -1;
    let bodyStart: Buffer[] = [];
    let bodyStartLength = 0;
    const answer = () => {
      bodyLeft = -1;
      onAnswer(status, Buffer.concat(bodyStart).toString('utf8'));
    };
    socket.on('connect', () => resolve({ socket }));
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      let data = chunk;
      while (data.length > 0) {
        if (bodyLeft < 0) {
          const buffer = head ? Buffer.concat([head, data]) : data;
          const headEnd = buffer.indexOf('\r\n\r\n');
          if (headEnd < 0) return void (head = buffer);
          head = null;
          const text = buffer.toString('latin1', 0, headEnd);
          const length = /\r\ncontent-length: *(\d+)/i.exec(text);
          if (!length) return void socket.destroy(new Error(`answer without content-length: ${text.slice(0, 200)}`));
          status = text.slice(9, 12);
          bodyLeft = Number(length[1]);
          bodyStart = [];
          bodyStartLength = 0;
          data = buffer.subarray(headEnd + 4);
          if (bodyLeft === 0) answer();
          continue;
        }
        const take = Math.min(bodyLeft, data.length);
        if (bodyStartLength < BODY_START_BYTES) {
          const piece = data.subarray(0, Math.min(take, BODY_START_BYTES - bodyStartLength));
          bodyStart.push(piece);
          bodyStartLength += piece.length;
        }
        bodyLeft -= take;
        data = data.subarray(take);
        if (bodyLeft === 0) answer();
      }
    });
  });
}

async function child(plan: LoadPlan): Promise<LoadResult> {
  const requests = plan.operations.map((op) =>
    op.bodies.map((body) => {
      const extra = Object.entries(op.headers ?? {})
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      return Buffer.from(
        `POST ${op.path} HTTP/1.1\r\nhost: ${HOST}:${plan.port}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`,
      );
    }),
  );
  const order = schedule(plan.operations);
  const latencies = plan.operations.map(() => new Float64Array(plan.maxRequests));
  const counts = plan.operations.map(() => 0);
  const bodyTurn = plan.operations.map(() => 0);
  const failures = new Map<string, number>();
  let sent = 0;
  let done = 0;
  const started = performance.now();
  const deadline = started + plan.durationMs;
  /** Answers to requests due before it are not counted (the open loop's warm-up). */
  let measuredFrom = started;
  let lastAt = started;
  /** What a connection is waiting for: the operation, and the time its latency counts from. */
  interface InFlight {
    op: number;
    from: number;
  }
  const answered = (flight: InFlight, status: string, bodyStart: string) => {
    const at = performance.now();
    // The body's start tells a domain failure (HTTP 200 with error: true) from a success.
    if (status !== '200' || bodyStart.slice(0, 40).includes('"error":true')) {
      const key = `${plan.operations[flight.op]!.name} ${status}: ${bodyStart}`;
      failures.set(key, (failures.get(key) ?? 0) + 1);
    }
    done++;
    if (flight.from < measuredFrom) return;
    if (counts[flight.op]! < plan.maxRequests) latencies[flight.op]![counts[flight.op]!] = at - flight.from;
    counts[flight.op]!++;
    lastAt = at;
  };
  const requestOf = (op: number, turns = bodyTurn) => requests[op]![turns[op]!++ % requests[op]!.length]!;
  let sendLateness: LoadResult['sendLateness'];

  if (plan.ratePerSecond) {
    // Open loop: request i is due at origin + i / rate, whatever the answers before it, from once every connection
    // is open; a request that finds every connection busy waits in line, and its latency still counts from when
    // it was due.
    const interval = 1000 / plan.ratePerSecond;
    const idle: Socket[] = [];
    const waiting: InFlight[] = [];
    const flights = new Map<Socket, InFlight>();
    const send = (socket: Socket, flight: InFlight) => {
      flights.set(socket, flight);
      socket.write(requestOf(flight.op));
    };
    const sockets = await Promise.all(
      Array.from({ length: plan.connections }, async () => {
        const c = await connection(plan.port, (status, bodyStart) => {
          answered(flights.get(c.socket)!, status, bodyStart);
          const next = waiting.shift();
          if (next) send(c.socket, next);
          else idle.push(c.socket);
        });
        idle.push(c.socket);
        return c.socket;
      }),
    );
    const origin = performance.now();
    const warmupMs = plan.warmupMs ?? 0;
    measuredFrom = origin + warmupMs;
    const due = Math.min(plan.maxRequests, Math.floor(((plan.durationMs + warmupMs) / 1000) * plan.ratePerSecond));
    const firstMeasured = Math.ceil(warmupMs / interval);
    const lateness = new Float64Array(due);
    await new Promise<void>((resolve) => {
      const tick = () => {
        const now = performance.now();
        while (sent < due && origin + sent * interval <= now) {
          const flight = { op: order[sent % order.length]!, from: origin + sent * interval };
          lateness[sent] = now - flight.from;
          sent++;
          const socket = idle.pop();
          if (socket) send(socket, flight);
          else waiting.push(flight);
        }
        if (sent < due) setTimeout(tick, Math.max(0, Math.min(1, origin + sent * interval - performance.now())));
        else resolve();
      };
      tick();
    });
    // The answers still owed, within a bound.
    const drainUntil = performance.now() + 30_000;
    while (done < sent && performance.now() < drainUntil) await new Promise((r) => setTimeout(r, 5));
    for (const socket of sockets) socket.end();
    const sorted = lateness.subarray(firstMeasured, sent).sort();
    sendLateness = { p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? NaN };
  } else {
    // Closed loop: each connection sends its next request when the previous one is answered.
    await Promise.all(
      Array.from({ length: plan.connections }, async (_, c) => {
        let step = Math.floor((c * order.length) / plan.connections);
        // Each connection starts its turn through an operation's bodies at its own (an update each its record).
        const turns = plan.operations.map(() => c);
        let flight: InFlight = { op: 0, from: 0 };
        let finish = () => {};
        const finished = new Promise<void>((resolve) => (finish = resolve));
        const next = (socket: Socket) => {
          if (sent >= plan.maxRequests || performance.now() >= deadline) return void (socket.end(), finish());
          sent++;
          flight = { op: order[step++ % order.length]!, from: performance.now() };
          socket.write(requestOf(flight.op, turns));
        };
        const { socket } = await connection(plan.port, (status, bodyStart) => {
          answered(flight, status, bodyStart);
          next(socket);
        });
        next(socket);
        await finished;
      }),
    );
  }
  const seconds = (lastAt - measuredFrom) / 1000;
  const figures = (lat: Float64Array, count: number): Figures => {
    const sorted = lat.slice(0, count).sort();
    return { count, rps: count / seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99), p999: percentile(sorted, 99.9) };
  };
  const all = new Float64Array(counts.reduce((n, c) => n + Math.min(c, plan.maxRequests), 0));
  let i = 0;
  plan.operations.forEach((_, k) => {
    const kept = latencies[k]!.subarray(0, counts[k]!);
    all.set(kept, i);
    i += kept.length;
  });
  return {
    seconds,
    total: figures(all, all.length),
    operations: Object.fromEntries(plan.operations.map((o, k) => [o.name, figures(latencies[k]!, counts[k]!)])),
    failures: [...failures].map(([k, n]) => `${n} x ${k}`),
    ...(sendLateness && { sendLateness, warmupAnswers: done - all.length }),
  };
}

if (process.env.GH_HTTP_LOAD_CHILD === '1') {
  process.once('message', (plan: LoadPlan) => {
    child(plan).then(
      (result) => process.send!({ result }),
      (e: Error) => process.send!({ error: e.message }),
    );
  });
}
