// Fan-out of the STOMP stream: C subscribed connections of one organization, beside two baselines in the same
// run: RabbitMQ's Web-STOMP plugin (when it can be enabled and can hold C connections) and a bare `ws`
// broadcast of the same MESSAGE frames over the same TLS (what any Node.js WebSocket server pays to fan out).
// Each target's subscribers run in a child process of their own (this file, forked), so that they do not
// share the servers' event loop; they stay connected for the whole run and heart-beat every 10 s, as real
// clients do (RabbitMQ closes a WebSocket that sends nothing for a minute). The targets are measured in
// alternating rounds, so that a noisy moment on the machine does not land on one side only:
//  1. throughput: E changes per target over R rounds, raised closed-loop with at most W in flight (not yet
//     received by every connection); the median round's delivered messages per second.
//  2. latency: L changes per target over R rounds, raised on a fixed schedule at LOAD of the fastest
//     baseline's throughput (the same rate for the targets that can take it; a slower baseline at LOAD of
//     its own), with p50/p99 over all rounds from each change's scheduled raise to its receipt (a raiser held
//     up by a busy server does not hide the delay).
// Every round is bounded in time, and given up after 30 s without a change fully delivered.
// Gatehouse is measured in two set-ups (BENCH_STREAM_SETUPS): SQLite with the in-process bus, and PostgreSQL with
// the Redis bus across two instances (changes written on one, subscribers on the other). Targets: throughput
// >= 0.85 of the bare broadcast, p99 < 50 ms in the paced phase; the server's memory per idle connection is
// reported beside them.
//   BENCH_STREAM_CONNECTIONS (1000)  BENCH_STREAM_EVENTS (6000)  BENCH_STREAM_WINDOW (20)
//   BENCH_STREAM_LATENCY_EVENTS (1500)  BENCH_STREAM_LOAD (0.5)  BENCH_STREAM_ROUNDS (3)
//   BENCH_STREAM_TIMEOUT_S (20, per round and target)  BENCH_STREAM_BASELINE (ws | auto: auto adds RabbitMQ)
//   BENCH_STREAM_SETUPS (sqlite,postgres-redis)
import { execFile, fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import WebSocket, { WebSocketServer } from 'ws';
import { built } from './lib/built.js';
import { record } from './lib/results.js';
import { createTestDatabase, REDIS_TEST_URL, type TestDatabase } from '../test/helpers/databases.js';
import { serializeFrame } from '../src/streaming/frame.js';

// The subscriber processes (this file, forked) need none of the server: it is loaded only where it runs.
const isSubscriberProcess = process.env.GH_STREAM_FANOUT_SUBSCRIBERS === '1';
const server = isSubscriberProcess
  ? null
  : {
      ...(await built<typeof import('../src/app.js')>('app.js')),
      ...(await built<typeof import('../src/config.js')>('config.js')),
      ...(await built<typeof import('../src/deps.js')>('deps.js')),
      ...(await built<typeof import('../src/domains/orgs/service.js')>('domains/orgs/service.js')),
      ...(await built<typeof import('../src/logger.js')>('logger.js')),
      ...(await built<typeof import('../src/store/write.js')>('store/write.js')),
      ...(await built<typeof import('../src/tls.js')>('tls.js')),
    };
/** A change of the bench's own shape (sequence number and send time), outside the typed entity map. */
const rawChange = (change: object) => change as never;

const CONNECTIONS = Number(process.env.BENCH_STREAM_CONNECTIONS ?? 1000);
const EVENTS = Number(process.env.BENCH_STREAM_EVENTS ?? 6000);
const WINDOW = Number(process.env.BENCH_STREAM_WINDOW ?? 20);
const LATENCY_EVENTS = Number(process.env.BENCH_STREAM_LATENCY_EVENTS ?? 1500);
const LOAD = Number(process.env.BENCH_STREAM_LOAD ?? 0.5);
const ROUNDS = Number(process.env.BENCH_STREAM_ROUNDS ?? 3);
const ROUND_TIMEOUT_MS = Number(process.env.BENCH_STREAM_TIMEOUT_S ?? 20) * 1000;
const STALL_MS = 30_000;
const HEARTBEAT_MS = 10_000;
const RABBIT_WS = 'ws://127.0.0.1:15674/ws';
const now = () => performance.timeOrigin + performance.now();
const sleep = (msDelay: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, msDelay)));

