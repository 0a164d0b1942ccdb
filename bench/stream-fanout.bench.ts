// Fan-out of the STOMP stream: C subscribed connections of one organization, beside a baseline in the same
// run: RabbitMQ's Web-STOMP plugin when it can be enabled on this machine, else a bare `ws` broadcast of the
// same frames over the same TLS. The subscribers run in a child process (this file, forked), so that they do
// not share the servers' event loop. Each target is measured in two phases over the same connections:
//  1. throughput: E changes raised closed-loop, at most W in flight (not yet received by every connection),
//     giving delivered messages per second (and the latency of a saturated system, for information);
//  2. latency: L more changes raised on a fixed schedule, at the rate that makes half of the baseline's
//     measured throughput (the same rate for both targets), giving p50/p99 from the scheduled raise to receipt
//     (measured from the schedule, so that a raiser held up by a busy server does not hide the delay).
//   BENCH_STREAM_CONNECTIONS (1000)  BENCH_STREAM_EVENTS (10000)  BENCH_STREAM_WINDOW (20)
//   BENCH_STREAM_LATENCY_EVENTS (1000)  BENCH_STREAM_LOAD (0.5: the latency phase's share of the baseline)
//   BENCH_STREAM_TIMEOUT_S (300, per phase; a phase also stops after 30 s without progress)
//   BENCH_STREAM_BASELINE (auto | rabbitmq | ws): auto falls back to ws when RabbitMQ does not complete
import { execFile, fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import WebSocket, { WebSocketServer } from 'ws';
import { startGatehouse } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { systemActor } from '../src/deps.js';
import { createOrg } from '../src/domains/orgs/service.js';
import { createLogger } from '../src/logger.js';
import { write } from '../src/store/write.js';
import { serializeFrame } from '../src/streaming/frame.js';
import { loadOrCreateTls } from '../src/tls.js';

const CONNECTIONS = Number(process.env.BENCH_STREAM_CONNECTIONS ?? 1000);
const EVENTS = Number(process.env.BENCH_STREAM_EVENTS ?? 10_000);
const WINDOW = Number(process.env.BENCH_STREAM_WINDOW ?? 20);
const LATENCY_EVENTS = Number(process.env.BENCH_STREAM_LATENCY_EVENTS ?? 1000);
const LOAD = Number(process.env.BENCH_STREAM_LOAD ?? 0.5);
const TIMEOUT_MS = Number(process.env.BENCH_STREAM_TIMEOUT_S ?? 300) * 1000;
const RABBIT_WS = 'ws://127.0.0.1:15674/ws';
const now = () => performance.timeOrigin + performance.now();

/** What the subscriber process is told to open. */
interface OpenCommand {
  url: string;
  headers: Record<string, string>;
  connections: number;
  events: number;
  /** STOMP frames to send after opening, in order; the last one asks for RECEIPT `ready`. Null: raw frames. */
  stomp: string[] | null;
}

type ChildMessage =
  | { type: 'ready'; openMs: number }
  | { type: 'error'; message: string }
  | { type: 'done'; seq: number }
  | { type: 'stats'; delivered: number; p50: number; p99: number; lastAt: number; closedEarly: number };

// ---------------------------------------------------------------- subscriber process

function percentile(sorted: Float64Array, p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function subscriberProcess(): Promise<void> {
  const send = (m: ChildMessage) => process.send!(m);
  const cmd = await new Promise<OpenCommand>((resolve) => process.once('message', (m) => resolve(m as OpenCommand)));
  const counts = new Uint32Array(cmd.events);
  const latencies = new Float64Array(cmd.connections * cmd.events);
  let delivered = 0;
  let lastAt = 0;
  let closedEarly = 0;
  let stopping = false;
  const sockets: WebSocket[] = [];
  const marker = /"seq":(\d+),"sentAt":([\d.]+)/g;
  const open = () =>
    new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(cmd.url, cmd.stomp ? ['v12.stomp'] : [], { headers: cmd.headers, rejectUnauthorized: false, perMessageDeflate: false });
      sockets.push(ws);
      let ready = cmd.stomp === null;
      ws.on('error', reject);
      ws.on('close', () => stopping || closedEarly++);
      ws.on('open', () => {
        if (cmd.stomp) for (const frame of cmd.stomp) ws.send(frame);
        else resolve();
      });
      ws.on('message', (data: Buffer) => {
        const text = data.toString('utf8');
        if (!ready) {
          if (text.startsWith('ERROR')) reject(new Error(text.slice(0, 300)));
          if (text.includes('receipt-id:ready')) ((ready = true), resolve());
          return;
        }
        const at = now();
        marker.lastIndex = 0;
        for (let m = marker.exec(text); m; m = marker.exec(text)) {
          const seq = Number(m[1]);
          latencies[delivered++] = at - Number(m[2]);
          lastAt = at;
          if (++counts[seq]! === cmd.connections) send({ type: 'done', seq });
        }
      });
    });
  const openStarted = now();
  try {
    // Open in slices, so that the handshakes do not all queue at once.
    for (let i = 0; i < cmd.connections; i += 50) await Promise.all(Array.from({ length: Math.min(50, cmd.connections - i) }, open));
    send({ type: 'ready', openMs: now() - openStarted });
  } catch (e) {
    send({ type: 'error', message: (e as Error).message });
  }
  // `stats` answers the figures of the phase that ended and starts the next; `exit` closes everything.
  process.on('message', (m) => {
    const command = (m as { cmd?: string }).cmd;
    if (command === 'stats') {
      const sorted = latencies.slice(0, delivered).sort();
      send({ type: 'stats', delivered, p50: percentile(sorted, 50), p99: percentile(sorted, 99), lastAt, closedEarly });
      delivered = 0;
    } else if (command === 'exit') {
      stopping = true;
      for (const ws of sockets) ws.terminate();
      setTimeout(() => process.exit(0), 100);
    }
  });
}

