// A closed-loop HTTP/1.1 load generator for the REST benches, run in a child process of its own (this file,
// forked) so that it does not share the servers' event loop. Each of C keep-alive connections sends one
// request, waits for its answer, and sends the next, following a weighted mix of operations; every request is
// serialized once up front, so that the generator costs little CPU beside the server. Bounded by a count and
// a duration; loopback only. Answers are read by Content-Length (Fastify always sends one).
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
}

export interface Figures {
  count: number;
  rps: number;
  p50: number;
  p99: number;
}

export interface LoadResult {
  seconds: number;
  total: Figures;
  operations: Record<string, Figures>;
  /** Answers other than 200, by operation and status (a 200 with `error: true` counts too). */
  failures: string[];
}

const HOST = '127.0.0.1';

/** Runs a plan in a child process and resolves its figures. */
export function runLoad(plan: LoadPlan): Promise<LoadResult> {
  const child = fork(fileURLToPath(import.meta.url), [], { execArgv: ['--import', 'tsx'], env: { ...process.env, GH_HTTP_LOAD_CHILD: '1' } });
  return new Promise<LoadResult>((resolve, reject) => {
    const timer = setTimeout(() => (child.kill(), reject(new Error('load generator did not finish'))), plan.durationMs + 60_000);
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
  const failures = new Map<string, number>();
  let sent = 0;
  let done = 0;
  const started = performance.now();
  const deadline = started + plan.durationMs;
  let lastAt = started;

  await Promise.all(
    Array.from({ length: plan.connections }, (_, c) => {
      let step = Math.floor((c * order.length) / plan.connections);
      const bodyTurn = plan.operations.map(() => c);
      return new Promise<void>((resolve, reject) => {
        const socket: Socket = connect({ host: HOST, port: plan.port, noDelay: true });
        let buffer: Buffer = Buffer.alloc(0);
        let op = 0;
        let sentAt = 0;
        const next = () => {
          if (sent >= plan.maxRequests || performance.now() >= deadline) return void (socket.end(), resolve());
          sent++;
          op = order[step++ % order.length]!;
          const bodies = requests[op]!;
          sentAt = performance.now();
          socket.write(bodies[bodyTurn[op]!++ % bodies.length]!);
        };
        socket.on('connect', next);
        socket.on('error', reject);
        socket.on('data', (chunk: Buffer) => {
          buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
          const headEnd = buffer.indexOf('\r\n\r\n');
          if (headEnd < 0) return;
          const head = buffer.toString('latin1', 0, headEnd);
          const length = /\r\ncontent-length: *(\d+)/i.exec(head);
          if (!length) return reject(new Error(`answer without content-length: ${head.slice(0, 200)}`));
          const end = headEnd + 4 + Number(length[1]);
          if (buffer.length < end) return;
          const at = performance.now();
          const status = head.slice(9, 12);
          // The body's start tells a domain failure (HTTP 200 with error: true) from a success.
          if (status !== '200' || buffer.toString('utf8', headEnd + 4, Math.min(end, headEnd + 4 + 40)).includes('"error":true')) {
            const key = `${plan.operations[op]!.name} ${status}: ${buffer.toString('utf8', headEnd + 4, Math.min(end, headEnd + 4 + 160))}`;
            failures.set(key, (failures.get(key) ?? 0) + 1);
          }
          if (counts[op]! < plan.maxRequests) latencies[op]![counts[op]!] = at - sentAt;
          counts[op]!++;
          done++;
          lastAt = at;
          buffer = buffer.length === end ? Buffer.alloc(0) : buffer.subarray(end);
          next();
        });
      });
    }),
  );
  const seconds = (lastAt - started) / 1000;
  const figures = (lat: Float64Array, count: number): Figures => {
    const sorted = lat.slice(0, count).sort();
    return { count, rps: count / seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  };
  const all = new Float64Array(done);
  let i = 0;
  plan.operations.forEach((_, k) => {
    all.set(latencies[k]!.subarray(0, counts[k]!), i);
    i += counts[k]!;
  });
  return {
    seconds,
    total: figures(all, done),
    operations: Object.fromEntries(plan.operations.map((o, k) => [o.name, figures(latencies[k]!, counts[k]!)])),
    failures: [...failures].map(([k, n]) => `${n} x ${k}`),
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