/** Where a target's subscribers connect, and what they send to subscribe. */
interface Endpoint {
  url: string;
  headers: Record<string, string>;
  /** STOMP frames to send after opening, in order; the last one asks for RECEIPT `ready`. Null: raw frames. */
  stomp: string[] | null;
}

/** What a subscriber process is told to open: the same numbers for every target. */
interface OpenCommand extends Endpoint {
  connections: number;
  /** Changes it will see in all, numbered from 0. */
  events: number;
}

interface Stats {
  delivered: number;
  p50: number;
  p99: number;
  lastAt: number;
  closedEarly: number;
}

type ChildMessage = { type: 'ready'; openMs: number } | { type: 'error'; message: string } | { type: 'done'; seq: number } | ({ type: 'stats' } & Stats);
/** `mark` starts counting anew; `stats` answers what arrived since the last mark; `exit` closes everything. */
type ParentMessage = { cmd: 'mark' } | { cmd: 'stats' } | { cmd: 'exit' };

// ---------------------------------------------------------------- subscriber process

function percentile(sorted: Float64Array, p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function subscriberProcess(): Promise<void> {
  const send = (m: ChildMessage) => process.send!(m);
  const cmd = await new Promise<OpenCommand>((resolve) => process.once('message', (m) => resolve(m as OpenCommand)));
  const counts = new Uint32Array(cmd.events);
  // Room for the largest measurement: a throughput round or the latency phase.
  const latencies = new Float64Array(cmd.connections * Math.max(Math.ceil(EVENTS / ROUNDS), LATENCY_EVENTS));
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
          if (text.includes('receipt-id:ready')) {
            ready = true;
            resolve();
          }
          return;
        }
        const at = now();
        marker.lastIndex = 0;
        for (let m = marker.exec(text); m; m = marker.exec(text)) {
          const seq = Number(m[1]);
          if (delivered < latencies.length) latencies[delivered] = at - Number(m[2]);
          delivered++;
          lastAt = at;
          if (++counts[seq]! === cmd.connections) send({ type: 'done', seq });
        }
      });
    });
  // A bare EOL is a STOMP heart-beat; the bare ws server ignores it.
  setInterval(() => {
    for (const ws of sockets) if (ws.readyState === WebSocket.OPEN) ws.send('\n');
  }, HEARTBEAT_MS);
  const openStarted = now();
  try {
    // Open in slices, so that the handshakes do not all queue at once.
    for (let i = 0; i < cmd.connections; i += 50) await Promise.all(Array.from({ length: Math.min(50, cmd.connections - i) }, open));
    send({ type: 'ready', openMs: now() - openStarted });
  } catch (e) {
    send({ type: 'error', message: (e as Error).message });
  }
  process.on('message', (m: ParentMessage) => {
    if (m.cmd === 'mark') {
      delivered = 0;
    } else if (m.cmd === 'stats') {
      const sorted = latencies.slice(0, Math.min(delivered, latencies.length)).sort();
      send({ type: 'stats', delivered, p50: percentile(sorted, 50), p99: percentile(sorted, 99), lastAt, closedEarly });
    } else {
      stopping = true;
      for (const ws of sockets) ws.terminate();
      setTimeout(() => process.exit(0), 100);
    }
  });
}

// ---------------------------------------------------------------- driver

