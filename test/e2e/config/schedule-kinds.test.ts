import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { findDoor } from '../../../src/domains/access/service.js';
import { localDateTime } from '../../../src/domains/schedules/local-time.js';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import type { TestOrg } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { assertSameAsMissing, changesDuring, nobodysUuid } from './config-site.js';

/** The /api/schedule family: four kinds of schedule, each usable wherever a schedule is (here by a door). */
const SITE = `
locations: [{name: HQ, timeZone: America/New_York}]
schedules: [{name: Mornings, intervals: [{start: 480, stop: 720}]}]
doors: [{name: Gate, location: HQ}, {name: Dock, location: HQ}]
`;
const HOUR_S = 3600;

forEachDialect('/api/schedule: weekly, absolute, relative and date-time schedules', (dialect) => {
  const server = useTestServer(dialect);
  let org: TestOrg;
  let other: TestOrg;
  let site: Record<string, Record<string, string>>;
  const api = apiAs(server, () => org.apiKey, '/api/schedule');
  const theirs = apiAs(server, () => other.apiKey, '/api/schedule');
  const nowS = () => Math.floor(Date.now() / 1000);

  before(async () => {
    org = await server().createOrg('Schedules');
    other = await server().createOrg('Other');
    const r = await control(server(), `/orgs/${org.orgUuid}/seed`, SITE, { contentType: 'application/yaml' });
    assert.equal(r.json.error, false, r.text);
    site = r.json;
  });

  it('creates each kind (announced), finds it by its kind, and lists it under its strategy', async () => {
    const start = nowS();
    const bodies = {
      Weekly: { name: 'Evenings', intervalList: [{ minuteOfWeekStart: 1200, minuteOfWeekStop: 1320 }] },
      Absolute: {
        name: 'Inspection',
        intervalList: [
          { b: start + 2 * HOUR_S, e: start + 3 * HOUR_S },
          { b: start, e: start + HOUR_S },
        ],
      },
      Relative: { name: 'Last Hour', pastSeconds: HOUR_S },
      RelativeDateTimeIntervals: { name: 'Gala', intervals: [{ localStartDateTime: '2027-03-14T18:00', localEndDateTime: '2027-03-15T01:30:00' }] },
    };
    const uuids: Record<string, string> = {};
    const changes = await changesDuring(server(), async () => {
      for (const [kind, schedule] of Object.entries(bodies)) uuids[kind] = (await api.ok(`create${kind}Schedule`, { schedule })).scheduleUuid;
    });
    const found = Object.fromEntries(
      await Promise.all(Object.entries(uuids).map(async ([kind, uuid]) => [kind, (await api.ok(`find${kind}Schedule`, { uuid })).schedule])),
    );
    assert.deepEqual(found.Absolute.intervalList, [
      { b: start, e: start + HOUR_S },
      { b: start + 2 * HOUR_S, e: start + 3 * HOUR_S },
    ]);
    assert.deepEqual([found.Relative.pastSeconds, found.Relative.strategy], [HOUR_S, 'REALTIME_RELATIVE_SECONDS']);
    assert.deepEqual(found.RelativeDateTimeIntervals.intervals, [{ localStartDateTime: '2027-03-14T18:00:00', localEndDateTime: '2027-03-15T01:30:00' }]);
    assert.deepEqual(
      [found.Weekly.strategy, found.Weekly.name, found.Weekly.mutable, found.Weekly.orgUuid],
      ['WEEKLY_REPEATING_MINUTES', 'Evenings', true, org.orgUuid],
    );
    assert.deepEqual(
      changes.filter((c) => c.entity === 'SCHEDULE' && c.type === 'CREATE').map((c) => c.update),
      Object.values(found),
    );

    const all = await api.ok('getSchedules');
    assert.deepEqual(
      [all.weeklySchedules.map((s: any) => s.name), all.absoluteSchedules, all.relativeSchedules, all.relativeDatetimeSchedules],
      [['Evenings', 'Mornings'], [found.Absolute], [found.Relative], [found.RelativeDateTimeIntervals]],
    );
    // The weekly-only reads of /api/policy keep the specification's Schedule shape.
    const policyList = (await api.ok('/api/policy/findSchedules')).schedules;
    assert.deepEqual(
      policyList.map((s: any) => s.strategy),
      ['WEEKLY_REPEATING_MINUTES', 'WEEKLY_REPEATING_MINUTES'],
    );

    assert.match(await api.refused('findWeeklySchedule', { uuid: uuids.Absolute }), /is a ABSOLUTE_SECONDS schedule, not WEEKLY_REPEATING_MINUTES/);
    const nobodys = nobodysUuid();
    assertSameAsMissing(await theirs.call('findAbsoluteSchedule', { uuid: uuids.Absolute }), await theirs.call('findAbsoluteSchedule', { uuid: nobodys }), [
      uuids.Absolute,
      nobodys,
    ]);
  });

  it("refuses each kind's wrong times, naming the value, and writes nothing", async () => {
    const before = await api.ok('getSchedules');
    const s = nowS();
    const cases: Array<[string, object, RegExp]> = [
      ['Absolute', { name: 'x', intervalList: [{ b: s, e: s }] }, /schedule.intervalList\[0\]: b must be < e/],
      [
        'Absolute',
        {
          name: 'x',
          intervalList: [
            { b: s, e: s + 10 },
            { b: s + 5, e: s + 20 },
          ],
        },
        /schedule.intervalList\[1\]: overlaps schedule.intervalList\[0\]/,
      ],
      [
        'RelativeDateTimeIntervals',
        { name: 'x', intervals: [{ localStartDateTime: '2027-02-30T00:00:00', localEndDateTime: '2027-03-01T00:00' }] },
        /intervals\[0\].localStartDateTime/,
      ],
      [
        'RelativeDateTimeIntervals',
        { name: 'x', intervals: [{ localStartDateTime: '2027-03-01T10:00', localEndDateTime: '2027-03-01T09:00' }] },
        /must be before/,
      ],
      ['Weekly', { name: 'x', intervalList: [{ minuteOfWeekStart: 60, minuteOfWeekStop: 10081 }] }, /within 0..10080/],
      [
        'Weekly',
        { name: 'x', strategy: 'ABSOLUTE_SECONDS' },
        /schedule.strategy: this operation takes WEEKLY_REPEATING_MINUTES schedules, not ABSOLUTE_SECONDS/,
      ],
      ['Absolute', { name: '  ', intervalList: [] }, /schedule.name: must not be empty/],
    ];
    for (const [kind, schedule, message] of cases) assert.match(await api.refused(`create${kind}Schedule`, { schedule }), message, kind);
    for (const pastSeconds of [0, -5, 2 ** 31]) assert.equal((await api.call('createRelativeSchedule', { schedule: { name: 'x', pastSeconds } })).status, 400);
    assert.deepEqual(await api.ok('getSchedules'), before);
  });

  it('a door follows an absolute and a date-time schedule: unlocked while it covers now, relocking when it ends', async () => {
    const start = nowS() - 60;
    const absolute = (await api.ok('createAbsoluteSchedule', { schedule: { name: 'Delivery', intervalList: [{ b: start, e: start + HOUR_S }] } })).scheduleUuid;
    const local = (ms: number) => localDateTime(ms, 'America/New_York');
    const openHouseEnd = local(Date.now() + 2 * HOUR_S * 1000);
    const dateTime = (
      await api.ok('createRelativeDateTimeIntervalsSchedule', {
        schedule: {
          name: 'Open House',
          intervals: [{ localStartDateTime: local(Date.now() - 60_000), localEndDateTime: openHouseEnd }],
        },
      })
    ).scheduleUuid;
    const follow = (door: string, schedule: string) =>
      api.ok('/api/component/updateAccessControlledDoor', {
        accessControlledDoorUuid: door,
        defaultState: 'ACCESS_CONTROLLED',
        doorStateToScheduleUuidMap: { UNLOCKED: schedule },
      });
    await follow(site.doors.Gate, absolute);
    await follow(site.doors.Dock, dateTime);
    const gate = (await findDoor(server().gatehouse.deps, org.orgUuid, site.doors.Gate))!;
    const dock = (await findDoor(server().gatehouse.deps, org.orgUuid, site.doors.Dock))!;
    assert.deepEqual([gate.accessState, gate.accessStateSource, gate.relockAtMillis], ['UNLOCKED', 'SCHEDULE', (start + HOUR_S) * 1000]);
    assert.deepEqual([dock.accessState, dock.accessStateSource], ['UNLOCKED', 'SCHEDULE']);
    assert.equal(local(dock.relockAtMillis!), openHouseEnd, 'the door relocks at the wall-clock second the interval ends');

    const data = (await api.ok('getScheduleDataV2', { scheduleUuid: site.schedules.Mornings })).weeklyScheduleData;
    assert.deepEqual([data.name, data.doorSettingUuids, data.locationsUsedIn], ['Mornings', [], []]);
    assert.match(await api.refused('getScheduleDataV2', { scheduleUuid: absolute }), /not WEEKLY_REPEATING_MINUTES/);
    assert.match(await api.refused('deleteSchedule', { scheduleUuid: absolute }), /Schedule "Delivery" is in use by door "Gate"/);
  });

  it('lists what follows each weekly schedule, and deletes one no longer used (announced)', async () => {
    const evenings = (await api.ok('getSchedules')).weeklySchedules.find((s: any) => s.name === 'Evenings').uuid;
    await api.ok('/api/component/updateAccessControlledDoor', {
      accessControlledDoorUuid: site.doors.Gate,
      doorStateToScheduleUuidMap: { UNLOCKED: evenings },
    });
    const data = (await api.ok('getScheduleData')).weeklyScheduleData;
    const row = data.find((d: any) => d.uuid === evenings);
    assert.deepEqual([row.doorSettingUuids, row.locationsUsedIn, row.ruleUuids], [[site.doors.Gate], [site.locations.HQ], []]);
    assert.deepEqual(
      data.map((d: any) => d.name),
      ['Evenings', 'Mornings'],
    );

    const delivery = (await api.ok('getSchedules')).absoluteSchedules.find((s: any) => s.name === 'Delivery').uuid;
    const nobodys = nobodysUuid();
    const foreign = await theirs.call('deleteSchedule', { scheduleUuid: delivery });
    assertSameAsMissing(foreign, await theirs.call('deleteSchedule', { scheduleUuid: nobodys }), [delivery, nobodys]);
    const changes = await changesDuring(server(), () => api.ok('deleteSchedule', { scheduleUuid: delivery }));
    assert.deepEqual(
      changes.map((c) => [c.entity, c.type, c.entityUuid]),
      [['SCHEDULE', 'DELETE', delivery]],
    );
    assert.match(await api.refused('findAbsoluteSchedule', { uuid: delivery }), /not found/i);
  });
});