// ---------------------------------------------------------------- driver

interface PhaseResult {
  delivered: number;
  expected: number;
  seconds: number;
  rate: number;
  p50: number;
  p99: number;
  complete: boolean;
  /** Subscriber connections the server closed since the connections were opened. */
  closedEarly: number;
}

interface Result {
  label: string;
  openSeconds: number;
  throughput: PhaseResult;
  /** The latency phase and the rate of changes it was raised at. */
  latency: PhaseResult & { changesPerSecond: number };
}

/** Raises change `seq`, stamped with the time it was (or was due to be) raised. */
type Raise = (seq: number, sentAt: number) => Promise<void> | void;

function body(seq: number, sentAt: number): { entity: string; entityUuid: string; type: 'UPDATE'; deviceUuid: null; timestampMs: number; update: { seq: number; sentAt: number } } {
  return { entity: 'DOOR', entityUuid: 'bench-door', type: 'UPDATE', deviceUuid: null, timestampMs: Date.now(), update: { seq, sentAt } };
}

const sleep = (msDelay: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, msDelay)));

/**
 * Forks the subscribers, runs the throughput phase and then the latency phase (at `latencyRate` changes per
 * second, or at LOAD of this target's own throughput when none is given), and collects the figures.
 */
async function measure(label: string, open: OpenCommand, raise: Raise, latencyRate?: number): Promise<Result> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_CHILD_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.BENCH_CHILD_PROF] : [])],
    env: { ...process.env, GH_STREAM_FANOUT_SUBSCRIBERS: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let completed = 0;
  let progressAt = 0;
  let wake: (() => void) | null = null;
  let stats: ((m: Extract<ChildMessage, { type: 'stats' }>) => void) | null = null;
  const ready = new Promise<number>((resolve, reject) => {
    child.on('message', (m: ChildMessage) => {
      if (m.type === 'ready') resolve(m.openMs);
      else if (m.type === 'error') reject(new Error(`${label}: ${m.message}`));
      else if (m.type === 'done') {
        completed++;
        progressAt = now();
        wake?.();
      } else if (m.type === 'stats') stats?.(m);
    });
    child.once('exit', (code) => reject(new Error(`${label}: subscriber process exited (${code})`)));
  });
  const waitForProgress = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, 200);
    }).then(() => void (wake = null));
  /**
   * Runs one phase: raises `count` changes from `first` on, as `pace` allows (it answers the raise time of
   * change `i`, or null to be asked again), and waits for them to arrive.
   */
  type Pace = (i: number, started: number, inFlight: number) => Promise<number | null>;
  const phase = async (first: number, count: number, pace: Pace): Promise<PhaseResult> => {
    const before = completed;
    const target = before + count;
    const started = now();
    const deadline = started + TIMEOUT_MS;
    progressAt = started;
    let i = 0;
    let failure: unknown = null;
    // Bounded in time, and given up after 30 s without a change fully delivered (a stalled server).
    while (completed < target && now() < deadline && now() - progressAt < 30_000) {
      if (failure) throw failure;
      if (i < count) {
        const sentAt = await pace(i, started, i - (completed - before));
        // Not awaited: changes are raised concurrently, as many devices and callers would.
        if (sentAt !== null) Promise.resolve(raise(first + i++, sentAt)).catch((e: unknown) => (failure ??= e));
      } else await waitForProgress();
    }
    const s = await new Promise<Extract<ChildMessage, { type: 'stats' }>>((resolve) => {
      stats = resolve;
      child.send({ cmd: 'stats' });
    });
    const seconds = (s.lastAt - started) / 1000;
    const expected = CONNECTIONS * count;
    return { delivered: s.delivered, expected, seconds, rate: s.delivered / seconds, p50: s.p50, p99: s.p99, complete: s.delivered === expected, closedEarly: s.closedEarly };
  };
  try {
    child.send({ ...open, events: EVENTS + LATENCY_EVENTS });
    const openMs = await ready;
    // Closed loop: raise while fewer than WINDOW changes are in flight, else wait for one to arrive.
    const throughput = await phase(0, EVENTS, async (_i, _started, inFlight) => {
      if (inFlight < WINDOW) return now();
      await waitForProgress();
      return null;
    });
    const changesPerSecond = latencyRate ?? (LOAD * throughput.rate) / CONNECTIONS;
    // On a fixed schedule, whatever the server is doing: each change is stamped with its due time.
    const latency = await phase(EVENTS, LATENCY_EVENTS, async (i, started) => {
      const due = started + (i * 1000) / changesPerSecond;
      // A timer waits at least a millisecond: changes already due are raised at once.
      if (due > now()) await sleep(due - now());
      return due;
    });
    return { label, openSeconds: openMs / 1000, throughput, latency: { ...latency, changesPerSecond } };
  } finally {
    child.send({ cmd: 'exit' });
    // The subscriber process exits by itself once told; kill it if it does not.
    if (child.exitCode === null) await Promise.race([new Promise((r) => child.once('exit', r)), new Promise((r) => setTimeout(r, 2000))]);
    child.kill();
  }
}