/** Raises change `seq`, stamped with the time it was (or was due to be) raised. */
type Raise = (seq: number, sentAt: number) => Promise<void> | void;
/** The raise time of the phase's change `i`, or null to be asked again. */
type Pace = (i: number, started: number, inFlight: number) => Promise<number | null>;

interface PhaseResult {
  /** Changes raised, of those asked for (fewer when the round hit its time bound). */
  raised: number;
  asked: number;
  delivered: number;
  seconds: number;
  rate: number;
  p50: number;
  p99: number;
  /** Every raised change reached every connection. */
  complete: boolean;
  /** Subscriber connections the server closed since they were opened. */
  closedEarly: number;
}

function body(seq: number, sentAt: number) {
  return { entity: 'DOOR', entityUuid: 'bench-door', type: 'UPDATE' as const, deviceUuid: null, timestampMs: Date.now(), update: { seq, sentAt } };
}

/** One target: its subscriber process, connected for the whole run, and how a change is raised on it. */
class Target {
  readonly throughputRounds: PhaseResult[] = [];
  private readonly latencyRounds: PhaseResult[] = [];
  /** Every latency round together, once the last has run. */
  latency: (PhaseResult & { changesPerSecond: number }) | null = null;
  openSeconds = 0;
  private raisedSoFar = 0;
  private completed = 0;
  private progressAt = 0;
  private wake: (() => void) | null = null;
  private statsWaiter: ((s: Stats) => void) | null = null;
  private readonly child: ChildProcess;

  constructor(
    readonly label: string,
    private readonly endpoint: Endpoint,
    private readonly raise: Raise,
    readonly isBaseline: boolean,
  ) {
    this.child = fork(fileURLToPath(import.meta.url), [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, GH_STREAM_FANOUT_SUBSCRIBERS: '1' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
  }

  /** Opens the connections; resolves once every one has subscribed. */
  async connect(): Promise<void> {
    const openMs = await new Promise<number>((resolve, reject) => {
      this.child.on('message', (m: ChildMessage) => {
        if (m.type === 'ready') resolve(m.openMs);
        else if (m.type === 'error') reject(new Error(`${this.label}: ${m.message}`));
        else if (m.type === 'done') {
          this.completed++;
          this.progressAt = now();
          this.wake?.();
        } else if (m.type === 'stats') this.statsWaiter?.(m);
      });
      this.child.once('exit', (code) => reject(new Error(`${this.label}: subscriber process exited (${code})`)));
      this.child.send({ ...this.endpoint, connections: CONNECTIONS, events: EVENTS + LATENCY_EVENTS } satisfies OpenCommand);
    });
    this.openSeconds = openMs / 1000;
  }

  get medianThroughput(): PhaseResult {
    return [...this.throughputRounds].sort((a, b) => a.rate - b.rate)[Math.floor(this.throughputRounds.length / 2)]!;
  }

  /** Closed loop: raises while fewer than WINDOW changes are in flight. */
  async throughputRound(count: number): Promise<void> {
    this.command({ cmd: 'mark' });
    this.throughputRounds.push(
      await this.phase(count, async (_i, _started, inFlight) => {
        if (inFlight < WINDOW) return now();
        await this.waitForProgress();
        return null;
      }),
    );
  }

  /**
   * On a fixed schedule, whatever the server is doing: each change is stamped with its due time. The child
   * counts from the first latency round on, so that the last round's figures are those of all of them.
   */
  async latencyRound(count: number, changesPerSecond: number): Promise<void> {
    if (this.latencyRounds.length === 0) this.command({ cmd: 'mark' });
    this.latencyRounds.push(
      await this.phase(count, async (i, started) => {
        const due = started + (i * 1000) / changesPerSecond;
        // A timer waits at least a millisecond: changes already due are raised at once.
        if (due > now()) await sleep(due - now());
        return due;
      }),
    );
    if (this.latencyRounds.length < ROUNDS) return;
    const s = await this.stats();
    const total = (key: 'raised' | 'asked' | 'seconds') => this.latencyRounds.reduce((sum, r) => sum + r[key], 0);
    const [raised, seconds] = [total('raised'), total('seconds')];
    const complete = this.latencyRounds.every((r) => r.complete) && s.delivered === raised * CONNECTIONS;
    this.latency = {
      raised,
      asked: total('asked'),
      delivered: s.delivered,
      seconds,
      rate: s.delivered / seconds,
      p50: s.p50,
      p99: s.p99,
      complete,
      closedEarly: s.closedEarly,
      changesPerSecond,
    };
  }

  async close(): Promise<void> {
    this.command({ cmd: 'exit' });
    // The subscriber process exits by itself once told; kill it if it does not.
    if (this.child.exitCode === null) await Promise.race([new Promise((r) => this.child.once('exit', r)), sleep(2000)]);
    this.child.kill();
  }

  private command(m: ParentMessage): void {
    this.child.send(m);
  }

  private stats(): Promise<Stats> {
    return new Promise((resolve) => {
      this.statsWaiter = resolve;
      this.command({ cmd: 'stats' });
    });
  }

  private waitForProgress(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wake = resolve;
      setTimeout(resolve, 200);
    }).then(() => void (this.wake = null));
  }

