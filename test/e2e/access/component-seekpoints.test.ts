import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { control } from '../control/admin.js';
import { badge, card, recordChanges, eventsOf, FOREIGN, lockdownSuite, ok, refused, waitFor, type LockdownSite } from '../access-lockdown/fixtures.js';

const BELL = `sensors: [{name: Front Bell, kind: doorbell, location: HQ}]\n`;

forEachDialect('component seekpoints and component events of doors and video intercoms', (dialect) => {
  const t = lockdownSuite<LockdownSite & { sensors: Record<string, string> }>(dialect, BELL);
  const T = Date.UTC(2024, 0, 8, 15, 0);
  const START = T / 1000;
  const span = { startTimeSecEpochExclusive: START, durationSec: 3600 };
  let keyId: string;
  let theirBell: string;
  let remoteUnlockAt: number;

  const simulate = async (event: string, flags: object) => {
    const r = await control(t.server, `/simulate/${event}`, flags);
    assert.equal(r.json?.error, false, r.text);
    return r.json;
  };
  /** Waits for the relock that an unlock at `atMs` leads to (the relock scheduler records it at its due time). */
  const relocked = (door: string, atMs: number) =>
    waitFor(`the relock after ${atMs}`, async () =>
      (await eventsOf(t.server, t.org.apiKey, door, ['DoorRelayStateChangeEvent'])).some((e) => e.newState === 'LOCKED' && e.timestampMs > atMs),
    );

  before(async () => {
    const front = t.site.doors['Front Door'];
    await card(t.server, t.org.apiKey, t.site.users.Ada, '0a0b0c0d');
    await simulate('door', { door: front, position: 'AJAR', at: T }); // at the exclusive start: out of the span
    await badge(t.server, front, '0a0b0c0d', T + 1000);
    await relocked(front, T + 1000);
    await simulate('door', { door: front, position: 'OPEN', at: T + 2000 });
    await simulate('door', { door: front, position: 'CLOSED', at: T + 3000 });
    await badge(t.server, front, 'ffff', T + 4000);
    await simulate('rex', { door: front, at: T + 5000 });
    await relocked(front, T + 5000);
    await badge(t.server, t.site.doors['Annex Door'], '0a0b0c0d', T + 6000);
    await relocked(t.site.doors['Annex Door'], T + 6000);
    await simulate('doorbell', { doorbell: t.site.sensors['Front Bell'], at: T + 7000 });
    remoteUnlockAt = Date.now();
    await ok(t.server, t.org.apiKey, '/api/accesscontrol/unlockAccessControlledDoor', { accessControlledDoorUuid: t.site.doors['Vault Door'] });
    keyId = (await t.server.gatehouse.deps.store.db.selectFrom('api_keys').select('id').where('org_uuid', '=', t.org.orgUuid).executeTakeFirstOrThrow()).id;
    await ok(t.server, t.org.apiKey, '/api/component/createAccessControlledDoorSeekpoints', {
      doorUuid: front,
      seekPoints: [{ name: 'Inspection', timestampMs: T + 2500, color: 'RED' }],
    });
    await badge(t.server, t.otherSite.doors['Front Door'], '0a0b0c0d', T + 1000);
    const seeded = await control(t.server, `/orgs/${t.other.orgUuid}/seed`, `locations: [{name: HQ, timeZone: America/New_York}]\n${BELL}`, {
      contentType: 'application/yaml',
    });
    theirBell = seeded.json.sensors['Front Bell'];
  });

  const seekpoints = async (finder: string, body: object, key = t.org.apiKey) =>
    (await ok(t.server, key, `/api/component/findComponentSeekPointsBy${finder}`, { ...span, ...body })).seekpoints as any[];
  const pairs = (points: any[]) => points.map((p) => [p.timestampMs - T, p.activity]);
  const ANNEX_DOOR = [
    [6000, 'AC_BADGE_AUTHORIZED'],
    [6000, 'AC_DSR_UNLOCKED'],
    [6300, 'AC_DSR_LOCKED'],
  ];
  const FRONT_DOOR = [
    [1000, 'AC_BADGE_AUTHORIZED'],
    [1000, 'AC_DSR_UNLOCKED'],
    [1300, 'AC_DSR_LOCKED'],
    [2000, 'AC_DPI_DOOR_OPEN'],
    [2500, 'CUSTOM'],
    [3000, 'AC_DPI_DOOR_CLOSED'],
    [4000, 'AC_BADGE_UNAUTHORIZED'],
    [5000, 'AC_REX_ACTIVE'],
    [5000, 'AC_DSR_UNLOCKED'],
    [5300, 'AC_DSR_LOCKED'],
  ];

  it("answers a door's seekpoints over the span after its exclusive start, oldest first, with its custom marks", async () => {
    const front = t.site.doors['Front Door'];
    const points = await seekpoints('AccessControlledDoor', { accessControlledDoorUuid: front });
    assert.deepEqual(pairs(points), FRONT_DOOR);
    const badgeIn = points[0];
    assert.deepEqual(
      [badgeIn.componentCompositeUuid, badgeIn.userUuid, badgeIn.locationUuid, badgeIn.originalEvent.type],
      [front, t.site.users.Ada, t.site.locations.HQ, 'CredentialReceivedEvent'],
    );
    const mark = points[4];
    assert.deepEqual([mark.customActivityDisplayName, mark.customActivityColor, mark.componentCompositeUuid], ['Inspection', 'RED', front]);
    const withStart = await seekpoints('AccessControlledDoor', { accessControlledDoorUuid: front, startTimeSecEpochExclusive: START - 1, durationSec: 1 });
    assert.deepEqual(pairs(withStart), [[0, 'AC_DPI_DOOR_AJAR']], 'the instant of an exclusive start is out of it; a second earlier it is in');
    assert.deepEqual(pairs(await seekpoints('Component', { componentUuid: front })), FRONT_DOOR, 'a component is a door');
  });

  it('answers the seekpoints of a location, a controller and a user', async () => {
    assert.deepEqual(pairs(await seekpoints('Location', { locationUuid: t.site.locations.HQ })), FRONT_DOOR);
    assert.deepEqual(pairs(await seekpoints('Location', { locationUuid: t.site.locations.Annex })), ANNEX_DOOR);
    assert.deepEqual(pairs(await seekpoints('OwnerDevice', { ownerDeviceUuid: t.site.doorControllers['Front Door Controller'] })), FRONT_DOOR);
    assert.deepEqual(pairs(await seekpoints('User', { userUuid: t.site.users.Ada })), [
      [1000, 'AC_BADGE_AUTHORIZED'],
      [1000, 'AC_DSR_UNLOCKED'],
      [6000, 'AC_BADGE_AUTHORIZED'],
      [6000, 'AC_DSR_UNLOCKED'],
    ]);
  });

  it('answers several doors door by door as named, or in time order with sortResponse; a remote unlock is AC_REMOTE_UNLOCK', async () => {
    const list = [t.site.doors['Annex Door'], t.site.doors['Front Door']];
    const byDoor = await seekpoints('AccessControlledDoors', { accessControlledDoorUuidList: list });
    assert.deepEqual(pairs(byDoor), [...ANNEX_DOOR, ...FRONT_DOOR]);
    const sorted = await seekpoints('AccessControlledDoors', { accessControlledDoorUuidList: list, sortResponse: true });
    assert.deepEqual(pairs(sorted), [...FRONT_DOOR, ...ANNEX_DOOR]);
    const now = await seekpoints('AccessControlledDoor', {
      accessControlledDoorUuid: t.site.doors['Vault Door'],
      startTimeSecEpochExclusive: Math.floor(remoteUnlockAt / 1000) - 60,
      durationSec: 3600,
    });
    assert.deepEqual(
      now.map((p) => [p.activity, p.originalEvent.originator.tokenUuid]),
      [['AC_REMOTE_UNLOCK', keyId]],
    );
  });

  it("answers a doorbell camera's presses, and a video intercom's presses with its door's events", async () => {
    const bell = t.site.sensors['Front Bell'];
    const points = (await ok(t.server, t.org.apiKey, '/api/doorbellcamera/findComponentSeekPointsForDoorbellCamera', { doorbellCameraUuid: bell, ...span }))
      .seekpoints;
    assert.deepEqual(
      points.map((p: any) => [p.timestampMs - T, p.activity, p.componentUuid]),
      [[7000, 'AC_DB_TRIGGERED', bell]],
    );
    const intercom = async (body: object) =>
      (
        await ok(t.server, t.org.apiKey, '/api/component/findComponentEventsForVideoIntercom', {
          videoIntercomUuid: bell,
          createdAfterMs: T,
          createdBeforeMs: T + 8000,
          ...body,
        })
      ).componentEvents.map((e: any) => [e.timestampMs - T, e.type]);
    assert.deepEqual(await intercom({ accessControlledDoorUuid: t.site.doors['Front Door'], limit: 3 }), [
      [7000, 'DoorbellEvent'],
      [5300, 'DoorRelayStateChangeEvent'],
      [5000, 'DoorRelayStateChangeEvent'],
    ]);
    assert.deepEqual(await intercom({}), [[7000, 'DoorbellEvent']], 'without a door: its presses');
    assert.deepEqual(await intercom({ createdAfterMs: T + 7000 }), [], 'createdAfterMs is exclusive');
  });

  it('finds component events by component (a door) and by support authority (the API key it acts through)', async () => {
    const byComponent = (
      await ok(t.server, t.org.apiKey, '/api/component/findComponentEventsByComponent', {
        componentUuid: t.site.doors['Front Door'],
        typeFilter: ['CredentialReceivedEvent'],
      })
    ).componentEvents;
    assert.deepEqual(
      byComponent.map((e: any) => [e.timestampMs - T, e.authenticationResult]),
      [
        [4000, 'REJECTED'],
        [1000, 'ACCEPTED'],
      ],
    );
    const byAuthority = (await ok(t.server, t.org.apiKey, '/api/component/findComponentEventsBySupportAuthority', { supportAuthorityUuid: keyId }))
      .componentEvents;
    assert.deepEqual(
      byAuthority.map((e: any) => [e.componentCompositeUuid, e.newState]),
      [[t.site.doors['Vault Door'], 'UNLOCKED']],
    );
    assert.deepEqual(
      (await ok(t.server, t.other.apiKey, '/api/component/findComponentEventsBySupportAuthority', { supportAuthorityUuid: keyId })).componentEvents,
      [],
    );
  });

  it('creates custom door seekpoints, announced on the stream; another organization cannot', async () => {
    const stair = t.site.doors['Stair Door'];
    const { changes } = await recordChanges(t.server, () =>
      ok(t.server, t.org.apiKey, '/api/component/createAccessControlledDoorSeekpoints', {
        doorUuid: stair,
        seekPoints: [
          { name: 'Drill', timestampMs: T + 100 },
          { name: 'Drill end', timestampMs: T + 200, displayOverlay: true },
        ],
      }),
    );
    assert.deepEqual(
      changes.filter((c) => c.entity === 'CUSTOM_SEEKPOINT').map((c) => [c.type, (c.update as any).accessControlledDoorUuid, (c.update as any).name]),
      [
        ['CREATE', stair, 'Drill'],
        ['CREATE', stair, 'Drill end'],
      ],
    );
    assert.deepEqual(pairs(await seekpoints('AccessControlledDoor', { accessControlledDoorUuid: stair })), [
      [100, 'CUSTOM'],
      [200, 'CUSTOM'],
    ]);
    const mark = [{ name: 'X', timestampMs: T + 300 }];
    const theirs = await refused(t.server, t.other.apiKey, '/api/component/createAccessControlledDoorSeekpoints', { doorUuid: stair, seekPoints: mark });
    assert.equal(
      theirs,
      await refused(t.server, t.other.apiKey, '/api/component/createAccessControlledDoorSeekpoints', { doorUuid: FOREIGN, seekPoints: mark }),
    );
    assert.equal(theirs, 'Door not found');
    assert.equal((await seekpoints('AccessControlledDoor', { accessControlledDoorUuid: stair })).length, 2, 'nothing added');
  });

  it("answers another organization's doors, locations, controllers, users and doorbells exactly as unknown ones", async () => {
    const other = t.otherSite;
    const cases: Array<[string, string, string, string]> = [
      ['findComponentSeekPointsByAccessControlledDoor', 'accessControlledDoorUuid', other.doors['Front Door'], 'Door not found'],
      ['findComponentSeekPointsByComponent', 'componentUuid', other.doors['Front Door'], 'Component not found'],
      ['findComponentSeekPointsByLocation', 'locationUuid', other.locations.HQ, 'Location not found'],
      ['findComponentSeekPointsByOwnerDevice', 'ownerDeviceUuid', other.doorControllers['Front Door Controller'], 'Device not found'],
      ['findComponentSeekPointsByUser', 'userUuid', other.users.Ada, 'User not found'],
      ['findComponentEventsByComponent', 'componentUuid', other.doors['Front Door'], 'Component not found'],
      ['findComponentEventsForVideoIntercom', 'videoIntercomUuid', theirBell, 'Video intercom not found'],
    ];
    for (const [operation, field, foreign, message] of cases) {
      const path = `/api/component/${operation}`;
      assert.equal(await refused(t.server, t.org.apiKey, path, { [field]: foreign, ...span }), message, operation);
      assert.equal(await refused(t.server, t.org.apiKey, path, { [field]: FOREIGN, ...span }), message, operation);
    }
    const bell = '/api/doorbellcamera/findComponentSeekPointsForDoorbellCamera';
    assert.equal(await refused(t.server, t.org.apiKey, bell, { doorbellCameraUuid: theirBell, ...span }), 'Doorbell camera not found');
    assert.equal(await refused(t.server, t.org.apiKey, bell, { doorbellCameraUuid: FOREIGN, ...span }), 'Doorbell camera not found');
    const doors = '/api/component/findComponentSeekPointsByAccessControlledDoors';
    assert.equal(
      await refused(t.server, t.org.apiKey, doors, { accessControlledDoorUuidList: [t.site.doors['Front Door'], other.doors['Front Door']], ...span }),
      'Door not found',
    );
    assert.equal(
      await refused(t.server, t.org.apiKey, doors, { accessControlledDoorUuidList: [t.site.doors['Front Door'], FOREIGN], ...span }),
      'Door not found',
    );
    // Their own door shows their (unknown card's) badge-in only.
    assert.deepEqual(pairs(await seekpoints('AccessControlledDoor', { accessControlledDoorUuid: other.doors['Front Door'] }, t.other.apiKey)), [
      [1000, 'AC_BADGE_UNAUTHORIZED'],
    ]);
    assert.equal(
      await refused(t.server, t.org.apiKey, '/api/component/findComponentSeekPointsByAccessControlledDoor', {
        accessControlledDoorUuid: t.site.doors['Front Door'],
      }),
      'startTimeSecEpochExclusive is required',
    );
  });
});
