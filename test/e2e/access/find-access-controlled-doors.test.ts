import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { seedAccessSite, type AccessSite } from './fixtures.js';

const PATH = '/api/component/findAccessControlledDoors';

forEachDialect(`POST ${PATH}`, (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: AccessSite;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Doors Org');
    other = await server.createOrg('Other Org');
    site = await seedAccessSite(server, org.orgUuid);
    await seedAccessSite(server, other.orgUuid);
  });
  after(() => server.close());

  it('requires authentication', async () => {
    assert.equal((await server.call(PATH, {}, { key: '' })).status, 401);
  });

  it("lists the organization's doors by name with their lock, schedule, controller, location and state", async () => {
    const r = await server.call(PATH, {}, { key: org.apiKey });
    assert.equal(r.json.error, false);
    assert.equal(r.json.lastEvaluatedKey, null);
    const doors = r.json.accessControlledDoors;
    assert.deepEqual(
      doors.map((d: any) => d.name),
      ['Back Door', 'Front Door', 'Side Door', 'Vault Door'],
    );
    const front = doors[1];
    assert.deepEqual(
      {
        uuid: front.uuid,
        orgUuid: front.orgUuid,
        locationUuid: front.locationUuid,
        scheduleUuid: front.scheduleUuid,
        type: front.type,
        ownerDeviceUuid: front.ownerDeviceUuid,
        associatedCameras: front.associatedCameras,
        unlockTimeSec: front.unlockTimeSec,
        defaultState: front.defaultState,
        position: front.position,
        lockState: front.lockState,
        relockAtMillis: front.relockAtMillis,
        controllerOnline: front.controllerOnline,
      },
      {
        uuid: site.doors['Front Door'],
        orgUuid: org.orgUuid,
        locationUuid: site.locations.HQ,
        scheduleUuid: site.schedules['Business Hours'],
        type: 'AccessControlledDoor',
        ownerDeviceUuid: site.doorControllers['Front Door Controller'],
        associatedCameras: [],
        unlockTimeSec: 1,
        defaultState: 'ACCESS_CONTROLLED',
        position: 'CLOSED',
        lockState: 'LOCKED',
        relockAtMillis: null,
        controllerOnline: true,
      },
    );
    assert.equal(doors[2].defaultState, 'UNLOCKED', 'a door without a lock stands unlocked');
    for (const drifted of ['controllerUuid', 'cameraUuids', 'unlockDurationMs', 'hasLock']) assert.equal(drifted in front, false, drifted);
  });

  it("names the door's cameras as facet ids under the catalogue's associatedCameras, and its unlock time in seconds", async () => {
    const third = await server.createOrg('Camera Doors Org');
    const seeded = await control(server, `/orgs/${third.orgUuid}/seed`, {
      locations: [{ name: 'HQ' }],
      cameras: [
        { name: 'Lobby', location: 'HQ' },
        { name: 'Hall', location: 'HQ' },
      ],
      doors: [{ name: 'Front', location: 'HQ', cameras: ['Lobby', 'Hall'], unlockDurationMs: 8000 }],
    });
    assert.equal(seeded.json.error, false, seeded.text);
    const [door] = (await server.call(PATH, {}, { key: third.apiKey })).json.accessControlledDoors;
    assert.deepEqual(
      door.associatedCameras,
      [seeded.json.cameras.Lobby, seeded.json.cameras.Hall].sort().map((c: string) => `${c}.v0`),
    );
    assert.equal(door.unlockTimeSec, 8);
    assert.equal(door.ownerDeviceUuid, seeded.json.doorControllers['Front Controller']);
  });

  it('pages with maxPageSize and lastEvaluatedKey, without skipping or repeating a door', async () => {
    const names: string[] = [];
    let lastEvaluatedKey: string | null = null;
    for (let page = 0; page < 5; page++) {
      const r: any = await server.call(PATH, { maxPageSize: 2, lastEvaluatedKey }, { key: org.apiKey });
      names.push(...r.json.accessControlledDoors.map((d: any) => d.name));
      assert.ok(r.json.accessControlledDoors.length <= 2);
      lastEvaluatedKey = r.json.lastEvaluatedKey;
      if (!lastEvaluatedKey) break;
    }
    assert.deepEqual(names, ['Back Door', 'Front Door', 'Side Door', 'Vault Door']);
  });

  it('refuses a lastEvaluatedKey it did not make', async () => {
    const r = await server.call(PATH, { lastEvaluatedKey: 'not-a-key' }, { key: org.apiKey });
    assert.deepEqual({ error: r.json.error, errorMsg: r.json.errorMsg }, { error: true, errorMsg: 'lastEvaluatedKey: not a key this operation returned' });
  });

  it("never answers another organization's doors", async () => {
    const r = await server.call(PATH, {}, { key: other.apiKey });
    assert.equal(r.json.accessControlledDoors.length, 4);
    assert.ok(r.json.accessControlledDoors.every((d: any) => d.orgUuid === other.orgUuid));
  });

  it('answers 400 to a malformed body', async () => {
    assert.equal((await server.call(PATH, { maxPageSize: 0 }, { key: org.apiKey })).status, 400);
    assert.equal((await server.call(PATH, { maxPageSize: 'ten' }, { key: org.apiKey })).status, 400);
  });
});
