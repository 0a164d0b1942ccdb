// A real client's workload: what an integration does against the REST API, in the proportions below, against
// two baselines on the same paths, in alternating rounds (bench/lib/http-load.ts: 50 keep-alive connections in
// a closed loop):
// - bare: a Fastify server answering the bodies Gatehouse answered (recorded before the run) as stored strings;
// - floor: a Fastify server that runs, for each request, exactly the SQL statements Gatehouse ran for it
//   (bench/lib/sql-capture.ts) over the same database and answers the rows with JSON.stringify
//   (bench/lib/floor-server.ts): what any server that reads its pages from this store pays, so that the ratio to
//   it is Gatehouse's own overhead (authentication, validation, the change log and audit, shaping the answer).
// Then latency at a fixed offered rate (open loop, from the intended send time): 50% of Gatehouse's own
// closed-loop throughput, for BENCH_OPEN_S after a warm-up second at that rate that is not counted (the load
// generator is a new process; its first requests ran cold, each the first on its connection). The site: 1,000
// cameras, a busy camera with ALERTS policy alerts, a locked door with DOOR_EVENTS events, and the audit rows all of
// that wrote.
//
// The mix (shares of the requests): an integration polls its feeds (alert groups and door events, paged with
// their cursors, and the audit feed) far more often than it lists devices; it writes now and then (a schedule
// created, then updated; a remote unlock).
//   BENCH_DURATION_S (4, per round)  BENCH_ROUNDS (3)  BENCH_OPEN_S (10)  BENCH_WORKLOAD_DIALECT (sqlite | postgres)
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Fastify from 'fastify';
import { built } from './lib/built.js';
import { runLoad, type LoadOperation, type LoadPlan, type LoadResult } from './lib/http-load.js';
import { machineBusySince } from './lib/machine-cpu.js';
import { record } from './lib/results.js';
import { startFloorServer, type FloorRequest } from './lib/floor-server.js';
import { CAPTURE_HEADER, installSqlCapture, takeCaptured, uninstallSqlCapture } from './lib/sql-capture.js';
import { createTestDatabase, type TestDialect } from '../test/helpers/databases.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/**
 * The open loop's measured span: long enough that an operation of a small share (the camera list, about 2%) has
 * a p99 that is not simply its slowest call.
 */
const OPEN_S = Number(process.env.BENCH_OPEN_S ?? 10);
const OPEN_WARMUP_MS = 1000;
const DIALECT = (process.env.BENCH_WORKLOAD_DIALECT ?? 'sqlite') as TestDialect;
const CONNECTIONS = 50;
const CAMERAS = 1000;
const ALERTS = 20_000;
const DOOR_EVENTS = 2000;
/** Pages of each paged feed that the clients walk through, following the cursors. */
const PAGES = 10;
const TARGET_FLOOR_SQLITE = 0.6;
const TARGET_FLOOR_POSTGRES = 0.5;
const TARGET_P99_MS = 20;

const MIX = {
  listCameras: 2,
  alertGroupsPage: 28,
  doorEventsPage: 28,
  auditFeedPage: 16,
  createSchedule: 6,
  updateSchedule: 10,
  unlockDoor: 10,
};

const { startGatehouse } = await built<typeof import('../src/app.js')>('app.js');
const { loadConfig } = await built<typeof import('../src/config.js')>('config.js');
const { createOrg } = await built<typeof import('../src/domains/orgs/service.js')>('domains/orgs/service.js');
const { createLogger } = await built<typeof import('../src/logger.js')>('logger.js');
const { seedSite } = await built<typeof import('../src/domains/sites/service.js')>('domains/sites/service.js');
const { insertPolicyAlerts } = await built<typeof import('../src/domains/events/alerts/store.js')>('domains/events/alerts/store.js');
const { requestToExit } = await built<typeof import('../src/domains/access/door-events/door-devices.service.js')>(
  'domains/access/door-events/door-devices.service.js',
);

type Deps = Awaited<ReturnType<typeof startGatehouse>>['deps'];

