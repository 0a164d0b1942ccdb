// How many changes per second one organization's writes reach through `write()` (the change log's append, with its
// per-organization position), with 1 and with 20 writes in flight, and this process's CPU time per change: the
// write path of the stream bench without its fan-out. A Gatehouse instance from a build, in this process, with
// the Redis bus on PostgreSQL. With several builds (before and after a change), each round runs every build in
// turn, on a database of its own, so that their figures alternate in the same run and the ratio is read there.
// Loopback only; bounded by the count and the rounds.
//   npx tsx bench/lib/change-log-rate.ts [postgres|sqlite] [changes per run, 1000] [rounds, 1] [build folders, dist]
//   e.g. npx tsx bench/lib/change-log-rate.ts postgres 1000 3 /tmp/before/dist,dist
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createTestDatabase, REDIS_TEST_URL, type TestDialect } from '../../test/helpers/databases.js';

const dialect = (process.argv[2] ?? 'postgres') as TestDialect;
const count = Number(process.argv[3] ?? 1000);
const rounds = Number(process.argv[4] ?? 1);
const builds = (process.argv[5] ?? 'dist').split(',');

async function measure(build: string): Promise<number[]> {
  const dist = pathToFileURL(resolve(build) + '/').href;
  const load = <M>(path: string) => import(new URL(path, dist).href) as Promise<M>;
  const { startGatehouse } = await load<typeof import('../../src/app.js')>('app.js');
  const { loadConfig } = await load<typeof import('../../src/config.js')>('config.js');
  const { createOrg } = await load<typeof import('../../src/domains/orgs/service.js')>('domains/orgs/service.js');
  const { systemActor } = await load<typeof import('../../src/deps.js')>('deps.js');
  const { createLogger } = await load<typeof import('../../src/logger.js')>('logger.js');
  const { write } = await load<typeof import('../../src/bus/write.js')>('bus/write.js');
  const database = await createTestDatabase(dialect);
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-rate-'));
  const flags = dialect === 'postgres' ? { database: database.url, bus: REDIS_TEST_URL } : { database: database.url };
  const gatehouse = await startGatehouse(loadConfig({ dataDir, httpPort: 0, mediaPort: 0, wsPort: 0, seed: false, ...flags }, {}), {
    log: createLogger('silent'),
  });
  const rates: number[] = [];
  try {
    const org = await createOrg(gatehouse.deps, { name: 'Rate Org' });
    const actor = systemActor(org.orgUuid, 'bench.rate');
    // The stream bench's change: a door update, outside the typed entity map.
    const raise = (seq: number) =>
      write(gatehouse.deps, actor, async (w) => w.change({ entity: 'DOOR', entityUuid: 'bench-door', type: 'UPDATE', update: { seq } } as never));
    for (const inFlight of [1, 20]) {
      let next = 0;
      const cpu = process.cpuUsage();
      const started = performance.now();
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          while (next < count) await raise(next++);
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      rates.push(count / seconds);
      console.log(
        `${build}: ${dialect}, ${inFlight} in flight: ${(count / seconds).toFixed(0)} changes/s, ${((used.user + used.system) / count).toFixed(0)} µs CPU per change`,
      );
    }
    // Every change numbered once, without a gap.
    const positions = await gatehouse.deps.store.db
      .selectFrom('change_events')
      .select('position')
      .where('org_uuid', '=', org.orgUuid)
      .orderBy('position')
      .execute();
    const gapFree = positions.every((p, i) => Number(p.position) === i + 1);
    if (!gapFree || positions.length < 2 * count) throw new Error(`${build}: ${positions.length} positions, gap-free ${gapFree}`);
  } finally {
    await gatehouse.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rates;
}

const figures = new Map<string, number[][]>(builds.map((b) => [b, []]));
for (let round = 0; round < rounds; round++) for (const build of builds) figures.get(build)!.push(await measure(build));
if (builds.length > 1) {
  const [base, ...others] = builds;
  for (const build of others)
    for (const [k, inFlight] of [1, 20].entries()) {
      const ratios = figures.get(build)!.map((r, i) => (r[k]! / figures.get(base!)![i]![k]!).toFixed(2));
      console.log(`${build} / ${base}, ${inFlight} in flight, by round: ${ratios.join(', ')}`);
    }
}
