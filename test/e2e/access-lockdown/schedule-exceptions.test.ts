import assert from 'node:assert/strict';
import { it } from 'node:test';
import { localDateTime } from '../../../src/domains/schedules/local-time.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { recordChanges, eventsOf, FOREIGN, ok, waitFor, lockdownSuite } from './fixtures.js';

const base = '/api/accesscontrol/doorScheduleException';

forEachDialect('/api/accesscontrol/doorScheduleException: door schedule exceptions', (dialect) => {
  const t = lockdownSuite(dialect);
  const { call, fails } = t;
  const create = (exception: Record<string, unknown>) => call(`${base}/createExceptionV2`, { exception });

  it('creates an exception (announced), gets it, and finds it by t.org, door, location and dates', async () => {
    const { result, changes } = await recordChanges(t.server, () =>
      create({
        name: 'Christmas',
        description: 'Closed',
        doorUuids: [t.site.doors['Lobby Door'], t.site.doors['Annex Door']],
        localStartDate: '2030-12-24',
        localEndDate: '2030-12-26',
        defaultState: 'ACCESS_CONTROLLED',
        intervals: [{ localStartDateTime: '2030-12-24T08:00', localEndDateTime: '2030-12-24T12:00', state: 'UNLOCKED' }],
      }),
    );
    const e = result.exception;
    assert.deepEqual(
      [e.name, e.localStartDate, e.defaultState, e.intervals, e.locationToDoorsMap],
      [
        'Christmas',
        '2030-12-24',
        'ACCESS_CONTROLLED',
        [{ localStartDateTime: '2030-12-24T08:00:00', localEndDateTime: '2030-12-24T12:00:00', state: 'UNLOCKED' }],
        { [t.site.locations.HQ]: [t.site.doors['Lobby Door']], [t.site.locations.Annex]: [t.site.doors['Annex Door']] },
      ],
    );
    assert.ok(changes.some((c) => c.entity === 'DOOR_SCHEDULE_EXCEPTION' && c.type === 'CREATE' && c.entityUuid === e.uuid));
    assert.deepEqual((await call(`${base}/getExceptionV2`, { exceptionUuid: e.uuid })).exception, e);
    await create({
      name: 'Summer',
      doorUuids: [t.site.doors['Front Door']],
      localStartDate: '2030-07-01',
      localEndDate: '2030-07-31',
      defaultState: 'UNLOCKED',
    });
    const names = async (path: string, body: object) => (await call(`${base}/${path}`, body)).exceptions.map((x: any) => x.name);
    assert.deepEqual(await names('findExceptionsV2', {}), ['Summer', 'Christmas']);
    assert.deepEqual(await names('findExceptionsV2', { dateRangeFilter: { localStartDateRangeStart: '2030-12-01T00:00:00-05:00' } }), ['Christmas']);
    assert.deepEqual(await names('findExceptionsV2', { dateRangeFilter: { localEndDateRangeEnd: '2030-08-01' } }), ['Summer']);
    assert.deepEqual(await names('findExceptionsForDoor', { doorUuid: t.site.doors['Front Door'] }), ['Summer']);
    assert.deepEqual(await names('findExceptionsForLocationV2', { locationUuid: t.site.locations.Annex }), ['Christmas']);
    assert.deepEqual(await names('findExceptionsForLocationV2', { locationUuid: t.site.locations.HQ }), ['Summer', 'Christmas']);
  });

  it('updates the fields given and deletes an exception', async () => {
    const { exception } = await create({
      name: 'Temp',
      doorUuids: [t.site.doors['Vault Door']],
      localStartDate: '2031-01-01',
      localEndDate: '2031-01-01',
      defaultState: 'UNLOCKED',
    });
    const updated = (await call(`${base}/updateExceptionV2`, { exception: { uuid: exception.uuid, name: 'Renamed', defaultState: 'ACCESS_CONTROLLED' } }))
      .exception;
    assert.deepEqual(
      [updated.name, updated.defaultState, updated.doorUuids, updated.createdAtMillis],
      ['Renamed', 'ACCESS_CONTROLLED', [t.site.doors['Vault Door']], exception.createdAtMillis],
    );
    const { changes } = await recordChanges(t.server, () => call(`${base}/deleteExceptionV2`, { exceptionUuid: exception.uuid }));
    assert.ok(changes.some((c) => c.entity === 'DOOR_SCHEDULE_EXCEPTION' && c.type === 'DELETE'));
    assert.equal(await fails(`${base}/getExceptionV2`, { exceptionUuid: exception.uuid }), 'Door schedule exception not found');
  });

  it('refuses unordered or unreal dates, intervals outside the dates or overlapping, and a door of another organization', async () => {
    const good = { name: 'X', doorUuids: [t.site.doors['Vault Door']], localStartDate: '2031-02-01', localEndDate: '2031-02-02' };
    const cases: Array<[object, RegExp]> = [
      [{ localEndDate: '2031-01-31' }, /must not be after localEndDate/],
      [{ localStartDate: '2031-02-30' }, /dates YYYY-MM-DD/],
      [{ localEndDate: '2032-06-01' }, /at most 366 days/],
      [{ intervals: [{ localStartDateTime: '2031-02-03T08:00', localEndDateTime: '2031-02-03T09:00', state: 'UNLOCKED' }] }, /within the exception's dates/],
      [{ intervals: [{ localStartDateTime: '2031-02-01T10:00', localEndDateTime: '2031-02-01T09:00', state: 'UNLOCKED' }] }, /start must not be after the end/],
      [
        {
          intervals: [
            { localStartDateTime: '2031-02-01T08:00', localEndDateTime: '2031-02-01T10:00', state: 'UNLOCKED' },
            { localStartDateTime: '2031-02-01T09:00', localEndDateTime: '2031-02-01T11:00', state: 'UNLOCKED' },
          ],
        },
        /must not overlap/,
      ],
      [{ doorUuids: [t.otherSite.doors['Front Door']] }, /Door .* not found/],
      [{ locationToDoorsMap: { [t.site.locations.Annex]: [t.site.doors['Vault Door']] } }, /is not at that location/],
    ];
    for (const [change, message] of cases)
      assert.match(await fails(`${base}/createExceptionV2`, { exception: { ...good, ...change } }), message, JSON.stringify(change));
    assert.match(await fails(`${base}/createExceptionV2`, { exception: { ...good, localStartDate: 'soon' } }), /dates YYYY-MM-DD/);
    assert.equal((await t.server.call(`${base}/createExceptionV2`, { exception: { ...good, defaultState: 'OPEN' } }, { key: t.org.apiKey })).status, 400);
  });

  it("answers another organization's exceptions, doors and locations as unknown, and changes nothing", async () => {
    const theirs = (
      await ok(t.server, t.other.apiKey, `${base}/createExceptionV2`, {
        exception: {
          name: 'Theirs',
          doorUuids: [t.otherSite.doors['Front Door']],
          localStartDate: '2031-03-01',
          localEndDate: '2031-03-01',
          defaultState: 'UNLOCKED',
        },
      })
    ).exception;
    for (const path of ['getExceptionV2', 'deleteExceptionV2'])
      assert.equal(await fails(`${base}/${path}`, { exceptionUuid: theirs.uuid }), 'Door schedule exception not found');
    assert.equal(await fails(`${base}/updateExceptionV2`, { exception: { uuid: theirs.uuid, name: 'Mine' } }), 'Door schedule exception not found');
    assert.equal(await fails(`${base}/findExceptionsForDoor`, { doorUuid: t.otherSite.doors['Front Door'] }), 'Door not found');
    assert.equal(await fails(`${base}/findExceptionsForLocationV2`, { locationUuid: FOREIGN }), 'Location not found');
    assert.equal((await ok(t.server, t.other.apiKey, `${base}/getExceptionV2`, { exceptionUuid: theirs.uuid })).exception.name, 'Theirs');
  });

  it('unlocks a door for its UNLOCKED interval now, and the relock scheduler relocks it when the interval ends', async () => {
    const door = t.site.doors['Stair Door'];
    const now = Date.now();
    const local = (ms: number) => localDateTime(ms, 'America/New_York');
    const from = local(now - 60_000);
    const to = local(now + 2_000);
    const { exception } = await create({
      name: 'Now',
      doorUuids: [door],
      localStartDate: from.slice(0, 10),
      localEndDate: to.slice(0, 10),
      intervals: [{ localStartDateTime: from, localEndDateTime: to, state: 'UNLOCKED' }],
    });
    const doorNow = async () =>
      (await call('/api/component/findMinimalStateAccessControlledDoors', { maxPageSize: 1000 })).accessControlledDoors.find((d: any) => d.door.uuid === door);
    const opened = await doorNow();
    assert.deepEqual([opened.door.lockState, opened.shadow.state.state, opened.shadow.state.source], ['UNLOCKED', 'UNLOCKED', 'SCHEDULE_EXCEPTION']);
    assert.ok(opened.door.relockAtMillis > now && opened.door.relockAtMillis <= now + 4_000, 'it relocks when the interval ends');
    await waitFor('the relock at the end of the interval', async () => (await doorNow()).door.lockState === 'LOCKED', 10_000);
    assert.deepEqual(
      (await eventsOf(t.server, t.org.apiKey, door, ['DoorRelayStateChangeEvent'])).map((e) => e.newState),
      ['LOCKED', 'UNLOCKED'],
    );
    await waitFor('the shadow to follow', async () => (await doorNow()).shadow.state.source === 'DEFAULT_STATE', 10_000);
    await call(`${base}/deleteExceptionV2`, { exceptionUuid: exception.uuid });
  });
});