const ms = (v: number | null) => (v === null || Number.isNaN(v) ? 'n/a' : `${v.toFixed(1)} ms`);

function describePhase(p: PhaseResult): string {
  const partial = p.complete ? '' : ` (INCOMPLETE: ${p.delivered}/${p.expected} within the time bound)`;
  const closed = p.closedEarly > 0 ? `; ${p.closedEarly} connections closed by the server` : '';
  return `${Math.round(p.rate).toString().padStart(8)} msg/s, p50 ${ms(p.p50)}, p99 ${ms(p.p99)}, ${p.seconds.toFixed(1)} s${partial}${closed}`;
}

function print(r: Result): void {
  console.log(`${r.label} (connecting ${r.openSeconds.toFixed(1)} s)`);
  console.log(`  throughput, ${WINDOW} changes in flight:   ${describePhase(r.throughput)}`);
  console.log(`  latency, ${r.latency.changesPerSecond.toFixed(1)} changes/s paced:  ${describePhase(r.latency)}`);
}

const complete = (r: Result) => r.throughput.complete && r.latency.complete;

async function rabbitWebStompAvailable(): Promise<boolean> {
  const probe = () =>
    new Promise<boolean>((resolve) => {
      const ws = new WebSocket(RABBIT_WS, ['v12.stomp']);
      ws.once('open', () => (ws.close(), resolve(true)));
      ws.once('error', () => resolve(false));
    });
  if (await probe()) return true;
  try {
    await promisify(execFile)('rabbitmq-plugins', ['enable', 'rabbitmq_web_stomp'], { timeout: 60_000 });
  } catch {
    return false;
  }
  for (let i = 0; i < 20; i++) {
    if (await probe()) return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

/** The baseline: RabbitMQ Web-STOMP (plain ws, its default listener) fanning out a topic. */
async function rabbitBaseline(): Promise<Result> {
  const stompConnect = 'CONNECT\naccept-version:1.2\nhost:/\nlogin:guest\npasscode:guest\nheart-beat:0,0\n\n\0';
  // Connected once the subscribers are ready: RabbitMQ closes a WebSocket idle for a minute.
  const connectPublisher = () =>
    new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(RABBIT_WS, ['v12.stomp']);
      ws.once('error', reject);
      ws.once('open', () => ws.send(stompConnect));
      ws.once('message', (d: Buffer) => (d.toString().startsWith('CONNECTED') ? resolve(ws) : reject(new Error(d.toString()))));
      ws.on('close', (code) => code !== 1005 && console.log(`RabbitMQ publisher closed: ${code}`));
    });
  const publisher: { ws: Promise<WebSocket> | null } = { ws: null };
  try {
    return await measure(
      'RabbitMQ Web-STOMP (ws, no TLS)',
      { url: RABBIT_WS, headers: {}, connections: CONNECTIONS, events: EVENTS, stomp: [stompConnect, 'SUBSCRIBE\nid:0\ndestination:/topic/gatehouse-bench\nreceipt:ready\n\n\0'] },
      async (seq, sentAt) => {
        const ws = await (publisher.ws ??= connectPublisher());
        ws.send(serializeFrame({ command: 'SEND', headers: [['destination', '/topic/gatehouse-bench'], ['content-type', 'application/json']], body: JSON.stringify(body(seq, sentAt)) }, '1.2'));
      },
    );
  } finally {
    if (publisher.ws) (await publisher.ws).close();
  }
}

