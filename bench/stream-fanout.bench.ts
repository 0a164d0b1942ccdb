// Fan-out of the STOMP stream: C subscribed connections of one organization, beside a bare `ws` broadcast of the
// same MESSAGE frames over the same TLS (what any Node.js WebSocket server pays to fan out), and RabbitMQ's
// Web-STOMP plugin when asked for, in the same run.
// Every server runs in a process of its own (bench/lib/stream-server.ts) and raises the changes itself; every
// target's subscribers run in another (bench/lib/stream-subscribers.ts: raw TLS sockets and a minimal WebSocket
// client, the same code for every target), and this process only directs them. So no server shares its event
// loop with another server, with the subscribers, or with the driver, and the harness costs every target the same.
// The subscribers stay connected for the whole run and heart-beat every 10 s, as real clients do. The targets are
// measured in alternating rounds, so that a noisy moment on the machine does not land on one side only:
//  1. throughput: E changes per target over R rounds, raised closed-loop with at most W in flight (not yet
//     received by every connection); the median round's delivered messages per second.
//  2. latency: L changes per target over R rounds, raised by the server process on a fixed schedule at LOAD of
//     the fastest baseline's throughput (the same rate for the targets that can take it; a slower baseline at
//     LOAD of its own), with p50/p99 over all rounds from each change's scheduled raise to its receipt (a raiser
//     held up by a busy server does not hide the delay).
// Beside each figure: the server processes' CPU time per delivered message (robust on a shared machine), and the
// subscribers'. Every round is bounded in time, and given up after 30 s without a change fully delivered.
// Gatehouse is measured in two set-ups (BENCH_STREAM_SETUPS): SQLite with the in-process bus, and PostgreSQL with
// the Redis bus across two instances (changes written on A, subscribers on B). Targets: throughput >= 0.85 of the
// bare broadcast, p99 < 50 ms in the paced phase; the server's memory per idle connection is reported beside them.
//   BENCH_STREAM_CONNECTIONS (1000)  BENCH_STREAM_EVENTS (6000)  BENCH_STREAM_WINDOW (20)
//   BENCH_STREAM_LATENCY_EVENTS (1500)  BENCH_STREAM_LOAD (0.5)  BENCH_STREAM_ROUNDS (3)
//   BENCH_STREAM_TIMEOUT_S (20, per round and target)  BENCH_STREAM_BASELINE (ws | auto: auto adds RabbitMQ)
//   BENCH_STREAM_SETUPS (sqlite,postgres-redis)
//   BENCH_STREAM_PROFILE (a folder: each server process writes the inspector's CPU profile of each of its rounds
//   there, <target>-<phase>-<round>[-<instance>].cpuprofile; summarize with bench/lib/profile-summary.ts)
import { execFile, fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import WebSocket from 'ws';
import { built } from './lib/built.js';
import { monotonicMs } from './lib/monotonic.js';
import { record } from './lib/results.js';
import type { ServerNotice, ServerReply, ServerRequest, ServerRole } from './lib/stream-server.js';
import type { SubscriberControl, SubscriberMessage, SubscribersCommand, SubscriberStats } from './lib/stream-subscribers.js';
import { createTestDatabase, REDIS_TEST_URL, type TestDatabase } from '../test/helpers/databases.js';

const CONNECTIONS = Number(process.env.BENCH_STREAM_CONNECTIONS ?? 1000);
const EVENTS = Number(process.env.BENCH_STREAM_EVENTS ?? 6000);
const WINDOW = Number(process.env.BENCH_STREAM_WINDOW ?? 20);
const LATENCY_EVENTS = Number(process.env.BENCH_STREAM_LATENCY_EVENTS ?? 1500);
const LOAD = Number(process.env.BENCH_STREAM_LOAD ?? 0.5);
const ROUNDS = Number(process.env.BENCH_STREAM_ROUNDS ?? 3);
const ROUND_TIMEOUT_MS = Number(process.env.BENCH_STREAM_TIMEOUT_S ?? 20) * 1000;
const PROFILE_DIR = process.env.BENCH_STREAM_PROFILE ? resolve(process.env.BENCH_STREAM_PROFILE) : null;
/** Which Gatehouse set-ups are measured: SQLite with the memory bus, and PostgreSQL with the Redis bus across two instances. */
const SETUPS = (process.env.BENCH_STREAM_SETUPS ?? 'sqlite,postgres-redis').split(',');
const STALL_MS = 30_000;
const RABBIT_WS = 'ws://127.0.0.1:15674/ws';
const RABBIT_TOPIC = '/topic/gatehouse-bench';
const TARGET_THROUGHPUT = 0.85;
const TARGET_P99_MS = 50;
const sleep = (msDelay: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, msDelay)));
const here = fileURLToPath(new URL('.', import.meta.url));

