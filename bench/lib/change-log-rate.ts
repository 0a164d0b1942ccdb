// How many changes per second one organization's writes reach through `write()` (the change log's append, with its
// per-organization position), with 1 and with 20 writes in flight, and this process's CPU time per change: the
// write path of the stream bench without its fan-out. A Gatehouse instance from the build, in this process, with
// the Redis bus on PostgreSQL. Loopback only; bounded by the count.
//   npx tsx bench/lib/change-log-rate.ts [postgres|sqlite] [changes per run, 1000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { built } from './built.js';
import { createTestDatabase, REDIS_TEST_URL, type TestDialect } from '../../test/helpers/databases.js';

const { startGatehouse } = await built<typeof import('../../src/app.js')>('app.js');
const { loadConfig } = await built<typeof import('../../src/config.js')>('config.js');
const { createOrg } = await built<typeof import('../../src/domains/orgs/service.js')>('domains/orgs/service.js');
const { systemActor } = await built<typeof import('../../src/deps.js')>('deps.js');
const { createLogger } = await built<typeof import('../../src/logger.js')>('logger.js');
const { write } = await built<typeof import('../../src/bus/write.js')>('bus/write.js');

const dialect = (process.argv[2] ?? 'postgres') as TestDialect;
const count = Number(process.argv[3] ?? 1000);
const database = await createTestDatabase(dialect);
const dataDir = mkdtempSync(join(tmpdir(), 'gh-rate-'));
const flags = dialect === 'postgres' ? { database: database.url, bus: REDIS_TEST_URL } : { database: database.url };
const gatehouse = await startGatehouse(loadConfig({ dataDir, httpPort: 0, mediaPort: 0, wsPort: 0, seed: false, ...flags }, {}), {
  log: createLogger('silent'),
});
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
    console.log(
      `${dialect}, ${inFlight} in flight: ${(count / seconds).toFixed(0)} changes/s, ${((used.user + used.system) / count).toFixed(0)} µs CPU per change`,
    );
  }
} finally {
  await gatehouse.close();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
