// A 50-alert page of getPolicyAlertGroupsForDevice (the service, on SQLite) at 10,000 and at 1,000,000
// stored alerts of the device, first page and a page from the middle of the history, with the ratio of
// the two sizes: the cursor seeks into the index, so the ratio should stay under 2.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDeps, closeDeps } from '../src/open-deps.js';
import { loadConfig } from '../src/config.js';
import type { CallerContext } from '../src/context.js';
import { systemActor, type Deps } from '../src/deps.js';
import { createDevice } from '../src/domains/devices/service.js';
import { insertPolicyAlerts } from '../src/domains/events/alerts/store.js';
import { getPolicyAlertGroupsForDevice } from '../src/domains/events/alerts/service.js';
import type { PolicyAlertsTable } from '../src/domains/events/tables.js';
import { createOrg } from '../src/domains/orgs/service.js';
import { createLogger } from '../src/logger.js';
import { write } from '../src/bus/write.js';
import { record } from './lib/results.js';

const SMALL = 10_000;
const LARGE = 1_000_000;
/** Rows per INSERT statement, and per transaction. */
const BATCH = 500;
const PER_TRANSACTION = 50_000;
const BASE_MS = Date.UTC(2024, 0, 1);
const REPEATS = 300;

/** Deterministic alert i: three alerts a second (so timestamps repeat), a gap every 200 alerts. */
function alertRow(orgUuid: string, deviceUuid: string, i: number): PolicyAlertsTable {
  const id = Buffer.alloc(16);
  id.writeUInt32BE(i, 12);
  return {
    uuid: id.toString('base64url'),
    org_uuid: orgUuid,
    device_uuid: deviceUuid,
    location_uuid: null,
    type: 'POLICY_ALERT_V2',
    device_type: 'CAMERA',
    timestamp_ms: BASE_MS + Math.floor(i / 3) * 1000 + Math.floor(i / 200) * 600_000,
    duration_sec: 5,
    triggers: '["MOTION_HUMAN"]',
    text_description: 'MOTION_HUMAN on Bench Camera',
    saved: 0,
    details: '{"numHumans":2,"finalized":true}',
    dismissed_at_ms: null,
    expires_at_ms: null,
  };
}

async function seed(deps: Deps, orgUuid: string, deviceUuid: string, from: number, to: number): Promise<void> {
  for (let start = from; start < to; start += PER_TRANSACTION) {
    await deps.store.db.transaction().execute(async (tx) => {
      for (let b = start; b < Math.min(start + PER_TRANSACTION, to); b += BATCH) {
        const rows = [];
        for (let i = b; i < Math.min(b + BATCH, to); i++) rows.push(alertRow(orgUuid, deviceUuid, i));
        await insertPolicyAlerts(tx, rows);
      }
    });
  }
}

/** Median time of a 50-alert page, first page and one from the middle of the history. */
async function measure(deps: Deps, ctx: CallerContext, deviceUuid: string, stored: number) {
  const middle = alertRow(ctx.orgUuid, deviceUuid, Math.floor(stored / 2));
  const time = async (input: Parameters<typeof getPolicyAlertGroupsForDevice>[2]) => {
    const samples: number[] = [];
    for (let r = 0; r < REPEATS; r++) {
      const t0 = process.hrtime.bigint();
      const groups = await getPolicyAlertGroupsForDevice(deps, ctx, input);
      samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (groups.length === 0) throw new Error('empty page');
    }
    return samples.sort((a, b) => a - b)[samples.length >> 1];
  };
  const first = await time({ deviceUuid, maxResults: 50 });
  const deep = await time({ deviceUuid, maxResults: 50, lastTimestampMs: middle.timestamp_ms, lastUuid: middle.uuid });
  return { first, deep };
}

export async function run(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-alerts-'));
  const deps = await openDeps(loadConfig({ dataDir, seed: false }, {}), { log: createLogger('silent') });
  try {
    const org = await createOrg(deps, { name: 'Bench Org' });
    const actor = systemActor(org.orgUuid, 'bench');
    const camera = await write(deps, actor, (w) => createDevice(w, { kind: 'CAMERA', name: 'Bench Camera', locationUuid: null }));
    const ctx: CallerContext = { ...actor, keyKind: 'standard', requestId: 'bench' };

    let t0 = Date.now();
    await seed(deps, org.orgUuid, camera.uuid, 0, SMALL);
    console.log(`seeded ${SMALL} alerts in ${Date.now() - t0} ms`);
    const small = await measure(deps, ctx, camera.uuid, SMALL);

    t0 = Date.now();
    await seed(deps, org.orgUuid, camera.uuid, SMALL, LARGE);
    console.log(`seeded up to ${LARGE} alerts in ${Date.now() - t0} ms`);
    const large = await measure(deps, ctx, camera.uuid, LARGE);

    const ms = (v: number) => `${v.toFixed(3)} ms`;
    console.log(`50-alert page at ${SMALL} alerts:     first ${ms(small.first)}, middle ${ms(small.deep)} (median of ${REPEATS})`);
    console.log(`50-alert page at ${LARGE} alerts: first ${ms(large.first)}, middle ${ms(large.deep)}`);
    const [firstRatio, deepRatio] = [large.first / small.first, large.deep / small.deep];
    record(`50-alert page time, ${LARGE} / ${SMALL} alerts, first page`, firstRatio.toFixed(2), '< 2', firstRatio < 2);
    record(`50-alert page time, ${LARGE} / ${SMALL} alerts, middle page`, deepRatio.toFixed(2), '< 2', deepRatio < 2);
  } finally {
    await closeDeps(deps);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