/** Stores alerts `from` to `to` (exclusive) of the busy camera's history, the later ones newer. */
async function seedAlerts(deps: Deps, orgUuid: string, deviceUuid: string, from: number, to: number): Promise<void> {
  const base = Date.now() - ALERTS * 20_000;
  await deps.store.transaction(async (tx) => {
    for (let b = from; b < to; b += 500) {
      const rows = [];
      for (let i = b; i < Math.min(b + 500, to); i++) {
        const id = Buffer.alloc(16);
        id.writeUInt32BE(i, 12);
        rows.push({
          uuid: id.toString('base64url'),
          org_uuid: orgUuid,
          device_uuid: deviceUuid,
          location_uuid: null,
          type: 'POLICY_ALERT_V2',
          device_type: 'CAMERA',
          // Bursts of a few alerts, then a quiet minute: groups of several alerts each.
          timestamp_ms: base + i * 20_000 + (i % 4) * 1000,
          duration_sec: 5,
          triggers: '["MOTION_HUMAN"]',
          text_description: 'MOTION_HUMAN on Busy Camera',
          saved: 0,
          details: '{"numHumans":2,"finalized":true}',
          dismissed_at_ms: null,
          expires_at_ms: null,
        });
      }
      await insertPolicyAlerts(tx, rows);
    }
  });
}

/** Calls Gatehouse once, for the setup and the bare server's recorded answers. */
function caller(url: string, apiKey: string) {
  return async (path: string, body: string): Promise<{ text: string; json: Record<string, unknown> }> => {
    const answer = await fetch(url + path, { method: 'POST', headers: { 'x-auth-apikey': apiKey, 'content-type': 'application/json' }, body });
    const text = await answer.text();
    const json = JSON.parse(text) as Record<string, unknown>;
    if (answer.status !== 200 || json.error) throw new Error(`${path}: ${answer.status} ${text.slice(0, 300)}`);
    return { text, json };
  };
}

/** The cursor of the alert-group page after an answer. */
const nextAlertPage = (deviceUuid: string, maxResults: number) => (answer: Record<string, unknown>) => {
  const groups = answer.policyAlertGroups as Array<{ policyAlerts?: Array<{ timestampMs: number; uuid: string }> }>;
  const last = groups.at(-1)?.policyAlerts?.at(-1);
  return last ? { deviceUuid, maxResults, lastTimestampMs: last.timestampMs, lastUuid: last.uuid } : null;
};

/** The process's memory after a full collection (the server runs in this process): resident, and what V8 holds. */
function memory(): { rss: number; heap: number } {
  const gc = (globalThis as { gc?: () => void }).gc ?? (setFlagsFromString('--expose-gc'), runInNewContext('gc') as () => void);
  gc();
  gc();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed + m.external };
}

/** A feed's first `count` pages, each request body following the previous answer's cursor. */
async function pages(
  call: ReturnType<typeof caller>,
  path: string,
  first: Record<string, unknown>,
  next: (answer: Record<string, unknown>) => object | null,
  count = PAGES,
) {
  const bodies: string[] = [];
  let body: object | null = first;
  for (let i = 0; i < count && body; i++) {
    bodies.push(JSON.stringify(body));
    body = next((await call(path, bodies[i]!)).json);
  }
  return bodies;
}

