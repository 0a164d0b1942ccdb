// Authenticated getOrgV2 (key digest lookup, org read, schema serialization) against a bare Fastify route
// answering the same JSON, both under autocannon with 50 connections, in the same run. The load generator
// runs in its own process, so that it does not share the servers' event loop. The two are measured in
// alternating rounds and each is summed up by its median round, so that a noisy moment on the machine
// does not land on one side only.
//   BENCH_DURATION_S (5, per round)  BENCH_ROUNDS (3)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { startGatehouse } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createOrg } from '../src/domains/orgs/service.js';
import { createLogger } from '../src/logger.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;

const autocannonCli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

async function load(url: string, headers: Record<string, string>, durationS = DURATION_S, connections = CONNECTIONS) {
  const headerArgs = Object.entries({ 'content-type': 'application/json', ...headers }).flatMap(([k, v]) => ['-H', `${k}=${v}`]);
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [autocannonCli, '--json', '-c', String(connections), '-d', String(durationS), '-m', 'POST', '-b', '{}', ...headerArgs, url],
    {
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const result = JSON.parse(stdout);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average as number, p50: result.latency.p50 as number, p99: result.latency.p99 as number };
}

type Figures = Awaited<ReturnType<typeof load>>;

/** The round with the median throughput. */
function median(rounds: Figures[]): Figures {
  return [...rounds].sort((a, b) => a.rps - b.rps)[Math.floor(rounds.length / 2)]!;
}

export async function run(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-'));
  const gatehouse = await startGatehouse(loadConfig({ dataDir, httpPort: 0, mediaPort: 0, wsPort: 0, seed: false }, {}), { log: createLogger('silent') });
  const org = await createOrg(gatehouse.deps, { name: 'Bench Org' });
  const body = JSON.parse(
    await (
      await fetch(gatehouse.urls.rest + '/api/org/getOrgV2', {
        method: 'POST',
        headers: { 'x-auth-apikey': org.apiKey, 'content-type': 'application/json' },
        body: '{}',
      })
    ).text(),
  );
  const bare = Fastify();
  bare.post('/api/org/getOrgV2', async () => body);
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/api/org/getOrgV2`;
  try {
    // Warm both up, then measure the baseline and Gatehouse in alternating rounds.
    const auth = { 'x-auth-apikey': org.apiKey };
    await load(bareUrl, {}, 2, 10);
    await load(gatehouse.urls.rest + '/api/org/getOrgV2', auth, 2, 10);
    const bareRounds: Figures[] = [];
    const subjectRounds: Figures[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      bareRounds.push(await load(bareUrl, {}));
      subjectRounds.push(await load(gatehouse.urls.rest + '/api/org/getOrgV2', auth));
    }
    const baseline = median(bareRounds);
    const subject = median(subjectRounds);
    const each = (rounds: Figures[]) => rounds.map((r) => r.rps.toFixed(0)).join(', ');
    console.log(`rounds (req/s): bare ${each(bareRounds)}; getOrgV2 ${each(subjectRounds)}`);
    console.log(`bare Fastify route:    ${baseline.rps.toFixed(0)} req/s, p50 ${baseline.p50} ms, p99 ${baseline.p99} ms`);
    console.log(`getOrgV2 (SQLite):     ${subject.rps.toFixed(0)} req/s, p50 ${subject.p50} ms, p99 ${subject.p99} ms`);
    console.log(`ratio getOrgV2 / bare: ${(subject.rps / baseline.rps).toFixed(2)} (target >= 0.6)`);
  } finally {
    await bare.close();
    await gatehouse.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
