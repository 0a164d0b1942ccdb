// A busy organization (issue 36, item 4): policy alerts raised at a fixed rate across many cameras of one
// organization, with what a real organization has attached: a general rule that fires on every alert and calls a
// webhook (a receiver on loopback), and a STOMP subscriber of the organization's change topic. Reported: the
// alerts per second sustained (raised and committed), p50/p99 from each alert's scheduled raise to its receipt on
// the stream and to the rule's webhook delivery, and that every alert reached both (none lost).
// The alerts are raised in the server's process, as a device report's alert is (raisePolicyAlert), on a schedule:
// an alert's latency runs from the time it was due, so a server that falls behind does not hide its delay. The
// receiver and the subscriber run in the same process (a stompjs client over TLS, as the tests use): their work
// adds to the server's, so the figures are an upper bound, and the process's CPU per alert (reported: on a shared
// machine it moves less than the rates) counts it too. The subscriber does what docs/streaming.md asks of a
// client dropped as a slow consumer (its backlog past the bound, as when the process is saturated): it subscribes
// again with resume-after set to the last position it received, and the drops are reported; so an alert not
// received is one the server lost, not one it dropped with the connection. Bounded: the raise loop by count and
// duration, at most IN_FLIGHT raises at a time, the resubscriptions by MAX_RESUMES, the wait for what is still on
// its way by BENCH_BUSY_DRAIN_S. Beside the process's CPU, the whole machine's busy CPU per alert (every process on
// every core: PostgreSQL's backends, the checkpointer, the generator) gives the rate the machine's cores could carry
// at that cost: where the target is above it, no scheduling of the same work meets it on this machine.
//   BENCH_BUSY_DURATION_S (60)  BENCH_BUSY_RATE (1000 alerts/s)  BENCH_BUSY_CAMERAS (200)
//   BENCH_BUSY_DRAIN_S (60)  BENCH_BUSY_DIALECTS (sqlite,postgres)
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { built } from './lib/built.js';
import { machineBusySince } from './lib/machine-cpu.js';
import { seedMotionWebhookOrg } from './lib/motion-webhook-org.js';
import { loadAverage, record } from './lib/results.js';
import { createTestDatabase, type TestDialect } from '../test/helpers/databases.js';
import { stompjsClient } from '../test/e2e/streaming/helpers.js';

const DURATION_S = Number(process.env.BENCH_BUSY_DURATION_S ?? 60);
const RATE = Number(process.env.BENCH_BUSY_RATE ?? 1000);
const CAMERAS = Number(process.env.BENCH_BUSY_CAMERAS ?? 200);
const DRAIN_MS = Number(process.env.BENCH_BUSY_DRAIN_S ?? 60) * 1000;
const DIALECTS = (process.env.BENCH_BUSY_DIALECTS ?? 'sqlite,postgres').split(',') as TestDialect[];
/** Raises under way at most: past it the raiser waits (and the sustained rate shows it). */
const IN_FLIGHT = 200;
/** Resubscriptions after a drop at most: past it the subscriber stays away (and its alerts count as not received). */
const MAX_RESUMES = 50;
/** The sustained rate passes at this share of the offered one. */
const TARGET_RATE_SHARE = 0.95;