  /** Raises up to `count` changes as `pace` allows, within the round's time bound, and waits for them to arrive. */
  private async phase(count: number, pace: Pace): Promise<PhaseResult> {
    const completedBefore = this.completed;
    const started = now();
    const deadline = started + ROUND_TIMEOUT_MS;
    const stalled = () => now() - this.progressAt > STALL_MS;
    this.progressAt = started;
    let raised = 0;
    let failure: unknown = null;
    while (raised < count && now() < deadline && !stalled()) {
      if (failure) throw failure;
      const sentAt = await pace(raised, started, raised - (this.completed - completedBefore));
      if (sentAt === null) continue;
      // Not awaited: changes are raised concurrently, as many devices and callers would.
      Promise.resolve(this.raise(this.raisedSoFar++, sentAt)).catch((e: unknown) => (failure ??= e));
      raised++;
    }
    while (this.completed - completedBefore < raised && !stalled()) await this.waitForProgress();
    if (failure) throw failure;
    const s = await this.stats();
    const seconds = (s.lastAt - started) / 1000;
    const complete = this.completed - completedBefore === raised;
    return { raised, asked: count, delivered: s.delivered, seconds, rate: s.delivered / seconds, p50: s.p50, p99: s.p99, complete, closedEarly: s.closedEarly };
  }
}

const ms = (v: number) => (Number.isNaN(v) ? 'n/a' : `${v.toFixed(1)} ms`);
const rate = (v: number) => `${Math.round(v).toLocaleString('en-US')} msg/s`;

function caveats(p: PhaseResult): string {
  const notes: string[] = [];
  if (p.raised < p.asked) notes.push(`time-bound: ${p.raised} of ${p.asked} changes`);
  if (!p.complete) notes.push(`INCOMPLETE: ${p.delivered} of ${p.raised * CONNECTIONS} messages`);
  if (p.closedEarly > 0) notes.push(`${p.closedEarly} connections closed by the server`);
  return notes.length ? ` (${notes.join('; ')})` : '';
}

function print(t: Target): void {
  const rounds = t.throughputRounds.map((r) => Math.round(r.rate).toLocaleString('en-US')).join(', ');
  const tp = t.medianThroughput;
  console.log(`${t.label} (connecting ${t.openSeconds.toFixed(1)} s)`);
  console.log(`  throughput, ${WINDOW} changes in flight: ${rate(tp.rate)} (median of rounds ${rounds})${caveats(tp)}`);
  if (t.latency)
    console.log(`  latency, ${t.latency.changesPerSecond.toFixed(1)} changes/s paced: p50 ${ms(t.latency.p50)}, p99 ${ms(t.latency.p99)}${caveats(t.latency)}`);
}

