// Fan-out of the STOMP stream: C subscribed connections of one organization, E changes raised, measuring
// delivered messages per second and the latency from raise to receipt (p50/p99), beside a baseline in the
// same run: RabbitMQ's Web-STOMP plugin when it can be enabled on this machine, else a bare `ws` broadcast
// of the same frames over the same TLS. The subscribers run in a child process (this file, forked), so that
// they do not share the servers' event loop. Raising is closed-loop: at most W changes are in flight (not
// yet received by every connection), so the latency is that of a busy system, not of an unbounded queue.
//   BENCH_STREAM_CONNECTIONS (1000)  BENCH_STREAM_EVENTS (10000)  BENCH_STREAM_WINDOW (20)
//   BENCH_STREAM_TIMEOUT_S (300, per run; a run also stops after 30 s without progress)
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
  | { type: 'ready' }
  | { type: 'error'; message: string }
  | { type: 'done'; seq: number }
  | { type: 'stats'; delivered: number; p50: number; p99: number; lastAt: number; closedEarly: number; openMs: number };

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
  let openDone = openStarted;
  try {
    // Open in slices, so that the handshakes do not all queue at once.
    for (let i = 0; i < cmd.connections; i += 50) await Promise.all(Array.from({ length: Math.min(50, cmd.connections - i) }, open));
    openDone = now();
    send({ type: 'ready' });
  } catch (e) {
    send({ type: 'error', message: (e as Error).message });
  }
  process.on('message', (m) => {
    if ((m as { cmd?: string }).cmd !== 'stats') return;
    const sorted = latencies.slice(0, delivered).sort();
    stopping = true;
    send({ type: 'stats', delivered, p50: percentile(sorted, 50), p99: percentile(sorted, 99), lastAt, closedEarly, openMs: openDone - openStarted });
    for (const ws of sockets) ws.terminate();
    setTimeout(() => process.exit(0), 100);
  });
}

// ---------------------------------------------------------------- driver

interface Result {
  label: string;
  delivered: number;
  expected: number;
  seconds: number;
  rate: number;
  p50: number;
  p99: number;
  complete: boolean;
  /** Subscriber connections the server closed during the run. */
  closedEarly: number;
  openSeconds: number;
}

function body(seq: number): { entity: string; entityUuid: string; type: 'UPDATE'; deviceUuid: null; timestampMs: number; update: { seq: number; sentAt: number } } {
  return { entity: 'DOOR', entityUuid: 'bench-door', type: 'UPDATE', deviceUuid: null, timestampMs: Date.now(), update: { seq, sentAt: now() } };
}

/** Forks the subscribers, raises EVENTS changes with at most WINDOW in flight, and collects the figures. */
async function measure(label: string, open: OpenCommand, raise: (seq: number) => Promise<void> | void): Promise<Result> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_CHILD_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.BENCH_CHILD_PROF] : [])],
    env: { ...process.env, GH_STREAM_FANOUT_SUBSCRIBERS: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let completed = 0;
  let progressAt = 0;
  let wake: (() => void) | null = null;
  let stats: ((m: Extract<ChildMessage, { type: 'stats' }>) => void) | null = null;
  const ready = new Promise<void>((resolve, reject) => {
    child.on('message', (m: ChildMessage) => {
      if (m.type === 'ready') resolve();
      else if (m.type === 'error') reject(new Error(`${label}: ${m.message}`));
      else if (m.type === 'done') {
        completed++;
        progressAt = now();
        wake?.();
      } else if (m.type === 'stats') stats?.(m);
    });
    child.once('exit', (code) => reject(new Error(`${label}: subscriber process exited (${code})`)));
  });
  try {
    child.send({ ...open, events: EVENTS });
    await ready;
    const started = now();
    const deadline = started + TIMEOUT_MS;
    let next = 0;
    progressAt = started;
    // Bounded in time, and given up after 30 s without a change fully delivered (a stalled server).
    while (completed < EVENTS && now() < deadline && now() - progressAt < 30_000) {
      while (next < EVENTS && next - completed < WINDOW) await raise(next++);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 200);
      });
      wake = null;
    }
    const s = await new Promise<Extract<ChildMessage, { type: 'stats' }>>((resolve) => {
      stats = resolve;
      child.send({ cmd: 'stats' });
    });
    const seconds = (s.lastAt - started) / 1000;
    const expected = CONNECTIONS * EVENTS;
    return {
      label,
      delivered: s.delivered,
      expected,
      seconds,
      rate: s.delivered / seconds,
      p50: s.p50,
      p99: s.p99,
      complete: s.delivered === expected,
      closedEarly: s.closedEarly,
      openSeconds: s.openMs / 1000,
    };
  } finally {
    // The subscriber process exits by itself once it has answered; kill it if it does not.
    if (child.exitCode === null) await Promise.race([new Promise((r) => child.once('exit', r)), new Promise((r) => setTimeout(r, 2000))]);
    child.kill();
  }
}

const ms = (v: number | null) => (v === null || Number.isNaN(v) ? 'n/a' : `${v.toFixed(1)} ms`);

function print(r: Result): void {
  const partial = r.complete ? '' : ` (INCOMPLETE: ${r.delivered}/${r.expected} within the time bound)`;
  const closed = r.closedEarly > 0 ? `; ${r.closedEarly} connections closed by the server` : '';
  console.log(`${r.label.padEnd(34)} ${Math.round(r.rate).toString().padStart(8)} msg/s, p50 ${ms(r.p50)}, p99 ${ms(r.p99)}, ${r.seconds.toFixed(1)} s (connecting ${r.openSeconds.toFixed(1)} s)${partial}${closed}`);
}

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
      async (seq) => {
        const ws = await (publisher.ws ??= connectPublisher());
        ws.send(serializeFrame({ command: 'SEND', headers: [['destination', '/topic/gatehouse-bench'], ['content-type', 'application/json']], body: JSON.stringify(body(seq)) }, '1.2'));
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
    return await measure('bare ws broadcast (wss)', { url, headers: {}, connections: CONNECTIONS, events: EVENTS, stomp: null }, (seq) => {
      const frame = serializeFrame(
        {
          command: 'MESSAGE',
          headers: [['subscription', '0'], ['message-id', String(seq)], ['destination', '/topic/change/bench'], ['content-type', 'application/json']],
          body: JSON.stringify(body(seq)),
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
    console.log(`${CONNECTIONS} connections, ${EVENTS} changes, at most ${WINDOW} in flight, loopback`);
    const choice = process.env.BENCH_STREAM_BASELINE ?? 'auto';
    let baseline: Result | null = null;
    if (choice === 'rabbitmq' || (choice === 'auto' && (await rabbitWebStompAvailable()))) {
      baseline = await rabbitBaseline();
      print(baseline);
      // A broker that stalls under this load is no baseline; the bare broadcast is.
      if (!baseline.complete && choice === 'auto') baseline = null;
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
      async (seq) => {
        const { update, ...change } = body(seq);
        await write(gatehouse.deps, actor, async (w) => w.change({ ...change, update }));
      },
    );
    print(subject);
    console.log(`ratio Gatehouse / baseline throughput: ${(subject.rate / baseline.rate).toFixed(2)} (target >= 0.5); Gatehouse p99 ${ms(subject.p99)} (target < 100 ms)`);
  } finally {
    await gatehouse.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.env.GH_STREAM_FANOUT_SUBSCRIBERS === '1') void subscriberProcess();