/** Sets up the site and answers the workload's operations, with the bodies each sends. */
export async function setUp(deps: Deps, restUrl: string): Promise<{ apiKey: string; operations: LoadOperation[] }> {
  const org = await createOrg(deps, { name: 'Workload Org' });
  const cameras = Array.from({ length: CAMERAS }, (_, i) => ({ name: `Camera ${String(i).padStart(4, '0')}`, location: 'HQ' }));
  const site = await seedSite(deps, org.orgUuid, {
    locations: [{ name: 'HQ', timeZone: 'Europe/Paris' }],
    cameras,
    doors: [{ name: 'Main Door', location: 'HQ', lock: true, cameras: ['Camera 0000'] }],
  });
  const busyCamera = site.cameras!['Camera 0000']!;
  const door = site.doors!['Main Door']!;
  const call = caller(restUrl, org.apiKey);
  // The server's memory per 1,000 stored alerts: the growth over storing the second half of the history and reading
  // every page of it, after the first half did the same (so that what the first use of these paths sets up once,
  // about 2 MB of compiled code and caches, is not counted per alert). The resident size also moves with what the
  // allocator returns to the system: V8's heap after a full collection says whether the server holds on to
  // alerts, the resident size what the store's caches take besides.
  const readAll = () =>
    pages(call, '/api/event/getPolicyAlertGroupsForDevice', { deviceUuid: busyCamera, maxResults: 500 }, nextAlertPage(busyCamera, 500), Infinity);
  await seedAlerts(deps, org.orgUuid, busyCamera, 0, ALERTS / 2);
  await readAll();
  const before = memory();
  await seedAlerts(deps, org.orgUuid, busyCamera, ALERTS / 2, ALERTS);
  await readAll();
  const after = memory();
  const perThousand = (bytes: number) => `${(bytes / 1024 / (ALERTS / 2 / 1000)).toFixed(1)} KiB`;
  record(
    `server memory per 1,000 stored alerts, ${DIALECT}`,
    `V8 heap ${perThousand(after.heap - before.heap)}, RSS ${perThousand(after.rss - before.rss)}`,
    '',
    null,
  );
  for (let i = 0; i < DOOR_EVENTS; i += 2) await requestToExit(deps, { doorUuid: door }); // an event and its relay's
  const alertPages = await pages(call, '/api/event/getPolicyAlertGroupsForDevice', { deviceUuid: busyCamera, maxResults: 50 }, nextAlertPage(busyCamera, 50));
  const doorPages = await pages(
    call,
    '/api/component/findPaginatedComponentEventsByAccessControlledDoor',
    { accessControlledDoorUuid: door, maxPageSize: 50 },
    (a) => (a.lastEvaluatedKey ? { accessControlledDoorUuid: door, maxPageSize: 50, lastEvaluatedKey: a.lastEvaluatedKey } : null),
  );
  const auditPages = await pages(call, '/api/report/getAuditFeed', { maxPageSize: 50 }, (a) =>
    a.lastEvaluatedKey ? { maxPageSize: 50, lastEvaluatedKey: a.lastEvaluatedKey } : null,
  );
  const week = (shift: number) => [{ minuteOfWeekStart: 480 + shift, minuteOfWeekStop: 1080 + shift }];
  // One schedule per connection to update, so that the updates do not all land on one record.
  const scheduleUuids: string[] = [];
  for (let c = 0; c < CONNECTIONS; c++) {
    const { json } = await call('/api/policy/createSchedule', JSON.stringify({ schedule: { name: `Shift ${c}`, intervalList: week(0) } }));
    scheduleUuids.push(json.scheduleUuid as string);
  }
  const headers = { 'x-auth-apikey': org.apiKey };
  const op = (name: keyof typeof MIX, path: string, bodies: string[]): LoadOperation => ({ name, path, headers, bodies, weight: MIX[name] });
  return {
    apiKey: org.apiKey,
    operations: [
      op('listCameras', '/api/camera/getMinimalCameraStateList', ['{}']),
      op('alertGroupsPage', '/api/event/getPolicyAlertGroupsForDevice', alertPages),
      op('doorEventsPage', '/api/component/findPaginatedComponentEventsByAccessControlledDoor', doorPages),
      op('auditFeedPage', '/api/report/getAuditFeed', auditPages),
      op('createSchedule', '/api/policy/createSchedule', [JSON.stringify({ schedule: { name: 'Visitor hours', intervalList: week(60) } })]),
      op(
        'updateSchedule',
        '/api/policy/updateSchedule',
        scheduleUuids.map((uuid, c) => JSON.stringify({ schedule: { uuid, name: `Shift ${c}`, intervalList: week(c) } })),
      ),
      op('unlockDoor', '/api/accesscontrol/unlockAccessControlledDoor', [JSON.stringify({ accessControlledDoorUuid: door })]),
    ],
  };
}

interface Recorded {
  /** Each (path, body)'s answer from Gatehouse, for the bare server. */
  answers: Map<string, string>;
  /** Each (path, body)'s SQL statements, for the floor server. */
  floor: FloorRequest[];
}
const answerKey = (path: string, body: unknown) => `${path} ${JSON.stringify(body)}`;

/**
 * Calls every (path, body) of the mix twice and keeps the second call's answer and SQL statements: the first
 * fills what a server keeps between calls (the key's cache, prepared statements), which the load finds filled.
 */
async function recordRequests(url: string, apiKey: string, operations: LoadOperation[]): Promise<Recorded> {
  const answers = new Map<string, string>();
  const floor: FloorRequest[] = [];
  let n = 0;
  for (const o of operations) {
    for (const body of o.bodies) {
      const send = (headers: Record<string, string> = {}) =>
        fetch(url + o.path, { method: 'POST', headers: { 'x-auth-apikey': apiKey, 'content-type': 'application/json', ...headers }, body });
      await (await send()).text();
      const id = String(++n);
      answers.set(answerKey(o.path, JSON.parse(body)), await (await send({ [CAPTURE_HEADER]: id })).text());
      floor.push({ path: o.path, body, statements: takeCaptured(id) });
    }
  }
  return { answers, floor };
}

