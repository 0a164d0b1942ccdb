import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createQueryId, type Kysely, type RootOperationNode } from 'kysely';
import * as accessEvents from '../../../src/domains/access/door-events/store.js';
import * as deviceEvents from '../../../src/domains/devices/device-reads/device-events.store.js';
import * as timeline from '../../../src/domains/events/seekpoints/timeline.store.js';
import * as faces from '../../../src/domains/faces/face-events.store.js';
import type { DB } from '../../../src/store/schema.js';
import * as marks from '../../../src/domains/timeline/store.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

/**
 * The timeline reads seek each device's span through a (device, time) index, never an organization-wide one
 * (which would read every device's records of the span). Each read is captured as the store builds it and
 * explained by SQLite, whose planner picks without statistics (Gatehouse never runs ANALYZE): an ORDER BY that
 * an (org, time) index also satisfied made it walk the organization's rows (time-spans.ts). PostgreSQL plans
 * by its statistics, which empty test tables do not have, so its plans are not asserted here.
 */
const dialect = 'sqlite' as const;
describe('timeline reads: query plans [sqlite]', () => {
  let server: TestServer;
  let db: Kysely<DB>;
  before(async () => {
    server = await startTestServer(dialect);
    db = server.gatehouse.deps.store.db;
  });
  after(() => server.close());

  /** The plan of the one query `read` makes. */
  async function planOf(read: (db: Kysely<DB>) => Promise<unknown>): Promise<string> {
    const nodes: RootOperationNode[] = [];
    const spy = db.withPlugin({ transformQuery: (a) => (nodes.push(a.node), a.node), transformResult: async (a) => a.result });
    await read(spy);
    // The query run is the last one built (a subquery's builder passes through the plugin too).
    const query = db.getExecutor().compileQuery(nodes[nodes.length - 1], createQueryId());
    const result = await db.executeQuery<{ detail: string }>({ ...query, sql: `explain query plan ${query.sql}` });
    return result.rows.map((r) => r.detail).join('\n');
  }

  const ORG = 'AAAAAAAAAAAAAAAAAAAAAA';
  const one = { orgUuid: ORG, deviceUuids: ['BBBBBBBBBBBBBBBBBBBBBB'], fromMs: 1000, toMs: 2000 };
  const two = { ...one, deviceUuids: ['BBBBBBBBBBBBBBBBBBBBBB', 'CCCCCCCCCCCCCCCCCCCCCC'] };

  describe('span reads', () => {
    const cases: Array<[string, string, (db: Kysely<DB>, span: typeof one) => Promise<unknown>]> = [
      ['policy alerts', 'policy_alerts_by_device', (d, q) => timeline.listAlertsInSpan(d, q, 10)],
      ['crossings', 'crossing_events_by_device', (d, q) => timeline.listCrossingsInSpan(d, q, ['HUMAN', 'VEHICLE'], 10)],
      ['plate reads', 'vehicle_events_by_device', (d, q) => timeline.listPlateReadsInSpan(d, q, 10)],
      ['face sightings', 'face_events_by_device', (d, q) => faces.listFaceEventsInSpan(d, { ...q, limit: 10 })],
      ['device events', 'device_events_by_device', (d, q) => deviceEvents.listDeviceEventsInSpan(d, { ...q, families: ['door', 'button'], limit: 10 })],
      ['alert buckets', 'policy_alerts_by_device', (d, q) => timeline.alertBuckets(d, q, 30_000)],
      ['crossing buckets', 'crossing_events_by_device', (d, q) => timeline.crossingBuckets(d, q, 30_000)],
      ['custom seekpoints', 'custom_seekpoints_by_target', (d, q) => marks.listCustomSeekpoints(d, { ...q, targetUuids: q.deviceUuids, limit: 10 })],
      [
        'door events',
        'door_events_by_door_time',
        (d, q) =>
          accessEvents.pageEvents(d, {
            orgUuid: ORG,
            by: { column: 'door_uuid', value: q.deviceUuids },
            afterMs: q.fromMs,
            beforeMs: q.toMs,
            newestFirst: false,
            after: null,
            limit: 10,
          }),
      ],
    ];
    for (const [what, index, read] of cases) {
      it(`reads ${what} of one device, and of two, over ${index}`, async () => {
        for (const span of [one, two]) {
          const plan = await planOf((d) => read(d, span));
          assert.match(plan, new RegExp(`\\b${index}\\b`), `${what}:\n${plan}`);
        }
      });
    }
    it("reads a location's custom seekpoints over custom_seekpoints_by_location, and a sensor's states over device_events_by_device", async () => {
      assert.match(
        await planOf((d) => marks.listCustomSeekpoints(d, { ...one, locationUuids: ['DDDDDDDDDDDDDDDDDDDDDD'], limit: 10 })),
        /custom_seekpoints_by_location/,
      );
      const states = await planOf((d) =>
        deviceEvents.activeStateBuckets(d, {
          deviceUuid: one.deviceUuids[0],
          family: 'door',
          activeStates: ['OPEN'],
          fromMs: 1000,
          toMs: 2000,
          widthMs: 30_000,
        }),
      );
      assert.match(states, /device_events_by_device/, states);
      assert.doesNotMatch(states, /device_events_by_org/, states);
    });
  });
});