/** A server process (bench/lib/stream-server.ts), spoken to by requests and notices. */
class ServerProcess {
  private readonly child: ChildProcess;
  private readonly waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private nextId = 0;
  failure: string | null = null;

  constructor(readonly name: string) {
    this.child = fork(join(here, 'lib', 'stream-server.ts'), [], {
      execArgv: ['--import', 'tsx', '--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (m: ServerReply) => {
      if ('type' in m) return void (this.failure ??= m.message);
      const waiter = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (m.error !== undefined) waiter?.reject(new Error(`${name}: ${m.error}`));
      else waiter?.resolve(m.value);
    });
    this.child.once('exit', (code) => {
      for (const w of this.waiting.values()) w.reject(new Error(`${name}: server process exited (${code})`));
      this.waiting.clear();
    });
  }

  request<T>(m: ServerRequest): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ ...m, id });
    });
  }

  notify(m: ServerNotice): void {
    this.child.send(m);
  }

  /** CPU time so far, and the event loop's delay since the last call. */
  usage(): Promise<ServerUsage> {
    return this.request<ServerUsage>({ cmd: 'usage' });
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    this.notify({ cmd: 'exit' });
    await Promise.race([new Promise((r) => this.child.once('exit', r)), sleep(6000)]);
    this.child.kill();
  }
}

interface ServerUsage {
  cpuMicros: number;
  loopP99Ms: number;
  loopMaxMs: number;
}

/** Where a target's subscribers connect, and what they send to subscribe. */
type Endpoint = Pick<SubscribersCommand, 'port' | 'path' | 'headers' | 'subprotocol' | 'stomp' | 'plain'>;

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
  errors: number;
  /** The server processes' CPU time per delivered message (µs), each. */
  serverCpu: number[];
  /** The server processes' event loop delay over the phase (p99, ms), each: the length of the turns that held it up. */
  loopP99: number[];
  /** The subscriber process's CPU time per delivered message (µs). */
  clientCpu: number;
}

/** Every target made, measured or not, so that each one's subscriber process is ended. */
const made: Target[] = [];

