import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ChangeEvent } from '../../../src/store/change-event.js';
import { findRules, RULE_FINDERS } from '../../../src/domains/access/grants/finders.js';
import { findDoor } from '../../../src/domains/access/service.js';
import { findDevice, findDiscovery, findLocation, listDevices, monitoringPinMatches } from '../../../src/domains/devices/service.js';
import { findPerson } from '../../../src/domains/faces/service.js';
import { findShipment } from '../../../src/domains/internal/service.js';
import { findUser } from '../../../src/domains/orgs/service.js';
import { findSchedule } from '../../../src/domains/schedules/service.js';
import { timesOf } from '../../../src/domains/schedules/strategies.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { siteRowCounts } from './site-rows.js';

const SITE_YAML = `
locations:
  - {name: HQ, timeZone: America/New_York, monitoringPin: "2468", city: Springfield}
  - {name: Annex}
users: [{name: Ada Admin, email: ada@example.com}, {name: Bob}]
people: [{name: Grace Hopper}]
schedules: [{name: Business Hours, intervals: [{start: 3360, stop: 3960}, {start: 1920, stop: 2460}]}]
cameras: [{name: Lobby, location: HQ, macAddress: "00-1A-2B-3C-4D-5E", serialNumber: SN1}, {name: Hall, location: Annex}]
sensors:
  - {name: Front Button, kind: button, location: HQ}
  - {name: Air, kind: environmental, location: HQ, thresholds: {co2Ppm: 1500, tempC: 30}}
doorControllers: [{name: Panel A, location: HQ}]
doors:
  - {name: Front Door, location: HQ, lock: true, schedule: Business Hours, cameras: [Lobby, Hall], access: [Ada Admin], controller: Panel A}
  - {name: Side Door, location: Annex, lock: false, unlockDurationMs: 8000}
audioGateways: [{name: PA, location: HQ}]
elevatorLandings: [{name: Floor 2, location: HQ, floor: 2}]
relays: [{name: Relay 1, location: Annex}]
thirdPartyCameraDiscoveries: [{macAddress: "0011.2233.4455", assignments: 2}]
shipments: [{crmOppId: OPP-1, email: buyer@example.com, trackingIdentifier: "1Z999", items: [{name: Dome, quantity: 2}]}]
`;

