import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { allMigrations } from '../../../src/store/migrations/index.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { createCredential, simulate } from '../access/fixtures.js';

/** A site whose Early schedule is Monday 00:00-01:00 and Late Sunday 23:00-24:00, in New York. */
const SITE = `
locations: [{name: HQ, timeZone: America/New_York}]
users: [{name: Ada}]
schedules:
  - {name: Early, intervals: [{start: 0, stop: 60}]}
  - {name: Late, intervals: [{start: 10020, stop: 10080}]}
doors:
  - {name: Early Door, location: HQ, lock: true, schedule: Early, access: [Ada], unlockDurationMs: 300}
  - {name: Late Door, location: HQ, lock: true, schedule: Late, access: [Ada], unlockDurationMs: 300}
`;

/** Monday 8 January 2024, 00:30 in New York (05:30 UTC); Sunday 7 January, 00:30 and 23:30. */
const MONDAY_0030_NY = Date.UTC(2024, 0, 8, 5, 30);
const SUNDAY_0030_NY = Date.UTC(2024, 0, 7, 5, 30);
const SUNDAY_2330_NY = Date.UTC(2024, 0, 8, 4, 30);

const interval = (minuteOfWeekStart: number, minuteOfWeekStop: number) => ({ minuteOfWeekStart, minuteOfWeekStop });

forEachDialect('minutes of the week count from Monday 00:00', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let site: any;
  let hex: string;

  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Week Org');
    const seeded = await control(server, `/orgs/${org.orgUuid}/seed`, SITE, { contentType: 'application/yaml' });
    assert.equal(seeded.json.error, false, seeded.text);
    site = seeded.json;
    hex = 'abcd0001';
    await createCredential(server, org.apiKey, { credentialType: 'STANDARD_CSN', hexValue: hex, userUuid: site.users.Ada });
  });
  after(async () => {
    await server?.close();
  });

  const badge = async (door: string, at: number) => {
    const r = await simulate(server, 'badge', { door, hex, at });
    assert.equal(r.json.error, false, r.text);
    return r.json as { granted: boolean; reason: string };
  };

  it('admits at a door whose schedule is minute 0..60 on Monday 00:30, and not on Sunday 00:30', async () => {
    assert.deepEqual([(await badge(site.doors['Early Door'], MONDAY_0030_NY)).reason], ['GRANTED']);
    assert.deepEqual([(await badge(site.doors['Early Door'], SUNDAY_0030_NY)).reason], ['OUTSIDE_SCHEDULE']);
  });

  it('reads the last hour of the week (10020..10080) as Sunday 23:00-24:00', async () => {
    assert.equal((await badge(site.doors['Late Door'], SUNDAY_2330_NY)).reason, 'GRANTED');
    assert.equal((await badge(site.doors['Late Door'], SUNDAY_0030_NY)).reason, 'OUTSIDE_SCHEDULE');
  });

  it('answers the seeded intervals unchanged from findSchedules', async () => {
    const r = await server.call('/api/policy/findSchedules', {}, { key: org.apiKey });
    const early = r.json.schedules.find((s: any) => s.name === 'Early');
    assert.deepEqual(early.intervalList, [interval(0, 60)]);
  });

  describe('the 0012 migration', () => {
    it('moves schedules stored in the Sunday count back one day, and forward again when undone', async () => {
      const db = server.gatehouse.deps.store.db as unknown as Kysely<any>;
      const migration = allMigrations(server.gatehouse.deps.store.dialect)['0012-fidelity'];
      const stored = async (uuid: string) =>
        JSON.parse((await db.selectFrom('schedules').select('intervals').where('uuid', '=', uuid).executeTakeFirstOrThrow()).intervals);
      const early = site.schedules.Early;
      await migration.down!(db);
      assert.deepEqual(await stored(early), [interval(1440, 1500)]); // Monday 00:00 in the Sunday count
      await migration.up(db);
      assert.deepEqual(await stored(early), [interval(0, 60)]);
      assert.deepEqual(await stored(site.schedules.Late), [interval(10020, 10080)]);
    });
  });
});
