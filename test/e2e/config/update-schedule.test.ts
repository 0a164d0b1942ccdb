import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { findSchedule } from '../../../src/domains/schedules/service.js';
import { timesOf } from '../../../src/domains/schedules/strategies.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, changesDuring, createSiteOrg, nobodysUuid, type SiteOrg } from './config-site.js';
import { assertFails, assertOk } from '../../helpers/api.js';

const PATH = '/api/policy/updateSchedule';
const interval = (minuteOfWeekStart: number, minuteOfWeekStop: number) => ({ minuteOfWeekStart, minuteOfWeekStop });

forEachDialect('POST /api/policy/updateSchedule', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Schedule Org');
    other = await createSiteOrg(server, 'Other Org');
  });
  after(() => server.close());
  const update = (schedule: object, key = org.apiKey) => server.call(PATH, { schedule }, { key });
  const spare = () => org.site.schedules.Spare;

  it('requires authentication', async () => {
    assert.equal((await server.call(PATH, { schedule: { uuid: spare() } }, { key: '' })).status, 401);
  });

  it('changes the fields given, keeps the intervals sorted, and announces the schedule', async () => {
    let r: Awaited<ReturnType<typeof update>> | undefined;
    const events = await changesDuring(server, async () => {
      r = await update({
        uuid: spare(),
        name: 'Weekend Mornings',
        intervalList: [interval(8640, 8880), interval(480, 720)],
        strategy: 'WEEKLY_REPEATING_MINUTES',
        orgUuid: org.orgUuid,
      });
    });
    assertOk(r!);
    assert.deepEqual(Object.keys(r!.json), ['error']);
    const saved = await findSchedule(server.gatehouse.deps, org.orgUuid, spare());
    assert.deepEqual(saved, {
      uuid: spare(),
      orgUuid: org.orgUuid,
      name: 'Weekend Mornings',
      intervalList: [interval(480, 720), interval(8640, 8880)],
      mutable: true,
      oneTimeUse: false,
      strategy: 'WEEKLY_REPEATING_MINUTES',
    });
    assert.equal(events.length, 1);
    assert.equal(events[0].entity, 'SCHEDULE');
    assert.equal(events[0].type, 'UPDATE');
    assert.equal(events[0].entityUuid, spare());
    assert.deepEqual(events[0].update, saved);

    assertOk(await update({ uuid: spare(), oneTimeUse: true, name: null }));
    const again = await findSchedule(server.gatehouse.deps, org.orgUuid, spare());
    assert.equal(again?.oneTimeUse, true);
    assert.equal(again?.name, 'Weekend Mornings', 'a null field is left as it was');
  });

  it('accepts intervals that touch, the whole week, and an empty list', async () => {
    assertOk(await update({ uuid: spare(), intervalList: [interval(0, 60), interval(60, 120)] }));
    assertOk(await update({ uuid: spare(), intervalList: [interval(0, 10080)] }));
    assertOk(await update({ uuid: spare(), intervalList: [] }));
    assert.deepEqual(timesOf((await findSchedule(server.gatehouse.deps, org.orgUuid, spare()))!), { strategy: 'WEEKLY_REPEATING_MINUTES', intervalList: [] });
  });

  it('refuses a start below 0 or a stop past 10080', async () => {
    assertFails(await update({ uuid: spare(), intervalList: [interval(-1, 60)] }), 'schedule.intervalList[0]: start and stop must be within 0..10080');
    assertFails(
      await update({ uuid: spare(), intervalList: [interval(0, 60), interval(10000, 10081)] }),
      'schedule.intervalList[1]: start and stop must be within 0..10080',
    );
  });

  it('refuses a start that is not before its stop', async () => {
    assertFails(await update({ uuid: spare(), intervalList: [interval(60, 60)] }), 'schedule.intervalList[0]: start must be < stop');
    assertFails(await update({ uuid: spare(), intervalList: [interval(120, 60)] }), 'schedule.intervalList[0]: start must be < stop');
  });

  it('refuses intervals that overlap once sorted, naming both', async () => {
    assertFails(
      await update({ uuid: spare(), intervalList: [interval(500, 700), interval(100, 200), interval(150, 300)] }),
      'schedule.intervalList[2]: overlaps schedule.intervalList[1]',
    );
  });

  it('refuses a strategy other than WEEKLY_REPEATING_MINUTES', async () => {
    assertFails(
      await update({ uuid: spare(), strategy: 'ABSOLUTE_SECONDS' }),
      'schedule.strategy: this operation takes WEEKLY_REPEATING_MINUTES schedules, not ABSOLUTE_SECONDS',
    );
  });

  it('refuses an empty name', async () => {
    assertFails(await update({ uuid: spare(), name: '   ' }), 'schedule.name: must not be empty');
  });

  it('refuses any change to a schedule with mutable false, and leaves it', async () => {
    const locked = org.site.schedules.Locked;
    const before = await findSchedule(server.gatehouse.deps, org.orgUuid, locked);
    assertFails(await update({ uuid: locked, name: 'Unlocked' }), 'Schedule "Locked" is not mutable');
    assertFails(await update({ uuid: locked, mutable: true }), 'Schedule "Locked" is not mutable');
    assert.deepEqual(await findSchedule(server.gatehouse.deps, org.orgUuid, locked), before);
  });

  it('a refused update changes nothing', async () => {
    const before = await findSchedule(server.gatehouse.deps, org.orgUuid, spare());
    assertFails(await update({ uuid: spare(), name: 'Renamed', intervalList: [interval(5, 1)] }), /start must be < stop/);
    assert.deepEqual(await findSchedule(server.gatehouse.deps, org.orgUuid, spare()), before);
  });

  it("answers another organization's schedule exactly as a missing one, and leaves it", async () => {
    const theirs = other.site.schedules.Spare;
    const before = await findSchedule(server.gatehouse.deps, other.orgUuid, theirs);
    const foreign = await update({ uuid: theirs, name: 'Mine now' });
    assertSameAsMissing(foreign, await update({ uuid: nobodysUuid(), name: 'Mine now' }));
    assert.equal(foreign.json.errorMsg, 'Schedule not found');
    assert.deepEqual(await findSchedule(server.gatehouse.deps, other.orgUuid, theirs), before);
    // Naming the other organization in the body does not reach it either.
    assertSameAsMissing(await update({ uuid: spare(), orgUuid: other.orgUuid, name: 'X' }), foreign);
  });

  it('answers a malformed body with 400', async () => {
    for (const body of [
      {},
      { schedule: {} },
      { schedule: { uuid: 'short' } },
      { schedule: { uuid: spare(), intervalList: [{ minuteOfWeekStart: 'noon', minuteOfWeekStop: 60 }] } },
      { schedule: { uuid: spare(), intervalList: [{ minuteOfWeekStart: 1 }] } },
      { schedule: { uuid: spare(), strategy: 'HOURLY' } },
    ]) {
      assert.equal((await server.call(PATH, body, { key: org.apiKey })).status, 400, JSON.stringify(body));
    }
  });
});
