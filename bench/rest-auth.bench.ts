// Authenticated getOrgV2 (key digest and cached key, permission check, organization read, schema validation and
// serialization) against a bare Fastify route answering the same JSON, on SQLite and on PostgreSQL. Both servers
// run in this process from the build; the load comes from a child process (bench/lib/http-load.ts), 50
// keep-alive connections, closed loop. The two are measured in alternating rounds and each is summed up by its
// median round, so that a noisy moment on the machine does not land on one side only. The server CPU time per
// request (this process's, while only one server has load) is printed beside it: it moves less with the load
// of a shared machine than throughput does. Beside them, getOrgV2's floor (bench/lib/floor-server.ts: a bare route
// that runs the SQL statements Gatehouse ran for the call and answers their rows) says how much of the bare route's
// rate any server that reads this answer from its store keeps: the share of the target the store's reads take.
//   BENCH_DURATION_S (4, per round)  BENCH_ROUNDS (3)  BENCH_REST_DIALECTS (sqlite,postgres)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { built } from './lib/built.js';
import { startFloorServer } from './lib/floor-server.js';
import { runLoad, type Figures } from './lib/http-load.js';
import { CAPTURE_HEADER, installSqlCapture, takeCaptured, uninstallSqlCapture } from './lib/sql-capture.js';
import { record } from './lib/results.js';
import { createTestDatabase, type TestDialect } from '../test/helpers/databases.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DIALECTS = (process.env.BENCH_REST_DIALECTS ?? 'sqlite,postgres').split(',') as TestDialect[];
const CONNECTIONS = 50;
const TARGET = 0.8;
const PATH = '/api/org/getOrgV2';

const { startGatehouse } = await built<typeof import('../src/app.js')>('app.js');
const { loadConfig } = await built<typeof import('../src/config.js')>('config.js');
const { createOrg } = await built<typeof import('../src/domains/orgs/service.js')>('domains/orgs/service.js');
const { createLogger } = await built<typeof import('../src/logger.js')>('logger.js');

type Round = Figures & { cpuMicros: number };

async function round(port: number, headers: Record<string, string>, durationS: number): Promise<Round> {
  const cpu = process.cpuUsage();
  const result = await runLoad({
    port,
    connections: CONNECTIONS,
    durationMs: durationS * 1000,
    maxRequests: 2_000_000,
    operations: [{ name: 'getOrgV2', path: PATH, headers, bodies: ['{}'], weight: 1 }],
  });
  const used = process.cpuUsage(cpu);
  if (result.failures.length > 0) throw new Error(`port ${port}: ${result.failures.slice(0, 3).join('; ')}`);
  return { ...result.total, cpuMicros: (used.user + used.system) / result.total.count };
}

const median = (rounds: Round[]) => [...rounds].sort((a, b) => a.rps - b.rps)[Math.floor(rounds.length / 2)]!;
const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measure(dialect: TestDialect): Promise<void> {
  installSqlCapture();
  const database = await createTestDatabase(dialect);
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-'));
  const gatehouse = await startGatehouse(loadConfig({ dataDir, database: database.url, httpPort: 0, mediaPort: 0, wsPort: 0, seed: false }, {}), {
    log: createLogger('silent'),
  });
  const bare = Fastify();
  let floor: Awaited<ReturnType<typeof startFloorServer>> | null = null;
  try {
    const org = await createOrg(gatehouse.deps, { name: 'Bench Org' });
    const auth = { 'x-auth-apikey': org.apiKey };
    // The second call's answer and statements: the first fills the key's cache, as under load.
    const call = (headers: Record<string, string> = {}) =>
      fetch(gatehouse.urls.rest + PATH, { method: 'POST', headers: { ...auth, 'content-type': 'application/json', ...headers }, body: '{}' }).then((r) =>
        r.text(),
      );
    await call();
    const body = JSON.parse(await call({ [CAPTURE_HEADER]: 'getOrgV2' }));
    const statements = takeCaptured('getOrgV2');
    uninstallSqlCapture();
    floor = await startFloorServer(database.url, [{ path: PATH, body: '{}', statements }]);
    bare.post(PATH, async () => body);
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const barePort = (bare.server.address() as { port: number }).port;
    const port = Number(new URL(gatehouse.urls.rest).port);
    await round(barePort, {}, 1);
    await round(floor.port, {}, 1);
    await round(port, auth, 1);
    const bareRounds: Round[] = [];
    const floorRounds: Round[] = [];
    const subjectRounds: Round[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      bareRounds.push(await round(barePort, {}, DURATION_S));
      floorRounds.push(await round(floor.port, {}, DURATION_S));
      subjectRounds.push(await round(port, auth, DURATION_S));
    }
    const [b, f, s] = [median(bareRounds), median(floorRounds), median(subjectRounds)];
    const each = (rounds: Round[]) => rounds.map((r) => r.rps.toFixed(0)).join(', ');
    console.log(`${dialect}: rounds (req/s) bare ${each(bareRounds)}; floor ${each(floorRounds)}; getOrgV2 ${each(subjectRounds)}`);
    console.log(`  bare Fastify route: ${b.rps.toFixed(0)} req/s, p50 ${b.p50.toFixed(1)} ms, p99 ${b.p99.toFixed(1)} ms`);
    console.log(`  floor (${statements.length} statements): ${f.rps.toFixed(0)} req/s, p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms`);
    console.log(`  getOrgV2:           ${s.rps.toFixed(0)} req/s, p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms`);
    const ratio = s.rps / b.rps;
    record(`REST getOrgV2 / bare route, ${dialect}`, `${ratio.toFixed(2)} (${s.rps.toFixed(0)} vs ${b.rps.toFixed(0)} req/s)`, `>= ${TARGET}`, ratio >= TARGET);
    record(
      `getOrgV2's floor (its ${statements.length} SQL statements, bare) / bare route; getOrgV2 / floor, ${dialect}`,
      `${(f.rps / b.rps).toFixed(2)} (${f.rps.toFixed(0)} req/s); ${(s.rps / f.rps).toFixed(2)}`,
      '',
      null,
    );
    const [bareCpu, subjectCpu] = [medianOf(bareRounds.map((r) => r.cpuMicros)), medianOf(subjectRounds.map((r) => r.cpuMicros))];
    record(
      `REST server CPU per request, bare / getOrgV2, ${dialect}`,
      `${(bareCpu / subjectCpu).toFixed(2)} (${bareCpu.toFixed(1)} vs ${subjectCpu.toFixed(1)} µs)`,
      '',
      null,
    );
  } finally {
    uninstallSqlCapture();
    await bare.close();
    await floor?.close();
    await gatehouse.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  for (const dialect of DIALECTS) await measure(dialect);
}