/** One target: its server processes (the first raises the changes), its subscriber process, and its rounds. */
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
  private statsWaiter: ((s: SubscriberStats) => void) | null = null;
  private readonly child: ChildProcess;
  private latencyUsageBefore: ServerUsage[] = [];

  constructor(
    readonly label: string,
    /** A short name for file names. */
    readonly slug: string,
    readonly servers: ServerProcess[],
    readonly isBaseline: boolean,
  ) {
    this.child = fork(join(here, 'lib', 'stream-subscribers.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    made.push(this);
  }

  /** Opens the connections; resolves once every one has subscribed. */
  async connect(endpoint: Endpoint): Promise<void> {
    const openMs = await new Promise<number>((resolve, reject) => {
      this.child.on('message', (m: SubscriberMessage) => {
        if (m.type === 'ready') resolve(m.openMs);
        else if (m.type === 'error') reject(new Error(`${this.label}: ${m.message}`));
        else if (m.type === 'done') {
          this.completed++;
          this.progressAt = monotonicMs();
          this.wake?.();
        } else if (m.type === 'stats') this.statsWaiter?.(m);
      });
      this.child.once('exit', (code) => reject(new Error(`${this.label}: subscriber process exited (${code})`)));
      const capacity = CONNECTIONS * Math.max(Math.ceil(EVENTS / ROUNDS), LATENCY_EVENTS);
      this.child.send({ host: '127.0.0.1', ...endpoint, connections: CONNECTIONS, events: EVENTS + LATENCY_EVENTS, capacity } satisfies SubscribersCommand);
    });
    this.openSeconds = openMs / 1000;
  }

  get medianThroughput(): PhaseResult {
    return [...this.throughputRounds].sort((a, b) => a.rate - b.rate)[Math.floor(this.throughputRounds.length / 2)]!;
  }

  /** Closed loop: raises while fewer than WINDOW changes are in flight. */
  async throughputRound(count: number): Promise<void> {
    this.command({ cmd: 'mark' });
    const round = this.throughputRounds.length;
    const usageBefore = await this.serverUsage();
    await this.profile('throughput', round, async () => {
      const completedBefore = this.completed;
      const started = monotonicMs();
      const deadline = started + ROUND_TIMEOUT_MS;
      this.progressAt = started;
      let raised = 0;
      while (raised < count && monotonicMs() < deadline && !this.stalled()) {
        this.checkServers();
        if (raised - (this.completed - completedBefore) < WINDOW) {
          this.servers[0]!.notify({ cmd: 'raise', seq: this.raisedSoFar++, sentAt: monotonicMs() });
          raised++;
        } else await this.waitForProgress();
      }
      await this.finish(completedBefore, raised);
      this.throughputRounds.push(await this.result(started, raised, count, completedBefore, usageBefore));
    });
  }

  /**
   * On a fixed schedule kept by the raising server process: each change is stamped with its due time. The
   * subscribers count from the first latency round on, so that the last round's figures are those of all of them.
   */
  async latencyRound(count: number, changesPerSecond: number): Promise<void> {
    if (this.latencyRounds.length === 0) {
      this.command({ cmd: 'mark' });
      this.latencyUsageBefore = await this.serverUsage();
    }
    const round = this.latencyRounds.length;
    await this.profile('latency', round, async () => {
      const completedBefore = this.completed;
      // Room for the request to reach the server before the first change is due.
      const startAt = monotonicMs() + 50;
      this.progressAt = startAt;
      const firstSeq = this.raisedSoFar;
      this.raisedSoFar += count;
      const raised = await this.servers[0]!.request<number>({
        cmd: 'pace',
        firstSeq,
        count,
        perSecond: changesPerSecond,
        startAt,
        deadline: startAt + ROUND_TIMEOUT_MS,
      });
      await this.finish(completedBefore, raised);
      this.latencyRounds.push(await this.result(startAt, raised, count, completedBefore, null));
    });
    if (this.latencyRounds.length < ROUNDS) return;
    const s = await this.stats();
    const total = (key: 'raised' | 'asked' | 'seconds') => this.latencyRounds.reduce((sum, r) => sum + r[key], 0);
    const [raised, seconds] = [total('raised'), total('seconds')];
    const usage = await this.serverUsage();
    this.latency = {
      raised,
      asked: total('asked'),
      delivered: s.delivered,
      seconds,
      rate: s.delivered / seconds,
      p50: s.p50,
      p99: s.p99,
      complete: this.latencyRounds.every((r) => r.complete) && s.delivered === raised * CONNECTIONS,
      closedEarly: s.closedEarly,
      errors: s.errors,
      serverCpu: usage.map((u, i) => (u.cpuMicros - this.latencyUsageBefore[i]!.cpuMicros) / s.delivered),
      loopP99: usage.map((u) => u.loopP99Ms),
      clientCpu: s.cpuMicros / s.delivered,
      changesPerSecond,
    };
  }

  async close(): Promise<void> {
    this.command({ cmd: 'exit' });
    if (this.child.exitCode === null) await Promise.race([new Promise((r) => this.child.once('exit', r)), sleep(2000)]);
    this.child.kill();
  }

  private stalled(): boolean {
    return monotonicMs() - this.progressAt > STALL_MS;
  }

  private checkServers(): void {
    for (const s of this.servers) if (s.failure) throw new Error(`${this.label}: raising a change failed on ${s.name}: ${s.failure}`);
  }

  /** Waits for every raised change to reach every connection (or the stall bound). */
  private async finish(completedBefore: number, raised: number): Promise<void> {
    while (this.completed - completedBefore < raised && !this.stalled()) {
      this.checkServers();
      await this.waitForProgress();
    }
    this.checkServers();
  }

  private async result(started: number, raised: number, asked: number, completedBefore: number, usageBefore: ServerUsage[] | null): Promise<PhaseResult> {
    const s = await this.stats();
    const seconds = (s.lastAt - started) / 1000;
    const usage = usageBefore ? await this.serverUsage() : [];
    return {
      raised,
      asked,
      delivered: s.delivered,
      seconds,
      rate: s.delivered / seconds,
      p50: s.p50,
      p99: s.p99,
      complete: this.completed - completedBefore === raised,
      closedEarly: s.closedEarly,
      errors: s.errors,
      serverCpu: usage.map((u, i) => (u.cpuMicros - usageBefore![i]!.cpuMicros) / s.delivered),
      loopP99: usage.map((u) => u.loopP99Ms),
      clientCpu: s.cpuMicros / s.delivered,
    };
  }

  /** Runs `fn` inside a CPU profile of every server process, when BENCH_STREAM_PROFILE asks for them. */
  private async profile(phase: string, round: number, fn: () => Promise<void>): Promise<void> {
    if (!PROFILE_DIR) return fn();
    await Promise.all(this.servers.map((s) => s.request({ cmd: 'profile-start' })));
    try {
      await fn();
    } finally {
      const file = (s: ServerProcess) => join(PROFILE_DIR, `${this.slug}-${phase}-${round}${this.servers.length > 1 ? `-${s.name}` : ''}.cpuprofile`);
      await Promise.all(this.servers.map((s) => s.request({ cmd: 'profile-stop', file: file(s) })));
    }
  }

  private serverUsage(): Promise<ServerUsage[]> {
    return Promise.all(this.servers.map((s) => s.usage()));
  }

  private command(m: SubscriberControl): void {
    this.child.send(m);
  }

  private stats(): Promise<SubscriberStats> {
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
}

const ms = (v: number) => (Number.isNaN(v) ? 'n/a' : `${v.toFixed(1)} ms`);
const rate = (v: number) => `${Math.round(v).toLocaleString('en-US')} msg/s`;
const micros = (v: number) => `${v.toFixed(1)} µs`;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

function caveats(p: PhaseResult): string {
  const notes: string[] = [];
  if (p.raised < p.asked) notes.push(`time-bound: ${p.raised} of ${p.asked} changes`);
  if (!p.complete) notes.push(`INCOMPLETE: ${p.delivered} of ${p.raised * CONNECTIONS} messages`);
  if (p.closedEarly > 0) notes.push(`${p.closedEarly} connections closed by the server`);
  if (p.errors > 0) notes.push(`${p.errors} ERROR frames`);
  return notes.length ? ` (${notes.join('; ')})` : '';
}

/** Server CPU per message, summed over the target's processes (each named when there are several). */
function cpuFigure(t: Target, p: PhaseResult): string {
  const each = p.serverCpu.length > 1 ? ` (${p.serverCpu.map((c, i) => `${t.servers[i]!.name} ${micros(c)}`).join(', ')})` : '';
  const loop =
    p.loopP99.length === 0
      ? ''
      : `; server loop delay p99 ${p.loopP99.map((v, i) => `${p.loopP99.length > 1 ? `${t.servers[i]!.name} ` : ''}${ms(v)}`).join(', ')}`;
  return `server ${micros(sum(p.serverCpu))}${each}, subscribers ${micros(p.clientCpu)} per message${loop}`;
}

function print(t: Target): void {
  const rounds = t.throughputRounds.map((r) => Math.round(r.rate).toLocaleString('en-US')).join(', ');
  const tp = t.medianThroughput;
  console.log(`${t.label} (connecting ${t.openSeconds.toFixed(1)} s)`);
  console.log(`  throughput, ${WINDOW} changes in flight: ${rate(tp.rate)} (median of rounds ${rounds})${caveats(tp)}; ${cpuFigure(t, tp)}`);
  if (t.latency) {
    const l = t.latency;
    console.log(`  latency, ${l.changesPerSecond.toFixed(1)} changes/s paced: p50 ${ms(l.p50)}, p99 ${ms(l.p99)}${caveats(l)}; ${cpuFigure(t, l)}`);
  }
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

/** Splits `total` changes over the rounds. */
const perRound = (total: number, round: number) => Math.floor(total / ROUNDS) + (round < total % ROUNDS ? 1 : 0);

/** A started server process. */
async function startServer(name: string, start: ServerRole, all: ServerProcess[]): Promise<{ server: ServerProcess; port: number }> {
  const server = new ServerProcess(name);
  all.push(server);
  const { port } = await server.request<{ port: number }>({ cmd: 'start', start });
  return { server, port };
}

/** The STOMP subscription of a Gatehouse target: the organization's change topic, authenticated by its key. */
const gatehouseEndpoint = (port: number, org: { orgUuid: string; apiKey: string }): Endpoint => ({
  port,
  path: '/websocket?x-auth-scheme=api-token',
  headers: { 'x-auth-apikey': org.apiKey },
  subprotocol: 'v12.stomp',
  stomp: ['CONNECT\naccept-version:1.2\nheart-beat:10000,10000\n\n\0', `SUBSCRIBE\nid:0\ndestination:/topic/change/${org.orgUuid}\nreceipt:ready\n\n\0`],
  plain: false,
});

export async function run(): Promise<void> {
  const { loadConfig } = await built<typeof import('../src/config.js')>('config.js');
  const { loadOrCreateTls } = await built<typeof import('../src/tls.js')>('tls.js');
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-'));
  if (PROFILE_DIR) mkdirSync(PROFILE_DIR, { recursive: true });
  const servers: ServerProcess[] = [];
  const databases: TestDatabase[] = [];
  const targets: Target[] = [];
  try {
    // The certificate every TLS target serves: Gatehouse's own, made in the shared data folder.
    const tls = await loadOrCreateTls(loadConfig({ dataDir, httpPort: 0, mediaPort: 0, wsPort: 0, seed: false }, {}));
    console.log(
      `${CONNECTIONS} connections, loopback, ${ROUNDS} alternating rounds; throughput: ${EVENTS} changes per target, ` +
        `latency: ${LATENCY_EVENTS} changes per target at ${LOAD} of the fastest baseline's throughput; every server and ` +
        `every target's subscribers in a process of their own`,
    );
    const bareServer = await startServer('bare', { role: 'bare', tls: { cert: tls.cert, key: tls.key } }, servers);
    const bare = new Target('bare ws broadcast (wss)', 'bare', [bareServer.server], true);
    targets.push(bare);
    const pending: Array<() => Promise<void>> = [
      () => bare.connect({ port: bareServer.port, path: '/websocket', headers: {}, subprotocol: null, stomp: null, plain: false }),
    ];
    if ((process.env.BENCH_STREAM_BASELINE ?? 'ws') === 'auto') {
      const reason = await rabbitUnavailable();
      if (reason) console.log(`RabbitMQ Web-STOMP left out: ${reason}`);
      else {
        const publisher = await startServer('rabbit', { role: 'rabbit', url: RABBIT_WS, destination: RABBIT_TOPIC }, servers);
        const rabbit = new Target('RabbitMQ Web-STOMP (ws, no TLS)', 'rabbit', [publisher.server], true);
        targets.push(rabbit);
        const connect = 'CONNECT\naccept-version:1.2\nhost:/\nlogin:guest\npasscode:guest\nheart-beat:10000,10000\n\n\0';
        const subscribe = `SUBSCRIBE\nid:0\ndestination:${RABBIT_TOPIC}\nreceipt:ready\n\n\0`;
        pending.push(() => rabbit.connect({ port: 15674, path: '/ws', headers: {}, subprotocol: 'v12.stomp', stomp: [connect, subscribe], plain: true }));
      }
    }
    const subjects: Target[] = [];
    let idleBytesPerConnection: number | null = null;
    for (const setup of SETUPS) {
      if (setup === 'sqlite') {
        const { server, port } = await startServer('sqlite', { role: 'gatehouse', flags: { dataDir } }, servers);
        const org = await server.request<{ orgUuid: string; apiKey: string }>({ cmd: 'create-org' });
        const subject = new Target('Gatehouse STOMP (wss, SQLite, memory bus)', 'sqlite', [server], false);
        // The server's memory per idle connection: measured around this target's connections.
        const rss = async () => (await server.request<{ rss: number }>({ cmd: 'usage', rss: true })).rss;
        const before = await rss();
        await subject.connect(gatehouseEndpoint(port, org));
        idleBytesPerConnection = ((await rss()) - before) / CONNECTIONS;
        subjects.push(subject);
      } else if (setup === 'postgres-redis') {
        const database = await createTestDatabase('postgres');
        databases.push(database);
        const flags = { dataDir, database: database.url, bus: REDIS_TEST_URL };
        const a = await startServer('A', { role: 'gatehouse', flags }, servers);
        const b = await startServer('B', { role: 'gatehouse', flags }, servers);
        const org = await a.server.request<{ orgUuid: string; apiKey: string }>({ cmd: 'create-org' });
        const subject = new Target(
          'Gatehouse STOMP (wss, PostgreSQL, Redis bus, written on A, subscribed on B)',
          'postgres-redis',
          [a.server, b.server],
          false,
        );
        await subject.connect(gatehouseEndpoint(b.port, org));
        subjects.push(subject);
      } else throw new Error(`unknown set-up ${setup} (BENCH_STREAM_SETUPS: sqlite, postgres-redis)`);
    }
    targets.push(...subjects);
    for (const connect of pending) await connect();
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
      const [bareCpu, subjectCpu] = [sum(bare.medianThroughput.serverCpu), sum(subject.medianThroughput.serverCpu)];
      record(
        `stream server CPU per message, bare / ${subject.label}`,
        `${(bareCpu / subjectCpu).toFixed(2)} (${micros(bareCpu)} vs ${micros(subjectCpu)}, throughput phase)`,
        '',
        null,
      );
    }
    if (idleBytesPerConnection !== null) {
      record('server memory per idle stream connection (RSS)', `${(idleBytesPerConnection / 1024).toFixed(1)} KiB`, '', null);
    }
  } finally {
    for (const t of made.splice(0)) await t.close();
    for (const server of servers) await server.close();
    for (const database of databases) await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