const { startGatehouse } = await built<typeof import('../src/app.js')>('app.js');
const { loadConfig } = await built<typeof import('../src/config.js')>('config.js');
const { createOrg } = await built<typeof import('../src/domains/orgs/service.js')>('domains/orgs/service.js');
const { createLogger } = await built<typeof import('../src/logger.js')>('logger.js');
const { seedSite } = await built<typeof import('../src/domains/sites/service.js')>('domains/sites/service.js');
const { raisePolicyAlert } = await built<typeof import('../src/domains/events/alerts/service.js')>('domains/events/alerts/service.js');
const { systemActor } = await built<typeof import('../src/deps.js')>('deps.js');

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** p-th percentile (0-100) of the values. */
function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** A webhook receiver on loopback: the time each alert's delivery (the rule's RULE_FIRED body names it) arrived. */
async function startReceiver(arrived: Map<string, number>) {
  let duplicates = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { pressUuid?: string };
      if (body.pressUuid && arrived.has(body.pressUuid)) duplicates++;
      else if (body.pressUuid) arrived.set(body.pressUuid, at);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    duplicates: () => duplicates,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function measure(dialect: TestDialect): Promise<void> {
  const database = await createTestDatabase(dialect);
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-busy-'));
  const gatehouse = await startGatehouse(
    loadConfig({ dataDir, database: database.url, httpPort: 0, mediaPort: 0, wsPort: 0, seed: false }, { GATEHOUSE_ALLOW_PRIVATE_OUTBOUND: '1' }),
    { log: createLogger('silent') },
  );
  const streamed = new Map<string, number>();
  const delivered = new Map<string, number>();
  const receiver = await startReceiver(delivered);
  let subscriber: Awaited<ReturnType<typeof stompjsClient>> | null = null;
  let closing = false;
  const drops: string[] = [];
  try {
    const { deps } = gatehouse;
    const org = await seedMotionWebhookOrg({ createOrg, seedSite }, deps, gatehouse.urls.rest, {
      name: 'Busy Org',
      cameras: CAMERAS,
      webhookUrl: `${receiver.url}/hook`,
    });
    const { cameras } = org;
    // Subscribes (again after a drop, from the last position received); each ERROR is kept for the report.
    let lastPosition: string | null = null;
    const subscribe = async (): Promise<void> => {
      const client = await stompjsClient(gatehouse.urls.ws, { key: org.apiKey, scheme: 'api-token' });
      subscriber = client;
      client.onStompError = (f) => drops.push(f.headers.message ?? 'ERROR');
      client.onWebSocketClose = () => {
        if (closing || drops.length > MAX_RESUMES) return;
        void subscribe().catch((e: Error) => drops.push(`resubscribing failed: ${e.message}`));
      };
      const headers: Record<string, string> = lastPosition === null ? {} : { 'resume-after': lastPosition };
      client.subscribe(
        `/topic/change/${org.orgUuid}`,
        (m) => {
          lastPosition = m.headers.position ?? lastPosition;
          const change = JSON.parse(m.body) as { entity: string; type: string; entityUuid: string };
          if (change.entity === 'POLICY_ALERT' && change.type === 'CREATE') streamed.set(change.entityUuid, performance.now());
        },
        headers,
      );
    };
    await subscribe();
    await sleep(500); // the SUBSCRIBE on its way

    // The raise loop: alert i is due at start + i / RATE; the scheduled time is its latency's origin.
    const due = new Map<string, number>();
    const total = Math.round(DURATION_S * RATE);
    const actor = systemActor(org.orgUuid, 'bench.busyOrg');
    let inFlight = 0;
    let failures = 0;
    let lastCommit = 0;
    const start = performance.now();
    const cpuAtStart = process.cpuUsage();
    const machineBusy = machineBusySince();
    const stopAt = start + DURATION_S * 1000 * 2; // a server far behind is given up on, not waited for
    let raised = 0;
    for (; raised < total && performance.now() < stopAt; raised++) {
      const dueAt = start + (raised * 1000) / RATE;
      const wait = dueAt - performance.now();
      if (wait > 1) await sleep(wait);
      while (inFlight >= IN_FLIGHT && performance.now() < stopAt) await sleep(1);
      inFlight++;
      raisePolicyAlert(deps, actor, { deviceUuid: cameras[raised % CAMERAS]!, policyAlertTriggers: ['MOTION'], textDescription: `Motion ${raised}` })
        .then((alert) => {
          due.set(alert.uuid, dueAt);
          lastCommit = performance.now();
        })
        .catch(() => failures++)
        .finally(() => inFlight--);
    }
    while (inFlight > 0 && performance.now() < stopAt + 10_000) await sleep(10);
    const sustained = due.size / ((lastCommit - start) / 1000);
    const drainUntil = performance.now() + DRAIN_MS;
    const complete = () => [...due.keys()].every((uuid) => streamed.has(uuid) && delivered.has(uuid));
    while (!complete() && performance.now() < drainUntil) await sleep(100);
    // The process's CPU from the first raise to the last receipt: on a shared machine it moves less than the rates.
    const cpu = process.cpuUsage(cpuAtStart);
    const cpuPerAlertUs = (cpu.user + cpu.system) / Math.max(1, due.size);
    const cores = cpus().length;
    const machineCpuUs = machineBusy() * cores * (performance.now() - start) * 1000;
    const machinePerAlertUs = machineCpuUs / Math.max(1, due.size);

    const latencies = (arrived: Map<string, number>) => [...due].filter(([uuid]) => arrived.has(uuid)).map(([uuid, at]) => arrived.get(uuid)! - at);
    const [toStream, toWebhook] = [latencies(streamed), latencies(delivered)];
    const figure = (values: number[]) => `p50 ${percentile(values, 50).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms (${values.length})`;
    console.log(
      `${dialect}: ${CAMERAS} cameras, ${raised} alerts offered at ${RATE}/s over ${DURATION_S} s, ${failures} raises failed; load average ${loadAverage()}`,
    );
    record(
      `alerts/s sustained, ${dialect}`,
      `${sustained.toFixed(0)} (${due.size} committed in ${((lastCommit - start) / 1000).toFixed(1)} s)`,
      `>= ${TARGET_RATE_SHARE * RATE}`,
      raised === total && failures === 0 && sustained >= TARGET_RATE_SHARE * RATE,
    );
    const dropsSeen = drops.length === 0 ? 'never dropped' : `dropped ${drops.length} times (${[...new Set(drops)].join('; ')}), resumed`;
    record(`raise -> stream receipt, ${dialect}`, `${figure(toStream)}; subscriber ${dropsSeen}`, '', null);
    record(
      `process CPU per alert (server, subscriber and receiver), ${dialect}`,
      `${cpuPerAlertUs.toFixed(0)} µs (${((cpu.user + cpu.system) / 1e6).toFixed(1)} s for ${due.size}${complete() ? '' : ', not all received'})`,
      '',
      null,
    );
    record(
      `machine CPU per alert (every process, ${cores} cores), and the rate they carry at that cost, ${dialect}`,
      `${machinePerAlertUs.toFixed(0)} µs; ${((cores * 1e6) / machinePerAlertUs).toFixed(0)} alerts/s`,
      '',
      null,
    );
    record(`raise -> webhook delivery, ${dialect}`, `${figure(toWebhook)}; ${receiver.duplicates()} delivered twice`, '', null);
    const lostStream = due.size - toStream.length;
    const lostWebhook = due.size - toWebhook.length;
    record(
      `alerts not received (lost, or still queued when the wait ended), ${dialect}`,
      `${lostStream} on the stream, ${lostWebhook} webhooks (after ${(DRAIN_MS / 1000).toFixed(0)} s at most)`,
      '0',
      lostStream === 0 && lostWebhook === 0,
    );
  } finally {
    closing = true;
    await (subscriber as Awaited<ReturnType<typeof stompjsClient>> | null)?.deactivate();
    await receiver.close();
    await gatehouse.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  for (const dialect of DIALECTS) await measure(dialect);
}