forEachDialect('POST /_gatehouse/orgs/{org}/seed', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Site Org');
    other = await server.createOrg('Other Org');
  });
  after(() => server.close());

  it('creates every kind from YAML, answers the UUIDs by name, and announces each record on the bus', async () => {
    const events: ChangeEvent[] = [];
    const unsubscribe = server.gatehouse.deps.bus.subscribe('change', (e) => events.push(e));
    const r = await control(server, `/orgs/${org.orgUuid}/seed`, SITE_YAML, { contentType: 'application/yaml' });
    unsubscribe();
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.error, false, r.json.errorMsg);
    const created = r.json;
    assert.deepEqual(Object.keys(created.doorControllers).sort(), ['Panel A', 'Side Door Controller']);
    assert.deepEqual(created.thirdPartyCameraDiscoveries, { '00:11:22:33:44:55': '00:11:22:33:44:55' });
    assert.deepEqual(Object.keys(created.shipments), ['OPP-1']);
    const deps = server.gatehouse.deps;
    const id = org.orgUuid;

    const hq = await findLocation(deps, id, created.locations.HQ);
    assert.equal(hq?.tz, 'America/New_York');
    assert.equal(hq?.city, 'Springfield');
    assert.equal((await findLocation(deps, id, created.locations.Annex))?.tz, 'UTC');
    assert.equal(await monitoringPinMatches(deps, id, created.locations.HQ, '2468'), true);
    assert.equal(await monitoringPinMatches(deps, id, created.locations.HQ, '1111'), false);

    const lobby = await findDevice(deps, id, created.cameras.Lobby, ['CAMERA']);
    assert.equal(lobby?.deviceType, 'CAMERA');
    assert.equal(lobby?.locationUuid, created.locations.HQ);
    assert.equal(lobby?.macAddress, '00:1a:2b:3c:4d:5e');
    assert.equal(lobby?.serialNumber, 'SN1');
    assert.equal(lobby?.connectionStatus, 'GREEN');
    assert.equal(await findDevice(deps, id, created.cameras.Lobby, ['BUTTON']), null, 'a camera is not a button');
    assert.equal((await findDevice(deps, id, created.sensors['Front Button']))?.deviceType, 'BUTTON');
    const air = await findDevice(deps, id, created.sensors.Air);
    assert.equal(air?.deviceType, 'ENVIRONMENTAL_SENSOR');
    assert.deepEqual(air?.attributes, { thresholds: { co2Ppm: 1500, tempC: 30 } });
    assert.deepEqual((await findDevice(deps, id, created.elevatorLandings['Floor 2']))?.attributes, { floor: 2 });
    assert.equal((await findDevice(deps, id, created.audioGateways.PA))?.deviceType, 'AUDIO_GATEWAY');
    assert.equal((await findDevice(deps, id, created.relays['Relay 1']))?.deviceType, 'RELAY');
    assert.equal((await listDevices(deps, id, ['DOOR_CONTROLLER'])).length, 2);

    const schedule = await findSchedule(deps, id, created.schedules['Business Hours']);
    assert.deepEqual(timesOf(schedule!), {
      strategy: 'WEEKLY_REPEATING_MINUTES',
      intervalList: [
        { minuteOfWeekStart: 1920, minuteOfWeekStop: 2460 },
        { minuteOfWeekStart: 3360, minuteOfWeekStop: 3960 },
      ],
    });
    assert.equal(schedule?.strategy, 'WEEKLY_REPEATING_MINUTES');
    assert.equal(schedule?.mutable, true);

    const front = await findDoor(deps, id, created.doors['Front Door']);
    assert.equal(front?.hasLock, true);
    assert.equal(front?.scheduleUuid, created.schedules['Business Hours']);
    assert.equal(front?.controllerUuid, created.doorControllers['Panel A']);
    assert.deepEqual(front?.cameraUuids, [created.cameras.Lobby, created.cameras.Hall].sort());
    assert.equal(front?.unlockDurationMs, 5000);
    const byDoor = RULE_FINDERS.find((f) => f.by === 'AccessControlledDoor')!;
    const grants = await findRules(deps, { orgUuid: id }, 'GRANT', byDoor, { accessControlledDoorUuid: created.doors['Front Door'] });
    assert.deepEqual(
      grants.map((g) => [g.uuid, g.name, g.userUuids, g.accessControlledDoorUuids, g.scheduleUuid]),
      [[created.accessGrants['Front Door access'], 'Front Door access', [created.users['Ada Admin']], [created.doors['Front Door']], null]],
      "the door's access list is a grant naming the door",
    );
    const side = await findDoor(deps, id, created.doors['Side Door']);
    assert.equal(side?.controllerUuid, created.doorControllers['Side Door Controller']);
    assert.equal(side?.hasLock, false);
    assert.equal(side?.unlockDurationMs, 8000);
    assert.equal(side?.position, 'CLOSED');

    assert.equal((await findUser(deps, id, created.users['Ada Admin']))?.email, 'ada@example.com');
    assert.equal((await findPerson(deps, id, created.people['Grace Hopper']))?.name, 'Grace Hopper');
    assert.equal((await findDiscovery(deps, id, '00:11:22:33:44:55'))?.assignments, 2);
    assert.deepEqual((await findShipment(deps, id, 'OPP-1'))?.items, [{ name: 'Dome', quantity: 2 }]);

    const uuids = Object.values(created)
      .filter((v): v is Record<string, string> => typeof v === 'object' && v !== null)
      .flatMap((byName) => Object.values(byName));
    assert.equal(events.length, uuids.length, 'one change event per created record');
    assert.ok(events.every((e) => e.orgUuid === id && e.type === 'CREATE'));
    assert.deepEqual(new Set(events.map((e) => e.entityUuid)), new Set(uuids));
    const byEntity = new Map(events.map((e) => [e.entityUuid, e]));
    assert.equal(byEntity.get(created.cameras.Lobby)?.entity, 'CAMERA');
    assert.equal(byEntity.get(created.cameras.Lobby)?.deviceUuid, created.cameras.Lobby);
    assert.equal(byEntity.get(created.doors['Front Door'])?.entity, 'DOOR');
    assert.equal(byEntity.get(created.schedules['Business Hours'])?.entity, 'SCHEDULE');
    assert.equal(byEntity.get(created.locations.HQ)?.entity, 'LOCATION');
    assert.equal((byEntity.get(created.doors['Front Door'])?.update as { name: string }).name, 'Front Door');
  });

  it('seeds the same file again without making anything twice: the same UUIDs, no new row, no change', async () => {
    const twice = await server.createOrg('Seeded Twice');
    const seed = () => control(server, `/orgs/${twice.orgUuid}/seed`, SITE_YAML, { contentType: 'application/yaml' });
    const first = await seed();
    assert.equal(first.json.error, false, first.text);
    const before = await siteRowCounts(server);
    const events: ChangeEvent[] = [];
    const unsubscribe = server.gatehouse.deps.bus.subscribe('change', (e) => events.push(e));
    const again = await seed();
    unsubscribe();
    assert.equal(again.json.error, false, again.text);
    assert.deepEqual(again.json, first.json);
    assert.deepEqual(
      events.map((e) => [e.entity, e.type, e.update]),
      [],
    );
    assert.deepEqual(await siteRowCounts(server), before);
  });

  it('updates entries by name when a changed file is seeded again, announcing each change', async () => {
    const changing = await server.createOrg('Seeded Changed');
    const seed = (yaml: string) => control(server, `/orgs/${changing.orgUuid}/seed`, yaml, { contentType: 'application/yaml' });
    const first = (await seed(SITE_YAML)).json;
    const changed = SITE_YAML.replace('timeZone: America/New_York', 'timeZone: Europe/Paris')
      .replace('{name: Lobby, location: HQ, macAddress: "00-1A-2B-3C-4D-5E", serialNumber: SN1}', '{name: Lobby, location: Annex, serialNumber: SN2}')
      .replace('{start: 3360, stop: 3960}', '{start: 3300, stop: 3960}')
      .replace('{name: Ada Admin, email: ada@example.com}', '{name: Ada Admin, email: ada@example.org}')
      .replace('thresholds: {co2Ppm: 1500, tempC: 30}', 'thresholds: {co2Ppm: 1200, tempC: 30}');
    assert.notEqual(changed, SITE_YAML);
    const before = await siteRowCounts(server);
    const events: ChangeEvent[] = [];
    const unsubscribe = server.gatehouse.deps.bus.subscribe('change', (e) => events.push(e));
    const r = await seed(changed);
    unsubscribe();
    assert.equal(r.json.error, false, r.text);
    assert.deepEqual(r.json, first, 'the same entries, by the same UUIDs');
    const deps = server.gatehouse.deps;
    const id = changing.orgUuid;
    assert.equal((await findLocation(deps, id, first.locations.HQ))?.tz, 'Europe/Paris');
    const lobby = await findDevice(deps, id, first.cameras.Lobby);
    assert.deepEqual([lobby?.locationUuid, lobby?.serialNumber, lobby?.macAddress], [first.locations.Annex, 'SN2', '00:1a:2b:3c:4d:5e']);
    assert.deepEqual((await findDevice(deps, id, first.sensors.Air))?.attributes, { thresholds: { co2Ppm: 1200, tempC: 30 } });
    assert.deepEqual(timesOf((await findSchedule(deps, id, first.schedules['Business Hours']))!), {
      strategy: 'WEEKLY_REPEATING_MINUTES',
      intervalList: [
        { minuteOfWeekStart: 1920, minuteOfWeekStop: 2460 },
        { minuteOfWeekStart: 3300, minuteOfWeekStop: 3960 },
      ],
    });
    assert.equal((await findUser(deps, id, first.users['Ada Admin']))?.email, 'ada@example.org');
    assert.deepEqual(
      events.map((e) => [e.entity, e.entityUuid, e.type]).sort(),
      [
        ['CAMERA', first.cameras.Lobby, 'UPDATE'],
        ['ENVIRONMENTAL_SENSOR', first.sensors.Air, 'UPDATE'],
        ['LOCATION', first.locations.HQ, 'UPDATE'],
        ['SCHEDULE', first.schedules['Business Hours'], 'UPDATE'],
        ['USER', first.users['Ada Admin'], 'UPDATE'],
      ].sort(),
    );
    const after = await siteRowCounts(server);
    for (const table of ['locations', 'devices', 'schedules', 'doors', 'users', 'people', 'access_rules'] as const)
      assert.equal(after[table], before[table], table);
  });

  it('accepts the same kind of file as JSON', async () => {
    const site = { locations: [{ name: 'Depot', timeZone: 'Europe/Paris' }], cameras: [{ name: 'Gate', location: 'Depot' }] };
    const r = await control(server, `/orgs/${org.orgUuid}/seed`, site);
    assert.equal(r.json.error, false, r.json.errorMsg);
    const gate = await findDevice(server.gatehouse.deps, org.orgUuid, r.json.cameras.Gate);
    assert.equal(gate?.locationUuid, r.json.locations.Depot);
  });

  it("keeps an organization's records from every other organization", async () => {
    const r = await control(server, `/orgs/${other.orgUuid}/seed`, { locations: [{ name: 'Theirs' }], cameras: [{ name: 'Cam', location: 'Theirs' }] });
    const deps = server.gatehouse.deps;
    assert.equal(await findDevice(deps, org.orgUuid, r.json.cameras.Cam), null);
    assert.equal(await findLocation(deps, org.orgUuid, r.json.locations.Theirs), null);
    assert.equal(await monitoringPinMatches(deps, org.orgUuid, r.json.locations.Theirs, '2468'), null);
    assert.notEqual(await findDevice(deps, other.orgUuid, r.json.cameras.Cam), null);
  });

  const refused: Array<[string, unknown, string]> = [
    [
      'an unknown reference',
      {
        locations: [{ name: 'HQ' }],
        doors: [
          { name: 'Front', location: 'HQ' },
          { name: 'Back Door', location: 'HQ', schedule: 'Nights' },
        ],
      },
      'doors[1].schedule (Back Door): no schedule named "Nights"',
    ],
    [
      'an unknown camera of a door',
      { locations: [{ name: 'HQ' }], doors: [{ name: 'D', location: 'HQ', cameras: ['Ghost'] }] },
      'doors[0].cameras[0] (D): no camera named "Ghost"',
    ],
    [
      'an unknown user in door access',
      { locations: [{ name: 'HQ' }], doors: [{ name: 'D', location: 'HQ', access: ['Nobody'] }] },
      'doors[0].access[0] (D): no user named "Nobody"',
    ],
    [
      'a duplicate name',
      {
        locations: [{ name: 'HQ' }],
        cameras: [
          { name: 'A', location: 'HQ' },
          { name: 'A', location: 'HQ' },
        ],
      },
      'cameras[1] (A): duplicate name "A"',
    ],
    ['a bad time zone', { locations: [{ name: 'HQ', timeZone: 'Mars/Olympus' }] }, 'locations[0].timeZone (HQ): "Mars/Olympus" is not a known IANA time zone'],
    ['a bad monitoring pin', { locations: [{ name: 'HQ', monitoringPin: '12' }] }, 'locations[0].monitoringPin (HQ): must be 4 to 8 digits'],
    ['a bad interval', { schedules: [{ name: 'S', intervals: [{ start: 100, stop: 50 }] }] }, 'schedules[0].intervals[0] (S): start must be < stop'],
    [
      'overlapping intervals',
      {
        schedules: [
          {
            name: 'S',
            intervals: [
              { start: 0, stop: 100 },
              { start: 50, stop: 200 },
            ],
          },
        ],
      },
      'schedules[0].intervals[1] (S): overlaps intervals[0]',
    ],
    [
      'an interval past the week',
      { schedules: [{ name: 'S', intervals: [{ start: 0, stop: 10081 }] }] },
      'schedules[0].intervals[0] (S): start and stop must be within 0..10080',
    ],
    [
      'a bad MAC address',
      { thirdPartyCameraDiscoveries: [{ macAddress: '00:11:22:33:44' }] },
      'thirdPartyCameraDiscoveries[0].macAddress (00:11:22:33:44): "00:11:22:33:44" is not a MAC address',
    ],
    [
      'a bad device MAC address',
      { locations: [{ name: 'HQ' }], cameras: [{ name: 'C', location: 'HQ', macAddress: 'zz' }] },
      'cameras[0].macAddress (C): "zz" is not a MAC address',
    ],
    ['a field of the wrong type', { locations: [{ name: 'HQ' }], doors: [{ name: 'D', location: 'HQ', lock: 'yes' }] }, 'doors[0].lock (D): must be boolean'],
    ['an unknown field', { locations: [{ name: 'HQ', colour: 'red' }] }, 'locations[0].colour (HQ): unknown field'],
    ['an unknown kind', { gates: [] }, 'gates: unknown field'],
    ['a missing field', { elevatorLandings: [{ name: 'L', location: 'HQ' }], locations: [{ name: 'HQ' }] }, 'elevatorLandings[0].floor (L): is required'],
    [
      'a bad enumeration value',
      { locations: [{ name: 'HQ' }], sensors: [{ name: 'S', kind: 'lamp', location: 'HQ' }] },
      'sensors[0].kind (S): must be one of button, environmental, climate, environmentalGateway, door, occupancy, tag, badgeReader, keypad, doorbell',
    ],
    [
      'thresholds on a button',
      { locations: [{ name: 'HQ' }], sensors: [{ name: 'B', kind: 'button', location: 'HQ', thresholds: { tempC: 3 } }] },
      'sensors[0].thresholds (B): only environmental sensors have thresholds',
    ],
    ['a bad e-mail address', { users: [{ name: 'U', email: 'not-an-address' }] }, 'users[0].email (U): "not-an-address" is not an e-mail address'],
    [
      "another user's e-mail address",
      { users: [{ name: 'Someone Else', email: 'ADA@example.com' }] },
      'users[0] (Someone Else).email: a user of the organization already has "ADA@example.com"',
    ],
    ['a file that is not a mapping', [1, 2], 'site file: must be a mapping of kinds'],
  ];
  for (const [what, site, message] of refused) {
    it(`refuses ${what}, naming the entry and field, and changes nothing`, async () => {
      const before = await siteRowCounts(server);
      const r = await control(server, `/orgs/${org.orgUuid}/seed`, site);
      assert.equal(r.status, 200);
      assert.equal(r.json.error, true);
      assert.ok(r.json.errorMsg.includes(message), `${r.json.errorMsg}\n  should include\n${message}`);
      assert.deepEqual(await siteRowCounts(server), before);
    });
  }

  it('reports every problem of a file at once', async () => {
    const r = await control(server, `/orgs/${org.orgUuid}/seed`, {
      locations: [{ name: 'HQ', timeZone: 'Nowhere' }],
      cameras: [{ name: 'C', location: 'Elsewhere' }],
    });
    assert.match(r.json.errorMsg, /locations\[0\]\.timeZone \(HQ\): .*; cameras\[0\]\.location \(C\): no location named "Elsewhere"/);
  });

  it('reports type and reference problems together, each once, by path, without doubling a prefix', async () => {
    const before = await siteRowCounts(server);
    const r = await control(server, `/orgs/${org.orgUuid}/seed`, {
      locations: [{ name: 'HQ' }],
      schedules: [
        {
          name: 'S',
          intervals: [
            { start: 0, stop: 100 },
            { start: 50, stop: 200 },
          ],
        },
      ],
      doors: [
        { name: 'A', location: 'HQ' },
        { name: 'B', location: 'Nowhere' },
        { name: 'C', location: 'HQ', lock: 'maybe' },
        { name: 'D', location: 'HQ', lock: 3, schedule: 'Nights' },
      ],
    });
    assert.equal(r.json.error, true);
    assert.deepEqual(
      r.json.errorMsg
        .replace(/^site file: /, '')
        .split('; ')
        .sort(),
      [
        'doors[1].location (B): no location named "Nowhere"',
        'doors[2].lock (C): must be boolean',
        'doors[3].lock (D): must be boolean',
        'doors[3].schedule (D): no schedule named "Nights"',
        'schedules[0].intervals[1] (S): overlaps intervals[0]',
      ],
    );
    assert.deepEqual(await siteRowCounts(server), before);
  });

  it('refuses YAML that does not parse, and changes nothing', async () => {
    const before = await siteRowCounts(server);
    const r = await control(server, `/orgs/${org.orgUuid}/seed`, 'locations: [{name: HQ', { contentType: 'application/yaml' });
    assert.equal(r.json.error, true);
    assert.match(r.json.errorMsg, /^site file is not valid YAML/);
    assert.deepEqual(await siteRowCounts(server), before);
  });

  it('refuses a YAML file with a duplicate key', async () => {
    const r = await control(server, `/orgs/${org.orgUuid}/seed`, 'locations: []\nlocations: []\n', { contentType: 'application/yaml' });
    assert.equal(r.json.error, true);
    assert.match(r.json.errorMsg, /not valid YAML/);
  });

  it('answers an organization that does not exist as not found', async () => {
    const r = await control(server, '/orgs/AAAAAAAAAAAAAAAAAAAAAA/seed', { locations: [{ name: 'HQ' }] });
    assert.deepEqual([r.status, r.json.error, r.json.errorMsg], [200, true, 'Organization not found']);
  });

  it('answers 400 for an organization id that is not a RUUID', async () => {
    const r = await control(server, '/orgs/not-an-id/seed', {});
    assert.equal(r.status, 400);
  });
});
