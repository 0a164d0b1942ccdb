// A one-week hourly getThresholdCrossingCountReport (the service, on SQLite, in New York time) at 10,000
// and at 1,000,000 stored crossings of the camera, with the ratio of the two. Crossings arrive at a steady
// one a minute, so 10,000 is about the report's week and 1,000,000 about two years of history: the report
// seeks into the (org, device, object, timestamp) index and adds up in the database, so its cost follows
// the week it reads, not the history, and the ratio should stay under 2.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeDeps, openDeps } from '../src/open-deps.js';
import { loadConfig } from '../src/config.js';
import type { CallerContext } from '../src/context.js';
import { systemActor, type Deps } from '../src/deps.js';
import { createDevice } from '../src/domains/devices/service.js';
import { getDeviceCrossingCounts } from '../src/domains/events/reports/service.js';
import { createOrg } from '../src/domains/orgs/service.js';
import { createLogger } from '../src/logger.js';
import { write } from '../src/bus/write.js';
import { record } from './lib/results.js';

const SMALL = 10_000;
const LARGE = 1_000_000;
const BATCH = 500;
const PER_TRANSACTION = 50_000;
const MINUTE = 60_000;
const WEEK = 7 * 86_400_000;
/** The newest crossing: the history grows backwards from here, so the report's week stays the same. */
const END_MS = Date.UTC(2026, 0, 4, 5);
const REPEATS = 30;

async function seed(deps: Deps, orgUuid: string, deviceUuid: string, from: number, to: number): Promise<void> {
  for (let start = from; start < to; start += PER_TRANSACTION) {
    await deps.store.db.transaction().execute(async (tx) => {
      for (let b = start; b < Math.min(start + PER_TRANSACTION, to); b += BATCH) {
        const rows = [];
        for (let i = b; i < Math.min(b + BATCH, to); i++) {
          rows.push({
            org_uuid: orgUuid,
            device_uuid: deviceUuid,
            object: 'HUMAN' as const,
            timestamp_ms: END_MS - (i + 1) * MINUTE,
            ingress: 1 + (i % 3),
            egress: i % 2,
          });
        }
        await tx.insertInto('crossing_events').values(rows).execute();
      }
    });
  }
}

async function measure(deps: Deps, ctx: CallerContext, deviceUuid: string): Promise<number> {
  const samples: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    const t0 = process.hrtime.bigint();
    const counts = await getDeviceCrossingCounts(deps, ctx, {
      deviceUuid,
      startTimeMs: END_MS - WEEK,
      endTimeMs: END_MS,
      bucketSize: 'HOUR',
      timeZone: 'America/New_York',
    });
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (counts.length !== 168 || counts.reduce((n, c) => n + c.ingressCount, 0) === 0) throw new Error('unexpected report');
  }
  return samples.sort((a, b) => a - b)[samples.length >> 1];
}

export async function run(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-crossings-'));
  const deps = await openDeps(loadConfig({ dataDir, seed: false }, {}), { log: createLogger('silent') });
  try {
    const org = await createOrg(deps, { name: 'Bench Org' });
    const actor = systemActor(org.orgUuid, 'bench');
    const camera = await write(deps, actor, (w) => createDevice(w, { kind: 'CAMERA', name: 'Bench Camera', locationUuid: null }));
    const ctx: CallerContext = { ...actor, keyKind: 'standard', requestId: 'bench' };

    let t0 = Date.now();
    await seed(deps, org.orgUuid, camera.uuid, 0, SMALL);
    console.log(`seeded ${SMALL} crossings in ${Date.now() - t0} ms`);
    const small = await measure(deps, ctx, camera.uuid);

    t0 = Date.now();
    await seed(deps, org.orgUuid, camera.uuid, SMALL, LARGE);
    console.log(`seeded up to ${LARGE} crossings in ${Date.now() - t0} ms`);
    const large = await measure(deps, ctx, camera.uuid);

    const ms = (v: number) => `${v.toFixed(3)} ms`;
    console.log(`one-week hourly report at ${SMALL} crossings:     ${ms(small)} (median of ${REPEATS})`);
    console.log(`one-week hourly report at ${LARGE} crossings: ${ms(large)}`);
    const ratio = large / small;
    record(`one-week report time, ${LARGE} / ${SMALL} crossings`, ratio.toFixed(2), '< 2', ratio < 2);
  } finally {
    await closeDeps(deps);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