/** Why RabbitMQ Web-STOMP cannot be the baseline here, or null when it can. */
async function rabbitUnavailable(): Promise<string | null> {
  const run = promisify(execFile);
  const probe = () =>
    new Promise<boolean>((resolve) => {
      const ws = new WebSocket(RABBIT_WS, ['v12.stomp']);
      ws.once('open', () => (ws.close(), resolve(true)));
      ws.once('error', () => resolve(false));
    });
  if (!(await probe())) {
    try {
      await run('rabbitmq-plugins', ['enable', 'rabbitmq_web_stomp'], { timeout: 60_000 });
    } catch (e) {
      return `rabbitmq-plugins enable rabbitmq_web_stomp failed (${(e as Error).message.split('\n')[0]})`;
    }
    let up = false;
    for (let i = 0; i < 20 && !(up = await probe()); i++) await sleep(500);
    if (!up) return `nothing listens on ${RABBIT_WS} after enabling the plugin`;
  }
  // Each connection is a socket of the broker's: with its default open-file limit (1024) RabbitMQ takes
  // 832 and stalls the rest behind a file-descriptor alarm.
  try {
    const { stdout } = await run('rabbitmq-diagnostics', ['status', '--formatter', 'json'], { timeout: 60_000 });
    const limit = (JSON.parse(stdout) as { file_descriptors?: { sockets_limit?: number } }).file_descriptors?.sockets_limit;
    if (limit !== undefined && limit < CONNECTIONS + 10) {
      return `RabbitMQ may open ${limit} sockets, fewer than ${CONNECTIONS} connections need: raise its open-file limit (docs/streaming.md, Benchmark)`;
    }
  } catch {
    // No diagnostics tool: the run shows whether the broker holds the connections.
  }
  return null;
}

/** RabbitMQ Web-STOMP (plain ws, its default listener) fanning out a topic, published to over one connection. */
function rabbitMq(): { target: Target; close(): Promise<void> } {
  const connect = 'CONNECT\naccept-version:1.2\nhost:/\nlogin:guest\npasscode:guest\nheart-beat:10000,10000\n\n\0';
  let publisher: Promise<WebSocket> | null = null;
  const openPublisher = () =>
    new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(RABBIT_WS, ['v12.stomp']);
      ws.once('error', reject);
      ws.once('open', () => ws.send(connect));
      ws.once('message', (d: Buffer) => (d.toString().startsWith('CONNECTED') ? resolve(ws) : reject(new Error(d.toString()))));
      const beat = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('\n'), HEARTBEAT_MS);
      ws.on('close', () => {
        clearInterval(beat);
        publisher = null;
      });
    });
  const target = new Target(
    'RabbitMQ Web-STOMP (ws, no TLS)',
    { url: RABBIT_WS, headers: {}, stomp: [connect, 'SUBSCRIBE\nid:0\ndestination:/topic/gatehouse-bench\nreceipt:ready\n\n\0'] },
    async (seq, sentAt) => {
      const ws = await (publisher ??= openPublisher());
      ws.send(
        serializeFrame(
          {
            command: 'SEND',
            headers: [
              ['destination', '/topic/gatehouse-bench'],
              ['content-type', 'application/json'],
            ],
            body: JSON.stringify(body(seq, sentAt)),
          },
          '1.2',
        ),
      );
    },
    true,
  );
  return {
    target,
    async close() {
      if (publisher) (await publisher).terminate();
    },
  };
}

