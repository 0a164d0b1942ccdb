// Issue 19's scale targets, on SQLite and PostgreSQL: a site file of 10,000 devices (cameras, spread over 20
// locations) seeds in under 10 s, and camera/getMinimalCameraStateList for its 10,000 cameras answers in under
// 100 ms over HTTP (median of a few calls, after one to warm up). Each is printed beside a baseline of the same
// run: the same 10,000 device rows inserted bare (one chunked insert, no change log), and the same rows read by
// a bare query (no mapping, no serialization).
//   BENCH_DEVICES (10000)  BENCH_SCALE_DIALECTS (sqlite,postgres)  BENCH_LIST_CALLS (7)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { built } from './lib/built.js';
import { record } from './lib/results.js';
import { createTestDatabase, type TestDialect } from '../test/helpers/databases.js';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 10_000);
const DIALECTS = (process.env.BENCH_SCALE_DIALECTS ?? 'sqlite,postgres').split(',') as TestDialect[];
const LIST_CALLS = Number(process.env.BENCH_LIST_CALLS ?? 7);
const LOCATIONS = 20;
const SEED_TARGET_MS = 10_000;
const LIST_TARGET_MS = 100;

const { startGatehouse } = await built<typeof import('../src/app.js')>('app.js');
const { loadConfig } = await built<typeof import('../src/config.js')>('config.js');
const { createOrg } = await built<typeof import('../src/domains/orgs/service.js')>('domains/orgs/service.js');
const { seedSite } = await built<typeof import('../src/domains/sites/service.js')>('domains/sites/service.js');
const { insertInChunks } = await built<typeof import('../src/store/chunks.js')>('store/chunks.js');
const { createLogger } = await built<typeof import('../src/logger.js')>('logger.js');

/** The site file: LOCATIONS locations and DEVICES cameras, as an installer would write it. */
export function siteFile() {
  const locations = Array.from({ length: LOCATIONS }, (_, i) => ({ name: `Site ${i + 1}`, timeZone: 'America/New_York' }));
  const cameras = Array.from({ length: DEVICES }, (_, i) => ({
    name: `Camera ${String(i + 1).padStart(5, '0')}`,
    location: locations[i % LOCATIONS].name,
    serialNumber: `CAM-${i + 1}`,
    firmwareVersion: '4.2.1',
  }));
  return { locations, cameras };
}

const uuid = () => Buffer.from(randomUUID().replaceAll('-', ''), 'hex').toString('base64url');
const medianOf = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (v: number) => `${v.toFixed(0)} ms`;

async function measure(dialect: TestDialect): Promise<void> {
  const database = await createTestDatabase(dialect);
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-scale-'));
  const gatehouse = await startGatehouse(loadConfig({ dataDir, database: database.url, httpPort: 0, mediaPort: 0, wsPort: 0, seed: false }, {}), {
    log: createLogger('silent'),
  });
  const { deps } = gatehouse;
  try {
    // Baseline: the same number of device rows, inserted bare in one transaction.
    const bareOrg = await createOrg(deps, { name: 'Bare Org' });
    const now = Date.now();
    const rows = Array.from({ length: DEVICES }, (_, i) => ({
      uuid: uuid(),
      org_uuid: bareOrg.orgUuid,
      location_uuid: null,
      kind: 'CAMERA' as const,
      name: `Camera ${String(i + 1).padStart(5, '0')}`,
      serial_number: `CAM-${i + 1}`,
      firmware_version: '4.2.1',
      connection_status: 'GREEN' as const,
      health_status: 'GREEN' as const,
      mac_address: null,
      attributes: '{}',
      created_at_ms: now,
      updated_at_ms: now,
    }));
    let t0 = performance.now();
    await deps.store.db.transaction().execute((tx) => insertInChunks(tx, 'devices', rows));
    const bareInsertMs = performance.now() - t0;

    const org = await createOrg(deps, { name: 'Scale Org' });
    const site = siteFile();
    t0 = performance.now();
    const seeded = await seedSite(deps, org.orgUuid, site);
    const seedMs = performance.now() - t0;
    if (Object.keys(seeded.cameras ?? {}).length !== DEVICES) throw new Error('the site did not seed every camera');
    t0 = performance.now();
    await seedSite(deps, org.orgUuid, site);
    const reseedMs = performance.now() - t0;

    const call = async () => {
      const started = performance.now();
      const answer = await fetch(`${gatehouse.urls.rest}/api/camera/getMinimalCameraStateList`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-auth-apikey': org.apiKey },
        body: '{}',
      });
      // The answer's time is until its last byte arrives; the client's own parse of 4 MB (in this process) is not the server's.
      const bytes = await answer.arrayBuffer();
      const elapsed = performance.now() - started;
      const body = JSON.parse(Buffer.from(bytes).toString('utf8')) as { cameraStates?: unknown[] };
      if (body.cameraStates?.length !== DEVICES) throw new Error(`getMinimalCameraStateList answered ${body.cameraStates?.length} cameras`);
      return elapsed;
    };
    const bare = async () => {
      const started = performance.now();
      const found = await deps.store.db
        .selectFrom('devices')
        .selectAll()
        .where('org_uuid', '=', org.orgUuid)
        .where('kind', '=', 'CAMERA')
        .orderBy('name')
        .orderBy('uuid')
        .execute();
      const elapsed = performance.now() - started;
      if (found.length !== DEVICES) throw new Error('the bare query missed cameras');
      return elapsed;
    };
    await call();
    await bare();
    const listSamples: number[] = [];
    const bareSamples: number[] = [];
    for (let i = 0; i < LIST_CALLS; i++) {
      bareSamples.push(await bare());
      listSamples.push(await call());
    }
    const list = medianOf(listSamples);
    const bareList = medianOf(bareSamples);

    console.log(
      `${dialect}: bare insert of ${DEVICES} device rows ${ms(bareInsertMs)}; site file seeded ${ms(seedMs)}, seeded again (no change) ${ms(reseedMs)}`,
    );
    console.log(
      `${dialect}: getMinimalCameraStateList of ${DEVICES} cameras ${listSamples.map(ms).join(', ')}; bare query of the rows ${bareSamples.map(ms).join(', ')}`,
    );
    record(`${dialect}: seed a ${DEVICES}-device site file (bare insert ${ms(bareInsertMs)})`, ms(seedMs), `< ${SEED_TARGET_MS} ms`, seedMs < SEED_TARGET_MS);
    record(`${dialect}: seed the same file again, nothing changes`, ms(reseedMs), '', null);
    record(
      `${dialect}: getMinimalCameraStateList, ${DEVICES} cameras, over HTTP (bare query ${bareList.toFixed(1)} ms)`,
      `${list.toFixed(1)} ms`,
      `< ${LIST_TARGET_MS} ms`,
      list < LIST_TARGET_MS,
    );
  } finally {
    await gatehouse.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  for (const dialect of DIALECTS) await measure(dialect);
}
