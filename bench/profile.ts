// Where a REST operation's server time goes: `node --import tsx bench/profile.ts <subject> [options]` starts the
// build (dist/) in this process, warms it up, then runs the inspector's sampling profiler around a fixed number
// of requests from the load child (bench/lib/http-load.ts, 50 keep-alive connections) and prints the server's
// CPU time per request, the heaviest functions by self and by inclusive time, and the busy time by package.
// Counts, not durations, bound it, so the figures hold on a shared machine (the CPU per request moves less
// with the machine's load than throughput does). Not a bench: it records no target.
//   subject: getOrgV2 | <a workload operation> (listCameras, alertGroupsPage, ...) | workload (the whole mix) |
//            each (every workload operation in turn, on one set-up) | cameraStateList (getMinimalCameraStateList of
//            an organization seeded with device-scale's site file, BENCH_DEVICES cameras: run it with few
//            requests and connections, e.g. --requests 40 --warmup 5 --connections 1)
//   --dialect sqlite|postgres (sqlite)  --requests N (5000)  --warmup N (2000)  --seconds S (20: a bound on each
//   profiled run besides its count)  --top N (30)  --save FILE.cpuprofile (the last profile, for Chrome's DevTools)
//   --rate R (the profiled requests sent at R a second, an open loop, where the default is a closed loop: to see
//   what a request costs when requests arrive spread out rather than together)
//   --allocations (the heap's sampling profiler instead: the bytes allocated per request by the function that
//   allocated them, short-lived objects included: where the garbage collector's work comes from)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { HeapProfiler, Profiler } from 'node:inspector';
import { built } from './lib/built.js';
import { runLoad, type LoadOperation, type LoadPlan } from './lib/http-load.js';
import { createTestDatabase, type TestDialect } from '../test/helpers/databases.js';
import { setUp } from './workload.bench.js';
import { siteFile } from './device-scale.bench.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    dialect: { type: 'string', default: 'sqlite' },
    requests: { type: 'string', default: '5000' },
    warmup: { type: 'string', default: '2000' },
    top: { type: 'string', default: '30' },
    seconds: { type: 'string', default: '20' },
    connections: { type: 'string', default: '50' },
    save: { type: 'string' },
    rate: { type: 'string' },
    allocations: { type: 'boolean', default: false },
  },
});
const subject = positionals[0] ?? 'getOrgV2';
const dialect = values.dialect as TestDialect;
const REQUESTS = Number(values.requests);
const TOP = Number(values.top);

const { startGatehouse } = await built<typeof import('../src/app.js')>('app.js');
const { loadConfig } = await built<typeof import('../src/config.js')>('config.js');
const { createOrg } = await built<typeof import('../src/domains/orgs/service.js')>('domains/orgs/service.js');
const { createLogger } = await built<typeof import('../src/logger.js')>('logger.js');
const { seedSite } = await built<typeof import('../src/domains/sites/service.js')>('domains/sites/service.js');

const database = await createTestDatabase(dialect);
const dataDir = mkdtempSync(join(tmpdir(), 'gh-profile-'));
const gatehouse = await startGatehouse(loadConfig({ dataDir, database: database.url, httpPort: 0, mediaPort: 0, wsPort: 0, seed: false }, {}), {
  log: createLogger('silent'),
});
const port = Number(new URL(gatehouse.urls.rest).port);

/** The runs to profile, each a list of operations loaded together. */
async function runs(): Promise<LoadOperation[][]> {
  if (subject === 'getOrgV2') {
    const org = await createOrg(gatehouse.deps, { name: 'Profile Org' });
    return [[{ name: 'getOrgV2', path: '/api/org/getOrgV2', headers: { 'x-auth-apikey': org.apiKey }, bodies: ['{}'], weight: 1 }]];
  }
  if (subject === 'cameraStateList') {
    const org = await createOrg(gatehouse.deps, { name: 'Profile Org' });
    await seedSite(gatehouse.deps, org.orgUuid, siteFile());
    const path = '/api/camera/getMinimalCameraStateList';
    return [[{ name: subject, path, headers: { 'x-auth-apikey': org.apiKey }, bodies: ['{}'], weight: 1 }]];
  }
  const all = (await setUp(gatehouse.deps, gatehouse.urls.rest)).operations;
  if (subject === 'workload') return [all];
  if (subject === 'each') return all.map((o) => [o]);
  const one = all.filter((o) => o.name === subject);
  if (one.length === 0) throw new Error(`no operation ${subject}: ${all.map((o) => o.name).join(', ')}`);
  return [one];
}

type Node = Profiler.ProfileNode;

