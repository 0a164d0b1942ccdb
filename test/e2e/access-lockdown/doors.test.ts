import assert from 'node:assert/strict';
import { it } from 'node:test';
import { facetId } from '../../../src/ids.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { control } from '../control/admin.js';
import { recordChanges, FOREIGN, ok, refused, type LockdownSite, lockdownSuite } from './fixtures.js';

const base = '/api/component';
const EXTRA = `
cameras: [{name: Lobby Camera, location: HQ}]
doorControllers: [{name: Spare Controller, location: HQ}]
`;

forEachDialect('/api/component: doors as the catalogue manages them', (dialect) => {
  const t = lockdownSuite<LockdownSite & { cameras: Record<string, string> }>(dialect, EXTRA);
  const call = (path: string, body: unknown = {}) => ok(t.server, t.org.apiKey, `${base}/${path}`, body);
  const fails = (path: string, body: unknown = {}) => refused(t.server, t.org.apiKey, `${base}/${path}`, body);

  it('creates a door (announced), which a default state of UNLOCKED opens at once, and reads it back by location and controller', async () => {
    const controller = t.site.doorControllers['Spare Controller'];
    const { result, changes } = await recordChanges(t.server, () =>
      call('createAccessControlledDoor', {
        accessControlledDoor: {
          name: 'Side Gate',
          locationUuid: t.site.locations.HQ,
          ownerDeviceUuid: controller,
          associatedCameras: [facetId(t.site.cameras['Lobby Camera'])],
          unlockTimeSec: 7,
          defaultState: 'UNLOCKED',
          doorStateToScheduleUuidMap: { ACCESS_CONTROLLED: t.site.schedules['Business Hours'] },
        },
      }),
    );
    const door = result.accessControlledDoor;
    assert.deepEqual(
      [door.name, door.ownerDeviceUuid, door.associatedCameras, door.unlockTimeSec, door.defaultState, door.doorStateToScheduleUuidMap],
      ['Side Gate', controller, [facetId(t.site.cameras['Lobby Camera'])], 7, 'UNLOCKED', { ACCESS_CONTROLLED: t.site.schedules['Business Hours'] }],
    );
    assert.ok(changes.some((c) => c.entity === 'DOOR' && c.type === 'CREATE' && c.entityUuid === door.uuid));
    const byController = (await call('findAccessControlledDoorsByOwnerDevice', { ownerDeviceUuid: controller })).accessControlledDoors;
    assert.deepEqual(
      byController.map((d: any) => d.uuid),
      [door.uuid],
    );
    const page = await call('findAccessControlledDoorsByLocation', { locationUuid: t.site.locations.HQ, maxPageSize: 2 });
    const rest = await call('findAccessControlledDoorsByLocation', {
      locationUuid: t.site.locations.HQ,
      maxPageSize: 10,
      lastEvaluatedKey: page.lastEvaluatedKey,
    });
    assert.deepEqual(
      [...page.accessControlledDoors, ...rest.accessControlledDoors].map((d: any) => d.name),
      ['Front Door', 'Lobby Door', 'Side Gate', 'Stair Door', 'Vault Door'],
    );
    assert.equal(rest.lastEvaluatedKey ?? null, null);
  });

  it('answers shadows and minimal states: each door with its access state and what decided it', async () => {
    const shadows = (await call('findAccessControlledDoorShadowsByLocation', { locationUuid: t.site.locations.HQ })).shadows;
    const gate = (await call('findAccessControlledDoorsByLocation', { locationUuid: t.site.locations.HQ })).accessControlledDoors.find(
      (d: any) => d.name === 'Side Gate',
    );
    const shadow = shadows.find((s: any) => s.componentCompositeUuid === gate.uuid);
    assert.equal(shadow.type, 'AccessControlledDoorShadow');
    assert.ok(['SCHEDULE', 'DEFAULT_STATE'].includes(shadow.state.source));
    assert.equal(gate.lockState, shadow.state.state === 'UNLOCKED' ? 'UNLOCKED' : 'LOCKED', 'the relay follows the state');
    const minimal = (await call('findMinimalStateAccessControlledDoors', { maxPageSize: 1000 })).accessControlledDoors;
    assert.equal(minimal.length, 6);
    assert.deepEqual(minimal.find((m: any) => m.door.uuid === gate.uuid).shadow, shadow);
    assert.equal((await call('findMinimalStateAccessControlledDoorsByLocation', { locationUuid: t.site.locations.Annex })).accessControlledDoors.length, 1);
    assert.equal((await call('findAccessControlledDoorShadows')).shadows.length, 6);
  });

  it('updates the fields given (announced) and deletes a door with its events', async () => {
    const door = t.site.doors['Stair Door'];
    const { result, changes } = await recordChanges(t.server, () =>
      call('updateAccessControlledDoor', { accessControlledDoorUuid: door, name: 'Stairs', unlockTimeSec: 12, associatedCameras: [] }),
    );
    assert.deepEqual(
      [result.accessControlledDoor.name, result.accessControlledDoor.unlockTimeSec, result.accessControlledDoor.associatedCameras],
      ['Stairs', 12, []],
    );
    assert.ok(changes.some((c) => c.entity === 'DOOR' && c.type === 'UPDATE' && (c.update as any).name === 'Stairs'));
    await control(t.server, '/simulate/door', { door, position: 'OPEN' });
    const deleted = await recordChanges(t.server, () => call('deleteAccessControlledDoor', { accessControlledDoorUuid: door }));
    assert.equal(deleted.result.accessControlledDoor.name, 'Stairs');
    assert.ok(deleted.changes.some((c) => c.entity === 'DOOR' && c.type === 'DELETE'));
    assert.equal(await fails('findComponentEventsByAccessControlledDoor', { accessControlledDoorUuid: door }), 'Door not found');
  });

  it('adds and removes labels (announced once per change), and lists them for the organization', async () => {
    const door = t.site.doors['Front Door'];
    const { changes } = await recordChanges(t.server, async () => {
      await call('addAccessControlledDoorLabel', { accessControlledDoorUuid: door, label: 'Entrance' });
      await call('addAccessControlledDoorLabel', { accessControlledDoorUuid: door, label: 'Entrance' });
      await call('addAccessControlledDoorLabel', { accessControlledDoorUuid: door, label: 'Ground' });
      await call('addAccessControlledDoorLabel', { accessControlledDoorUuid: t.site.doors['Vault Door'], label: 'Secure' });
    });
    assert.equal(changes.filter((c) => c.entity === 'DOOR_LABELS').length, 3, 'adding a label the door has changes nothing');
    assert.deepEqual((await call('getAccessControlledDoorLabelsForOrg')).accessControlledDoorLabels, {
      [door]: ['Entrance', 'Ground'],
      [t.site.doors['Vault Door']]: ['Secure'],
    });
    await call('removeAccessControlledDoorLabel', { accessControlledDoorUuid: door, label: 'Ground' });
    assert.deepEqual((await call('getAccessControlledDoorLabelsForOrg')).accessControlledDoorLabels[door], ['Entrance']);
    assert.deepEqual((await ok(t.server, t.other.apiKey, `${base}/getAccessControlledDoorLabelsForOrg`)).accessControlledDoorLabels, {});
  });

  it("refuses another organization's doors, locations, controllers, cameras and schedules as unknown, changing nothing", async () => {
    const create = (fields: object) =>
      fails('createAccessControlledDoor', { accessControlledDoor: { name: 'X', locationUuid: t.site.locations.HQ, ...fields } });
    assert.equal(
      await fails('createAccessControlledDoor', { accessControlledDoor: { name: 'X', locationUuid: t.otherSite.locations.HQ } }),
      'Location not found',
    );
    assert.equal(await create({ ownerDeviceUuid: t.otherSite.doorControllers['Front Door Controller'] }), 'Door controller not found');
    assert.match(await create({ associatedCameras: [`${FOREIGN}.v0`] }), /Camera .* not found/);
    assert.match(
      await create({ doorStateToScheduleUuidMap: { UNLOCKED: t.otherSite.schedules['Business Hours'] } }),
      /^accessControlledDoor\.doorStateToScheduleUuidMap\.UNLOCKED: Schedule .* not found$/,
    );
    const theirs = t.otherSite.doors['Front Door'];
    for (const path of ['updateAccessControlledDoor', 'deleteAccessControlledDoor'])
      assert.equal(await fails(path, { accessControlledDoorUuid: theirs }), 'Door not found');
    assert.equal(await fails('addAccessControlledDoorLabel', { accessControlledDoorUuid: theirs, label: 'Mine' }), 'Door not found');
    assert.equal(await fails('findAccessControlledDoorsByLocation', { locationUuid: t.otherSite.locations.HQ }), 'Location not found');
    assert.equal(await fails('findAccessControlledDoorsByOwnerDevice', { ownerDeviceUuid: FOREIGN }), 'Device not found');
    assert.equal((await ok(t.server, t.other.apiKey, `${base}/findAccessControlledDoors`, {})).accessControlledDoors.length, 5, 'theirs are untouched');
    assert.equal(
      (await t.server.call(`${base}/updateAccessControlledDoor`, { accessControlledDoorUuid: theirs, defaultState: 'OPEN' }, { key: t.org.apiKey })).status,
      400,
    );
  });
});