/** The bare baseline: every (path, body) answers the text Gatehouse answered it, as a route returning a stored string. */
async function bareServer(operations: LoadOperation[], answers: Map<string, string>) {
  const bare = Fastify();
  for (const path of new Set(operations.map((o) => o.path))) {
    bare.post(path, async (request, reply) => reply.type('application/json; charset=utf-8').send(answers.get(answerKey(path, request.body))));
  }
  await bare.listen({ port: 0, host: '127.0.0.1' });
  return bare;
}

/** A load of 50 connections, a closed loop unless `open` gives a rate (and its warm-up). */
const load = (port: number, operations: LoadOperation[], seconds = DURATION_S, open?: Pick<LoadPlan, 'ratePerSecond' | 'warmupMs'>) =>
  runLoad({ port, connections: CONNECTIONS, durationMs: seconds * 1000, maxRequests: 1_000_000, operations, ...open });
/** How long each operation runs alone, per server. */
const ALONE_S = 2;
const median = (rounds: LoadResult[]) => [...rounds].sort((a, b) => a.total.rps - b.total.rps)[Math.floor(rounds.length / 2)]!;
const n = (v: number | null, digits: number) => (v === null || Number.isNaN(v) ? 'n/a' : v.toFixed(digits));
const WRITES = new Set<string>(['createSchedule', 'updateSchedule', 'unlockDoor']);