/** Self and inclusive sample time per function (name and place), and self time per package. */
function summarize(profile: Profiler.Profile) {
  const byId = new Map<number, Node>(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: Node) => {
    const f = n.callFrame;
    const url = f.url.replace(/^file:\/\/.*?\/(node_modules|dist)\//, '$1/');
    return `${f.functionName || '(anonymous)'} ${url ? `${url}:${f.lineNumber + 1}` : ''}`.trim();
  };
  const pkg = (n: Node) => {
    const f = n.callFrame;
    if (!f.url) return f.functionName.startsWith('(') ? f.functionName : `native: ${f.functionName}`;
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f.url);
    if (m) return m[1]!;
    const d = /\/dist\/(.*?)(?:\/[^/]*)?\.js$/.exec(f.url);
    if (d) return `gatehouse: ${/\/dist\/([^/]+(?:\/[^/]+)?)/.exec(f.url)![1]}`;
    return f.url.startsWith('node:') ? f.url : 'other';
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const packages = new Map<string, number>();
  let busy = 0;
  const deltas = profile.timeDeltas ?? [];
  const samples = profile.samples ?? [];
  for (let i = 0; i < samples.length; i++) {
    const dt = deltas[i + 1] ?? 0;
    const leaf = byId.get(samples[i]!)!;
    if (leaf.callFrame.functionName === '(idle)') continue;
    busy += dt;
    const l = label(leaf);
    self.set(l, (self.get(l) ?? 0) + dt);
    const p = pkg(leaf);
    packages.set(p, (packages.get(p) ?? 0) + dt);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const name = label(byId.get(id)!);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
    }
  }
  return { busy, self, inclusive, packages };
}

function table(title: string, map: Map<string, number>, busy: number, count: number) {
  console.log(`\n${title}`);
  for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
    console.log(`  ${((100 * us) / busy).toFixed(1).padStart(5)}%  ${(us / count).toFixed(1).padStart(7)} µs/req  ${name}`);
  }
}

type HeapNode = HeapProfiler.SamplingHeapProfileNode;

/** Bytes allocated per request by each function (its own allocations, not its callees'). */
async function allocationRun(plan: LoadPlan): Promise<void> {
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  // Every sampled allocation is kept, also of objects the collector freed since: short-lived garbage is the point.
  await session.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  const result = await runLoad(plan);
  const { profile } = await session.post('HeapProfiler.stopSampling');
  session.disconnect();
  const count = result.total.count;
  const bytes = new Map<string, number>();
  const walk = (node: HeapNode) => {
    const f = node.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(dist|node_modules)\//, '$1/')}:${f.lineNumber + 1}`;
    bytes.set(name, (bytes.get(name) ?? 0) + node.selfSize);
    node.children.forEach(walk);
  };
  walk(profile.head);
  const total = [...bytes.values()].reduce((a, b) => a + b, 0);
  console.log(
    `\n== allocations of ${plan.operations.map((o) => o.name).join(', ')} on ${dialect}: ${count} requests, ${(total / count).toFixed(0)} bytes sampled per request`,
  );
  for (const [name, b] of [...bytes].sort((x, y) => y[1] - x[1]).slice(0, TOP))
    console.log(`  ${((100 * b) / total).toFixed(1).padStart(5)}%  ${(b / count).toFixed(0).padStart(7)} B/req  ${name}`);
}

async function profileRun(ops: LoadOperation[]): Promise<void> {
  const plan: LoadPlan = { port, connections: Number(values.connections), durationMs: Number(values.seconds) * 1000, operations: ops, maxRequests: REQUESTS };
  await runLoad({ ...plan, maxRequests: Number(values.warmup) });
  if (values.allocations) return allocationRun(plan);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  const cpu = process.cpuUsage();
  const result = await runLoad({ ...plan, ...(values.rate && { ratePerSecond: Number(values.rate) }) });
  const used = process.cpuUsage(cpu);
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();
  if (result.failures.length > 0) throw new Error(result.failures.slice(0, 3).join('; '));
  if (values.save) writeFileSync(values.save, JSON.stringify(profile));
  const count = result.total.count + (result.warmupAnswers ?? 0);
  const { busy, self, inclusive, packages } = summarize(profile);
  const cpuPerRequest = (used.user + used.system) / count;
  console.log(
    `\n== ${ops.length === 1 ? ops[0]!.name : subject} on ${dialect} (load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}): ${count} requests, ${result.total.rps.toFixed(0)} req/s, p50 ${result.total.p50.toFixed(1)} ms, p99 ${result.total.p99.toFixed(1)} ms;` +
      ` server CPU ${cpuPerRequest.toFixed(0)} µs/request (profiled: sampling adds to it), profiler busy ${(busy / count).toFixed(0)} µs/request`,
  );
  for (const [name, f] of Object.entries(result.operations))
    console.log(`  ${name}: ${f.count} answers, p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms`);
  table('busy time by package or folder (self)', packages, busy, count);
  table('heaviest functions, self time', self, busy, count);
  table('heaviest functions, inclusive time', inclusive, busy, count);
}

try {
  for (const ops of await runs()) await profileRun(ops);
} finally {
  await gatehouse.close();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