/** One `ws` server over the same TLS broadcasting the same MESSAGE frames: no broker, no store, no sessions. */
async function wsBroadcast(tls: { cert: string; key: string }): Promise<{ target: Target; close(): Promise<void> }> {
  const server = createServer(tls);
  const wss = new WebSocketServer({ server });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `wss://127.0.0.1:${(server.address() as AddressInfo).port}/websocket`;
  const target = new Target(
    'bare ws broadcast (wss)',
    { url, headers: {}, stomp: null },
    (seq, sentAt) => {
      const frame = serializeFrame(
        {
          command: 'MESSAGE',
          headers: [
            ['subscription', '0'],
            ['message-id', String(seq)],
            ['destination', '/topic/change/bench'],
            ['content-type', 'application/json'],
          ],
          body: JSON.stringify(body(seq, sentAt)),
        },
        '1.2',
      );
      for (const ws of wss.clients) ws.send(frame);
    },
    true,
  );
  return {
    target,
    async close() {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Splits `total` changes over the rounds. */
const perRound = (total: number, round: number) => Math.floor(total / ROUNDS) + (round < total % ROUNDS ? 1 : 0);

/** The server's resident memory after a full collection, in bytes (the servers run in this process). */
function rss(): number {
  const gc = (globalThis as { gc?: () => void }).gc ?? (setFlagsFromString('--expose-gc'), runInNewContext('gc') as () => void);
  gc();
  gc();
  return process.memoryUsage().rss;
}

type Instance = Awaited<ReturnType<NonNullable<typeof server>['startGatehouse']>>;

/** A Gatehouse target: its subscribers on `subscribeTo`, its changes written through `writeTo`. */
function gatehouseTarget(label: string, writeTo: Instance, subscribeTo: Instance, org: { orgUuid: string; apiKey: string }): Target {
  const actor = server!.systemActor(org.orgUuid, 'bench.raise');
  return new Target(
    label,
    {
      url: `${subscribeTo.urls.ws}?x-auth-scheme=api-token`,
      headers: { 'x-auth-apikey': org.apiKey },
      stomp: ['CONNECT\naccept-version:1.2\nheart-beat:10000,10000\n\n\0', `SUBSCRIBE\nid:0\ndestination:/topic/change/${org.orgUuid}\nreceipt:ready\n\n\0`],
    },
    async (seq, sentAt) => {
      const { update, ...change } = body(seq, sentAt);
      await server!.write(writeTo.deps, actor, async (w) => w.change(rawChange({ ...change, update })));
    },
    false,
  );
}

/** Which Gatehouse set-ups are measured: SQLite with the memory bus, and PostgreSQL with the Redis bus across two instances. */
const SETUPS = (process.env.BENCH_STREAM_SETUPS ?? 'sqlite,postgres-redis').split(',');
const TARGET_THROUGHPUT = 0.85;
const TARGET_P99_MS = 50;

export async function run(): Promise<void> {
  const { startGatehouse, loadConfig, createLogger, createOrg, loadOrCreateTls } = server!;
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-'));
  const config = (flags: Parameters<typeof loadConfig>[0]) => loadConfig({ dataDir, httpPort: 0, mediaPort: 0, wsPort: 0, seed: false, ...flags }, {});
  const instances: Instance[] = [];
  const databases: TestDatabase[] = [];
  const start = async (flags: Parameters<typeof loadConfig>[0]) => {
    const instance = await startGatehouse(config(flags), { log: createLogger('silent') });
    instances.push(instance);
    return instance;
  };
  const targets: Target[] = [];
  const closers: Array<() => Promise<void>> = [];
  try {
    const first = await start({});
    const broadcast = await wsBroadcast(await loadOrCreateTls(first.config));
    closers.push(() => broadcast.close());
    console.log(
      `${CONNECTIONS} connections, loopback, ${ROUNDS} alternating rounds; throughput: ${EVENTS} changes per target, ` +
        `latency: ${LATENCY_EVENTS} changes per target at ${LOAD} of the fastest baseline's throughput`,
    );
    if ((process.env.BENCH_STREAM_BASELINE ?? 'ws') === 'auto') {
      const reason = await rabbitUnavailable();
      if (reason) console.log(`RabbitMQ Web-STOMP left out: ${reason}`);
      else {
        const rabbit = rabbitMq();
        closers.push(() => rabbit.close());
        targets.push(rabbit.target);
      }
    }
    targets.push(broadcast.target);
    const subjects: Target[] = [];
    let idleBytesPerConnection: number | null = null;
    for (const setup of SETUPS) {
      let subject: Target;
      if (setup === 'sqlite') {
        const org = await createOrg(first.deps, { name: 'Bench Org' });
        subject = gatehouseTarget('Gatehouse STOMP (wss, SQLite, memory bus)', first, first, org);
        // The server's memory per idle connection: measured around this target's connections.
        const before = rss();
        await subject.connect();
        idleBytesPerConnection = (rss() - before) / CONNECTIONS;
      } else if (setup === 'postgres-redis') {
        const database = await createTestDatabase('postgres');
        databases.push(database);
        const flags = { database: database.url, bus: REDIS_TEST_URL };
        const [a, b] = [await start(flags), await start(flags)];
        const org = await createOrg(a.deps, { name: 'Bench Org' });
        subject = gatehouseTarget('Gatehouse STOMP (wss, PostgreSQL, Redis bus, written on A, subscribed on B)', a, b, org);
        await subject.connect();
      } else throw new Error(`unknown set-up ${setup} (BENCH_STREAM_SETUPS: sqlite, postgres-redis)`);
      subjects.push(subject);
      targets.push(subject);
    }
    await broadcast.target.connect();
    for (const t of targets) if (t.isBaseline && t !== broadcast.target) await t.connect();
    // Each round starts with another target, so that none always follows the same one.
    const inTurn = (round: number) => targets.map((_, i) => targets[(i + round) % targets.length]!);
    for (let round = 0; round < ROUNDS; round++) for (const t of inTurn(round)) await t.throughputRound(perRound(EVENTS, round));
    const baselines = targets.filter((t) => t.isBaseline && t.medianThroughput.complete);
    if (baselines.length === 0) throw new Error('no baseline delivered every change of its median round');
    const fastest = Math.max(...baselines.map((t) => t.medianThroughput.rate));
    const pace = (t: Target) => (LOAD * (t.isBaseline ? Math.min(fastest, t.medianThroughput.rate) : fastest)) / CONNECTIONS;
    for (let round = 0; round < ROUNDS; round++) {
      for (const t of inTurn(round)) await t.latencyRound(perRound(LATENCY_EVENTS, round), pace(t));
    }
    for (const t of targets) print(t);
    const bare = broadcast.target;
    for (const subject of subjects) {
      const ratio = subject.medianThroughput.rate / bare.medianThroughput.rate;
      const complete = subject.medianThroughput.complete && subject.latency!.complete;
      record(
        `stream throughput / bare ws, ${subject.label}`,
        `${ratio.toFixed(2)} (${rate(subject.medianThroughput.rate)} vs ${rate(bare.medianThroughput.rate)})${complete ? '' : ', INCOMPLETE'}`,
        `>= ${TARGET_THROUGHPUT}`,
        ratio >= TARGET_THROUGHPUT && complete,
      );
      record(
        `stream p99 at ${LOAD} of bare throughput, ${subject.label}`,
        `${ms(subject.latency!.p99)} (p50 ${ms(subject.latency!.p50)}; bare ws p99 ${ms(bare.latency!.p99)})`,
        `< ${TARGET_P99_MS} ms`,
        subject.latency!.p99 < TARGET_P99_MS && subject.latency!.complete,
      );
    }
    if (idleBytesPerConnection !== null) {
      record('server memory per idle stream connection (RSS)', `${(idleBytesPerConnection / 1024).toFixed(1)} KiB`, '', null);
    }
  } finally {
    for (const t of targets) await t.close();
    for (const close of closers) await close();
    for (const instance of instances.reverse()) await instance.close();
    for (const database of databases) await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (isSubscriberProcess) void subscriberProcess();