export async function run(): Promise<void> {
  installSqlCapture();
  const database = await createTestDatabase(DIALECT);
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-'));
  const gatehouse = await startGatehouse(loadConfig({ dataDir, database: database.url, httpPort: 0, mediaPort: 0, wsPort: 0, seed: false }, {}), {
    log: createLogger('silent'),
  });
  let bare: Awaited<ReturnType<typeof bareServer>> | null = null;
  let floor: Awaited<ReturnType<typeof startFloorServer>> | null = null;
  try {
    const started = performance.now();
    const { apiKey, operations } = await setUp(gatehouse.deps, gatehouse.urls.rest);
    const recorded = await recordRequests(gatehouse.urls.rest, apiKey, operations);
    uninstallSqlCapture();
    bare = await bareServer(operations, recorded.answers);
    floor = await startFloorServer(database.url, recorded.floor);
    console.log(
      `${DIALECT}: site set up in ${((performance.now() - started) / 1000).toFixed(1)} s; ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${DURATION_S} s`,
    );
    for (const o of operations) {
      const statements = recorded.floor.filter((r) => r.path === o.path).map((r) => r.statements.length);
      console.log(`  ${o.name}: ${Math.min(...statements)}-${Math.max(...statements)} SQL statements a request`);
    }
    const port = Number(new URL(gatehouse.urls.rest).port);
    const barePort = (bare.server.address() as { port: number }).port;
    const rounds = { bare: [] as LoadResult[], floor: [] as LoadResult[], gatehouse: [] as LoadResult[] };
    // The server's CPU (this process: the floor and bare servers are idle meanwhile) over its closed-loop rounds.
    const closedCpu = { micros: 0, requests: 0 };
    for (let i = 0; i < ROUNDS; i++) {
      rounds.bare.push(await load(barePort, operations));
      rounds.floor.push(await load(floor.port, operations));
      const before = process.cpuUsage();
      rounds.gatehouse.push(await load(port, operations));
      const used = process.cpuUsage(before);
      closedCpu.micros += used.user + used.system;
      closedCpu.requests += rounds.gatehouse.at(-1)!.total.count;
    }
    const failures = Object.values(rounds).flatMap((r) => r.flatMap((x) => x.failures));
    if (failures.length > 0) throw new Error(`failed answers: ${failures.slice(0, 5).join('; ')}`);
    const [b, f, g] = [median(rounds.bare), median(rounds.floor), median(rounds.gatehouse)];
    console.log(
      `  ${'operation'.padEnd(16)} ${'share'.padStart(5)}  ${'Gatehouse req/s'.padStart(15)} ${'floor'.padStart(9)} ${'bare'.padStart(9)}  ratio to floor`,
    );
    for (const o of operations) {
      const [go, fo, bo] = [g.operations[o.name]!, f.operations[o.name]!, b.operations[o.name]!];
      console.log(
        `  ${o.name.padEnd(16)} ${String(o.weight).padStart(4)}%  ${n(go.rps, 0).padStart(15)} ${n(fo.rps, 0).padStart(9)} ${n(bo.rps, 0).padStart(9)}  ${n(go.rps / fo.rps, 2)}`,
      );
    }
    const floorTarget = DIALECT === 'sqlite' ? TARGET_FLOOR_SQLITE : TARGET_FLOOR_POSTGRES;
    const overall = g.total.rps / f.total.rps;
    record(
      `workload overall / floor, ${DIALECT}`,
      `${overall.toFixed(2)} (${g.total.rps.toFixed(0)} vs ${f.total.rps.toFixed(0)} req/s)`,
      `>= ${floorTarget}`,
      overall >= floorTarget,
    );
    // Each operation alone (a closed loop of it only, against Gatehouse and the floor in turn): in the mix every
    // operation's rate is its share of the total, so only a run of its own gives its ratio.
    for (const o of operations) {
      const alone = [{ ...o, weight: 1 }];
      const [ga, fa] = [await load(port, alone, ALONE_S), await load(floor.port, alone, ALONE_S)];
      const ratio = ga.total.rps / fa.total.rps;
      const write = WRITES.has(o.name);
      record(
        `${o.name} alone / floor${write ? ' (a write; the floor rolls back)' : ''}, ${DIALECT}`,
        `${ratio.toFixed(2)} (${ga.total.rps.toFixed(0)} vs ${fa.total.rps.toFixed(0)} req/s)`,
        write ? '' : `>= ${floorTarget}`,
        write ? null : ratio >= floorTarget,
      );
    }
    const toBare = g.total.rps / b.total.rps;
    record(
      `workload overall / bare (stored answers), ${DIALECT}`,
      `${toBare.toFixed(2)} (${g.total.rps.toFixed(0)} vs ${b.total.rps.toFixed(0)} req/s)`,
      '',
      null,
    );

    // Latency at a fixed offered rate: half of Gatehouse's own throughput for the mix, as an open loop.
    const rate = Math.max(1, Math.round(g.total.rps / 2));
    // The server runs in this process: its event loop's delay over the open loop tells a stall of the server
    // (a long task, a collector's pause) from one of the machine or the load generator.
    const loopDelay = monitorEventLoopDelay({ resolution: 1 });
    loopDelay.enable();
    const cpuBefore = process.cpuUsage();
    const machineBusy = machineBusySince();
    const open = await load(port, operations, OPEN_S, { ratePerSecond: rate, warmupMs: OPEN_WARMUP_MS });
    const cpuUsed = process.cpuUsage(cpuBefore);
    const machineShare = machineBusy();
    const cpuMicros = cpuUsed.user + cpuUsed.system;
    loopDelay.disable();
    if (open.failures.length > 0) throw new Error(`failed answers at a fixed rate: ${open.failures.slice(0, 5).join('; ')}`);
    console.log(`  at ${rate} req/s offered (open loop), latency from the intended send time:`);
    for (const o of operations) {
      const fig = open.operations[o.name]!;
      console.log(
        `  ${o.name.padEnd(16)} p50 ${n(fig.p50, 1).padStart(6)} ms  p99 ${n(fig.p99, 1).padStart(6)} ms  p99.9 ${n(fig.p999, 1).padStart(6)} ms  (${fig.count})`,
      );
    }
    const ms = (ns: number) => (ns / 1e6).toFixed(1);
    record(
      `server event-loop delay during the open loop, ${DIALECT}`,
      `p99 ${ms(loopDelay.percentile(99))} ms, p99.9 ${ms(loopDelay.percentile(99.9))} ms, max ${ms(loopDelay.max)} ms; CPU ${(cpuMicros / 1e4 / (open.seconds + OPEN_WARMUP_MS / 1000)).toFixed(0)}% of a core, ${(cpuMicros / (open.total.count + open.warmupAnswers!)).toFixed(0)} µs a request (closed loop: ${(closedCpu.micros / closedCpu.requests).toFixed(0)} µs); the machine ${(machineShare * 100).toFixed(0)}% busy (every process, ${cpus().length} cores)`,
      '',
      null,
    );
    record(
      `load generator's own lateness in sending (open loop), ${DIALECT}`,
      `p99 ${open.sendLateness!.p99.toFixed(1)} ms, max ${open.sendLateness!.max.toFixed(1)} ms`,
      '',
      null,
    );
    const worst = operations.map((o) => ({ name: o.name, ...open.operations[o.name]! })).sort((x, y) => y.p99 - x.p99)[0]!;
    record(
      `highest p99 of an operation at 50% of its throughput (${rate} req/s, open loop), ${DIALECT}`,
      `${worst.p99.toFixed(1)} ms (${worst.name}; its p99.9 ${worst.p999.toFixed(1)} ms; all operations p99.9 ${open.total.p999.toFixed(1)} ms)`,
      `<= ${TARGET_P99_MS} ms`,
      worst.p99 <= TARGET_P99_MS,
    );
  } finally {
    await bare?.close();
    await floor?.close();
    await gatehouse.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
