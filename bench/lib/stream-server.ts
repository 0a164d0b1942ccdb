// One server of the stream bench (bench/stream-fanout.bench.ts), in a process of its own (this file, forked):
// a Gatehouse instance (from the build), the bare `ws` broadcast, or the publisher of the RabbitMQ baseline. Each
// raises the bench's changes itself, on the driver's word (closed loop) or on a schedule it keeps with its own
// timers (paced), so that no extra process hop lies between a change's scheduled raise and the server; a change is
// stamped with the time it was due, so that a server too busy to raise it on time does not hide the delay. The
// process answers its CPU time (the server's cost per delivered message, which moves less than throughput with the
// load of a shared machine), its memory, and a CPU profile of the inspector around a phase on request.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { built } from './built.js';
import { monotonicMs } from './monotonic.js';

/** How the process starts: what it serves. */
export type ServerRole =
  | { role: 'bare'; tls: { cert: string; key: string } }
  | { role: 'gatehouse'; flags: { dataDir: string; database?: string; bus?: string } }
  | { role: 'rabbit'; url: string; destination: string };

/** Requests of the driver; each is answered `{ id, value }` or `{ id, error }`. */
export type ServerRequest =
  | { cmd: 'start'; start: ServerRole }
  /** Gatehouse: creates an organization (and its key); the changes are raised in it. */
  | { cmd: 'create-org' }
  /** Gatehouse: the changes are raised in this organization (made on another instance). */
  | { cmd: 'use-org'; orgUuid: string }
  /** Raises `count` changes from `firstSeq` on, the i-th due at `startAt + i / perSecond` (monotonic ms); answers once all are raised. */
  | { cmd: 'pace'; firstSeq: number; count: number; perSecond: number; startAt: number; deadline: number }
  /**
   * CPU time so far (µs); the event loop's delay since the last `usage` (p99 and max, ms: how long a turn kept the
   * others waiting); the resident memory after a full collection when `rss` is asked.
   */
  | { cmd: 'usage'; rss?: boolean }
  | { cmd: 'profile-start' }
  | { cmd: 'profile-stop'; file: string };

/** Without an answer: raise one change now, stamped `sentAt`; exit. */
export type ServerNotice = { cmd: 'raise'; seq: number; sentAt: number } | { cmd: 'exit' };

export type ServerReply = { id: number; value?: unknown; error?: string } | { type: 'failure'; message: string };

/** The body of every change of the bench, as Gatehouse's MESSAGE carries it: the sequence number and due time under `update`. */
export function changeBody(seq: number, sentAt: number) {
  return { entity: 'DOOR', entityUuid: 'bench-door', type: 'UPDATE' as const, deviceUuid: null, timestampMs: Date.now(), update: { seq, sentAt } };
}

type Raise = (seq: number, sentAt: number) => Promise<void> | void;

interface Served {
  raise: Raise;
  /** Where subscribers connect, and anything else the driver needs. */
  info: Record<string, unknown>;
  createOrg?(): Promise<{ orgUuid: string; apiKey: string }>;
  useOrg?(orgUuid: string): void;
  close(): Promise<void>;
}

const { serializeFrame } = await built<typeof import('../../src/streaming/frame.js')>('streaming/frame.js');