/** The baseline without a broker: one `ws` server over the same TLS broadcasting the same MESSAGE frames. */
async function wsBaseline(tls: { cert: string; key: string }): Promise<Result> {
  const server = createServer(tls);
  const wss = new WebSocketServer({ server });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `wss://127.0.0.1:${(server.address() as AddressInfo).port}/websocket`;
  try {
    return await measure('bare ws broadcast (wss)', { url, headers: {}, connections: CONNECTIONS, events: EVENTS, stomp: null }, (seq, sentAt) => {
      const frame = serializeFrame(
        {
          command: 'MESSAGE',
          headers: [['subscription', '0'], ['message-id', String(seq)], ['destination', '/topic/change/bench'], ['content-type', 'application/json']],
          body: JSON.stringify(body(seq, sentAt)),
        },
        '1.2',
      );
      for (const ws of wss.clients) ws.send(frame);
    });
  } finally {
    for (const ws of wss.clients) ws.terminate();
    wss.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

export async function run(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-'));
  const gatehouse = await startGatehouse(loadConfig({ dataDir, httpPort: 0, mediaPort: 0, wsPort: 0, seed: false }, {}), { log: createLogger('silent') });
  try {
    const org = await createOrg(gatehouse.deps, { name: 'Bench Org' });
    const actor = systemActor(org.orgUuid, 'bench.raise');
    console.log(`${CONNECTIONS} connections, loopback; throughput: ${EVENTS} changes, latency: ${LATENCY_EVENTS} changes at ${LOAD} of the baseline's throughput`);
    const choice = process.env.BENCH_STREAM_BASELINE ?? 'auto';
    let baseline: Result | null = null;
    if (choice === 'rabbitmq' || (choice === 'auto' && (await rabbitWebStompAvailable()))) {
      baseline = await rabbitBaseline();
      print(baseline);
      // A broker that stalls under this load is no baseline; the bare broadcast is.
      if (!complete(baseline) && choice === 'auto') baseline = null;
    }
    if (!baseline) {
      baseline = await wsBaseline(await loadOrCreateTls(gatehouse.config));
      print(baseline);
    }
    const subject = await measure(
      'Gatehouse STOMP (wss, SQLite)',
      {
        url: `${gatehouse.urls.ws}?x-auth-scheme=api-token`,
        headers: { 'x-auth-apikey': org.apiKey },
        connections: CONNECTIONS,
        events: EVENTS,
        stomp: ['CONNECT\naccept-version:1.2\nheart-beat:0,0\n\n\0', `SUBSCRIBE\nid:0\ndestination:/topic/change/${org.orgUuid}\nreceipt:ready\n\n\0`],
      },
      async (seq, sentAt) => {
        const { update, ...change } = body(seq, sentAt);
        await write(gatehouse.deps, actor, async (w) => w.change({ ...change, update }));
      },
      baseline.latency.changesPerSecond,
    );
    print(subject);
    console.log(
      `ratio Gatehouse / baseline throughput: ${(subject.throughput.rate / baseline.throughput.rate).toFixed(2)} (target >= 0.5); ` +
        `Gatehouse p99 at ${subject.latency.changesPerSecond.toFixed(1)} changes/s: ${ms(subject.latency.p99)} (target < 100 ms)`,
    );
  } finally {
    await gatehouse.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.env.GH_STREAM_FANOUT_SUBSCRIBERS === '1') void subscriberProcess();