/** The bare broadcast: one `ws` server over the same TLS, each change's MESSAGE frame sent to every client. */
async function bare(tls: { cert: string; key: string }): Promise<Served> {
  const server = createServer(tls);
  const wss = new WebSocketServer({ server });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    info: { port: (server.address() as AddressInfo).port },
    raise(seq, sentAt) {
      const frame = serializeFrame(
        {
          command: 'MESSAGE',
          headers: [
            ['subscription', '0'],
            ['message-id', String(seq)],
            ['destination', '/topic/change/bench'],
            ['content-type', 'application/json'],
          ],
          body: JSON.stringify(changeBody(seq, sentAt)),
        },
        '1.2',
      );
      for (const ws of wss.clients) ws.send(frame);
    },
    async close() {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** A Gatehouse instance from the build; each change is one `write()` (a transaction into the change log). */
async function gatehouse(flags: { dataDir: string; database?: string; bus?: string }): Promise<Served> {
  const { startGatehouse } = await built<typeof import('../../src/app.js')>('app.js');
  const { loadConfig } = await built<typeof import('../../src/config.js')>('config.js');
  const { createOrg } = await built<typeof import('../../src/domains/orgs/service.js')>('domains/orgs/service.js');
  const { systemActor } = await built<typeof import('../../src/deps.js')>('deps.js');
  const { createLogger } = await built<typeof import('../../src/logger.js')>('logger.js');
  const { write } = await built<typeof import('../../src/bus/write.js')>('bus/write.js');
  const instance = await startGatehouse(loadConfig({ httpPort: 0, mediaPort: 0, wsPort: 0, seed: false, ...flags }, {}), { log: createLogger('silent') });
  let actor: ReturnType<typeof systemActor> | null = null;
  return {
    info: { port: Number(new URL(instance.urls.ws).port) },
    async createOrg() {
      const org = await createOrg(instance.deps, { name: 'Bench Org' });
      actor = systemActor(org.orgUuid, 'bench.raise');
      return { orgUuid: org.orgUuid, apiKey: org.apiKey };
    },
    useOrg(orgUuid) {
      actor = systemActor(orgUuid, 'bench.raise');
    },
    async raise(seq, sentAt) {
      const { update, ...change } = changeBody(seq, sentAt);
      // A change of the bench's own shape, outside the typed entity map.
      await write(instance.deps, actor!, async (w) => w.change({ ...change, update } as never));
    },
    close: () => instance.close(),
  };
}

/** The publisher of the RabbitMQ Web-STOMP baseline: SEND to a topic over one connection. */
async function rabbit(url: string, destination: string): Promise<Served> {
  const ws = await new Promise<WebSocket>((resolve, reject) => {
    const socket = new WebSocket(url, ['v12.stomp']);
    socket.once('error', reject);
    socket.once('open', () => socket.send('CONNECT\naccept-version:1.2\nhost:/\nlogin:guest\npasscode:guest\nheart-beat:10000,10000\n\n\0'));
    socket.once('message', (d: Buffer) => (d.toString().startsWith('CONNECTED') ? resolve(socket) : reject(new Error(d.toString()))));
  });
  const beat = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('\n'), 10_000);
  return {
    info: {},
    raise(seq, sentAt) {
      const headers: Array<[string, string]> = [
        ['destination', destination],
        ['content-type', 'application/json'],
      ];
      ws.send(serializeFrame({ command: 'SEND', headers, body: JSON.stringify(changeBody(seq, sentAt)) }, '1.2'));
    },
    async close() {
      clearInterval(beat);
      ws.terminate();
    },
  };
}

async function main(): Promise<void> {
  let served: Served | null = null;
  let profiler: Session | null = null;
  let failed = false;
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  loopDelay.enable();
  const reply = (m: ServerReply) => process.send!(m);
  const raise = (seq: number, sentAt: number) => {
    try {
      void Promise.resolve(served!.raise(seq, sentAt)).catch(fail);
    } catch (e) {
      fail(e);
    }
  };
  const fail = (e: unknown) => {
    if (!failed) reply({ type: 'failure', message: (e as Error)?.stack ?? String(e) });
    failed = true;
  };
  /** Raises on schedule with its own timers; resolves once the last is raised, or at the deadline. */
  const pace = (r: Extract<ServerRequest, { cmd: 'pace' }>) =>
    new Promise<number>((resolve) => {
      let i = 0;
      const step = () => {
        const now = monotonicMs();
        // Changes already due go out at once, stamped with when they were due.
        for (; i < r.count && r.startAt + (i * 1000) / r.perSecond <= now; i++) raise(r.firstSeq + i, r.startAt + (i * 1000) / r.perSecond);
        if (i >= r.count || now > r.deadline) return resolve(i);
        setTimeout(step, Math.max(0, r.startAt + (i * 1000) / r.perSecond - monotonicMs()));
      };
      step();
    });
  const handle = async (m: ServerRequest): Promise<unknown> => {
    switch (m.cmd) {
      case 'start':
        served =
          m.start.role === 'bare'
            ? await bare(m.start.tls)
            : m.start.role === 'gatehouse'
              ? await gatehouse(m.start.flags)
              : await rabbit(m.start.url, m.start.destination);
        return served.info;
      case 'create-org':
        return served!.createOrg!();
      case 'use-org':
        return served!.useOrg!(m.orgUuid);
      case 'pace':
        return pace(m);
      case 'usage': {
        const cpu = process.cpuUsage();
        if (m.rss) {
          // Collected twice, and given a moment: V8 hands freed pages back to the system after a collection, not in it.
          const gc = (globalThis as { gc?: () => void }).gc;
          gc?.();
          gc?.();
          await new Promise((resolve) => setTimeout(resolve, 500));
          gc?.();
        }
        const loop = { loopP99Ms: loopDelay.percentile(99) / 1e6, loopMaxMs: loopDelay.max / 1e6 };
        loopDelay.reset();
        return { cpuMicros: cpu.user + cpu.system, ...loop, rss: process.memoryUsage().rss };
      }
      case 'profile-start':
        profiler = new Session();
        profiler.connect();
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.start');
        return null;
      case 'profile-stop': {
        const { profile } = await profiler!.post('Profiler.stop');
        writeFileSync(m.file, JSON.stringify(profile));
        profiler!.disconnect();
        profiler = null;
        return m.file;
      }
    }
  };
  process.on('message', (m: (ServerRequest & { id: number }) | ServerNotice) => {
    if (m.cmd === 'raise') return raise(m.seq, m.sentAt);
    if (m.cmd === 'exit') {
      void (served?.close() ?? Promise.resolve()).finally(() => process.exit(0));
      setTimeout(() => process.exit(0), 5000).unref();
      return;
    }
    handle(m).then(
      (value) => reply({ id: m.id, value }),
      (e: unknown) => reply({ id: m.id, error: (e as Error)?.stack ?? String(e) }),
    );
  });
}

void main();
