import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import type { ChangeEvent } from '../../../src/store/change-event.js';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import type { TestOrg } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { doorEvents, simulate } from './fixtures.js';

const SITE = `
locations: [{name: HQ, timeZone: America/New_York}]
doorControllers: [{name: Panel, location: HQ}]
doors: [{name: Front Door, location: HQ, lock: true, unlockDurationMs: 60000, controller: Panel}]
elevatorLandings: [{name: Lobby Landing, location: HQ, floor: 1}]
`;

const port = (portNum: number, portType: string) => ({ boardNum: 0, portNum, portType });

/** One row per component type: what its create takes, the field its update changes, and what its type derives. */
const TYPES = [
  {
    type: 'IntegratedDoorPositionIndicator',
    create: 'createIntegratedDoorPositionIndicator',
    update: 'updateIntegratedDoorPositionIndicator',
    body: { normalState: 'NC', port: port(1, 'GPIO_INPUT') },
    change: { normalState: 'NO' },
    derived: { baseType: 'dpi', dpiType: 'integrated' },
  },
  {
    type: 'IntegratedDoorRelay',
    create: 'createIntegratedDoorRelay',
    update: 'updateIntegratedDoorRelay',
    body: { port: port(2, 'GPIO_OUTPUT') },
    change: { port: port(3, 'GPIO_OUTPUT') },
    derived: { baseType: 'relay', relayType: 'integrated' },
  },
  {
    type: 'IntegratedGenericButton',
    create: 'createIntegratedGenericButton',
    update: 'updateIntegratedGenericButton',
    body: { mode: 'PANIC', port: port(4, 'BUTTON_INPUT') },
    change: { mode: 'DOORBELL' },
    derived: { baseType: 'button', buttonType: 'integrated_generic_button' },
  },
  {
    type: 'IntegratedGenericInput',
    create: 'createIntegratedGenericInput',
    update: 'updateIntegratedGenericInput',
    body: { normalState: 'NO', port: port(5, 'GPIO_INPUT') },
    change: { normalState: 'NC' },
    derived: { baseType: 'aux', auxType: 'integrated_generic_input' },
  },
  {
    type: 'IntegratedGenericRelay',
    create: 'createIntegratedGenericRelay',
    update: 'updateIntegratedGenericRelay',
    body: { steadyState: 'INACTIVE', port: port(6, 'GPIO_OUTPUT') },
    change: { port: port(7, 'GPIO_OUTPUT') },
    derived: { baseType: 'aux', auxType: 'integrated_generic_relay' },
  },
  {
    type: 'IntegratedRequestToExit',
    create: 'createIntegratedRequestToExit',
    update: 'updateIntegratedRequestToExit',
    body: { normalState: 'NO', port: port(8, 'GPIO_INPUT_SUPERVISED') },
    change: { intentOnly: true },
    derived: { baseType: 'rex', rexType: 'integrated' },
  },
  {
    type: 'OsdpDoorReader',
    create: 'createOsdpDoorReader',
    update: 'updateOsdpDoorReader',
    body: { allowUnencrypted: true, port: port(9, 'RS485') },
    change: { disableKeypad: true },
    derived: { baseType: 'reader', readerType: 'osdp', osdpAddress: 0 },
  },
  {
    type: 'RhombusOsdpDoorReader',
    create: 'createRhombusOsdpDoorReader',
    update: 'updateRhombusOsdpDoorReader',
    body: { port: port(9, 'RS485') },
    change: { disableWaveToUnlock: true },
    derived: { baseType: 'reader', readerType: 'rhombus_osdp', osdpAddress: 1 },
  },
  {
    type: 'WiegandDoorReader',
    create: 'createWiegandReader',
    update: 'updateWiegandDoorReader',
    body: { d0Port: port(10, 'WIEGAND_INPUT'), d1Port: port(11, 'WIEGAND_INPUT'), csnEndian: 'LSB' },
    change: { csnEndian: 'MSB' },
    derived: { baseType: 'reader', readerType: 'wiegand' },
  },
];

forEachDialect('hardware components: create, update, shadows, port configuration, the simulator', (dialect) => {
  const server = useTestServer(dialect);
  let org: TestOrg;
  let other: TestOrg;
  let site: Record<string, Record<string, string>>;
  let controller: string;
  let theirController: string;
  const ours = apiAs(server, () => org.apiKey, '/api/component');
  const theirs = apiAs(server, () => other.apiKey, '/api/component');
  const made: Record<string, string> = {};

  const changesDuring = async (fn: () => Promise<unknown>) => {
    const changes: ChangeEvent[] = [];
    const stop = server().gatehouse.deps.bus.subscribe('change', (c) => changes.push(c));
    try {
      await fn();
    } finally {
      stop();
    }
    return changes;
  };

  before(async () => {
    org = await server().createOrg('Components Org');
    other = await server().createOrg('Other Components Org');
    const seeded = await control(server(), `/orgs/${org.orgUuid}/seed`, SITE, { contentType: 'application/yaml' });
    assert.equal(seeded.json.error, false, seeded.text);
    site = seeded.json;
    const theirSite = (await control(server(), `/orgs/${other.orgUuid}/seed`, SITE, { contentType: 'application/yaml' })).json;
    controller = site.doorControllers!.Panel!;
    theirController = theirSite.doorControllers.Panel;
  });

  it('creates and updates every type, reads them back, announces each, and keeps to the organization', async () => {
    const changes = await changesDuring(async () => {
      for (const row of TYPES) {
        const { component } = await ours.ok(row.create, { ownerDeviceUuid: controller, name: row.type, ...row.body });
        assert.deepEqual({ ...component, ...row.derived, ...row.body }, component, row.type);
        assert.equal(component.type, row.type);
        made[row.type] = component.uuid;
        const { component: updated } = await ours.ok(row.update, { componentUuid: component.uuid, name: `${row.type} 2`, ...row.change });
        assert.deepEqual([updated.name, { ...updated, ...row.change }], [`${row.type} 2`, updated], row.type);
      }
    });
    assert.equal(changes.filter((c) => c.entity === 'COMPONENT' && c.type === 'CREATE').length, TYPES.length);
    assert.equal(changes.filter((c) => c.entity === 'COMPONENT' && c.type === 'UPDATE').length, TYPES.length);
    const { components } = await ours.ok('findComponentsByOwnerDevice', { ownerDeviceUuid: controller });
    assert.deepEqual(
      components.map((c: any) => [c.type, c.name]),
      TYPES.map((r) => [r.type, `${r.type} 2`]),
    );
    // Another organization's device and components are unknown ones; a component of another type is not found.
    assert.equal(await theirs.refused('createIntegratedDoorRelay', { ownerDeviceUuid: controller, port: port(1, 'GPIO_OUTPUT') }), 'Owner device not found');
    assert.equal(await theirs.refused('updateIntegratedDoorRelay', { componentUuid: made.IntegratedDoorRelay, name: 'Mine' }), 'Component not found');
    assert.equal(await theirs.refused('deleteComponent', { componentUuid: made.IntegratedDoorRelay }), 'Component not found');
    assert.equal(await ours.refused('updateIntegratedDoorRelay', { componentUuid: made.IntegratedGenericRelay, name: 'X' }), 'Component not found');
    assert.deepEqual((await theirs.ok('findComponentsByOwnerDevice', { ownerDeviceUuid: theirController })).components, []);
    assert.deepEqual((await theirs.ok('findAllComponentShadows', { componentUuids: [made.IntegratedDoorRelay] })).acuComponentShadowMap, {});
    assert.equal((await ours.call('createIntegratedDoorRelay', { ownerDeviceUuid: controller, port: port(1, 'RS485') })).status, 400);
  });

  it('drives a generic relay: its steady state, then a while active, and its shadow says which', async () => {
    const relay = made.IntegratedGenericRelay;
    const state = async () => (await ours.ok('findAllComponentShadows', { componentUuids: [relay] })).acuComponentShadowMap[relay].state;
    const { component } = await ours.ok('updateIntegratedGenericRelaySteadyState', { componentUuid: relay, steadyState: 'INACTIVE' });
    assert.equal(component.steadyState, 'INACTIVE');
    const changes = await changesDuring(() =>
      ours.ok('updateIntegratedGenericRelayTransientState', { componentUuid: relay, activate: true, durationMs: 600_000 }),
    );
    assert.deepEqual(
      changes.map((c) => [c.entity, (c.update as any).state]),
      [['COMPONENT_SHADOW', 'ACTIVE']],
    );
    assert.equal(await state(), 'ACTIVE');
    await ours.ok('updateIntegratedGenericRelayTransientState', { componentUuid: relay, activate: true, durationMs: 1 });
    await ours.ok('findComponentsByOwnerDevice', { ownerDeviceUuid: controller }); // a round trip: the 1 ms is over
    assert.equal(await state(), 'INACTIVE');
  });

  it('raises what the hardware does: a REX pressed and a card read reach the door; an input changes its shadow', async () => {
    const door = site.doors!['Front Door']!;
    const rex = await simulate(server(), 'component', { component: made.IntegratedRequestToExit });
    assert.deepEqual([rex.json.error, rex.json.shadow.state, rex.json.doorUuid], [false, 'ACTIVE', door], rex.text);
    const read = await simulate(server(), 'component', { component: made.WiegandDoorReader, hex: 'abcd' });
    assert.equal(read.json.error, false, read.text);
    const dpi = await simulate(server(), 'component', { component: made.IntegratedDoorPositionIndicator, state: 'OPEN' });
    assert.equal(dpi.json.shadow.state, 'OPEN');
    const input = await simulate(server(), 'component', { component: made.IntegratedGenericInput, state: 'ACTIVE' });
    assert.deepEqual([input.json.shadow.type, input.json.shadow.state], ['GenericInputShadow', 'ACTIVE']);
    assert.equal((await simulate(server(), 'component', { component: made.IntegratedGenericInput, state: 'OPEN' })).json.error, true);
    const types = (await doorEvents(server(), org.apiKey, door)).map((e) => e.type);
    for (const type of ['RequestToExitStateChangeEvent', 'CredentialReceivedEvent', 'DoorPositionIndicatorStateChangeEvent'])
      assert.ok(types.includes(type), type);
    const { componentShadows } = await ours.ok('findComponentShadowsByOwnerDevice', { ownerDeviceUuid: controller });
    assert.equal(componentShadows.find((s: any) => s.componentUuid === made.IntegratedGenericInput).state, 'ACTIVE');
  });

  it("describes the device's ports, with the ones used in conflict, made once", async () => {
    await ours.ok('createIntegratedGenericInput', { ownerDeviceUuid: controller, port: port(5, 'GPIO_INPUT') });
    await ours.ok('createIntegratedGenericRelay', { ownerDeviceUuid: controller, port: port(1, 'GPIO_OUTPUT') });
    const changes = await changesDuring(async () => {
      const first = await ours.ok('getOrCreateDevicePhysicalPortConfig', { ownerDeviceUuid: controller });
      assert.deepEqual(first.detectedInvalidPortConfigs.map((i: any) => [i.portNum, i.reason]).sort(), [
        [1, 'CONFLICTING_COMPONENT_PORT_TYPES'],
        [5, 'MAX_COMPONENTS_PER_PORT_TYPE_EXCEEDED'],
      ]);
      assert.deepEqual(first.devicePhysicalPortConfig.boardMap['0'].portMap['9'].componentPortTypeUsageMap.RS485.length, 2);
      await ours.ok('getOrCreateDevicePhysicalPortConfig', { ownerDeviceUuid: controller });
    });
    assert.deepEqual(
      changes.map((c) => [c.entity, c.type]),
      [['DEVICE_PHYSICAL_PORT_CONFIG', 'CREATE']],
    );
    assert.equal(await theirs.refused('getOrCreateDevicePhysicalPortConfig', { ownerDeviceUuid: controller }), 'Owner device not found');
  });

  it('deletes one component, then all of a device', async () => {
    await ours.ok('deleteComponent', { componentUuid: made.IntegratedDoorRelay });
    const left = (await ours.ok('findComponentsByOwnerDevice', { ownerDeviceUuid: controller })).components;
    assert.ok(!left.some((c: any) => c.uuid === made.IntegratedDoorRelay));
    await theirs.ok('deleteComponentsByOwnerDevice', { ownerDeviceUuid: theirController });
    assert.equal((await ours.ok('findComponentsByOwnerDevice', { ownerDeviceUuid: controller })).components.length, left.length);
    const changes = await changesDuring(() => ours.ok('deleteComponentsByOwnerDevice', { ownerDeviceUuid: controller }));
    assert.equal(changes.filter((c) => c.entity === 'COMPONENT' && c.type === 'DELETE').length, left.length);
    assert.deepEqual((await ours.ok('findComponentsByOwnerDevice', { ownerDeviceUuid: controller })).components, []);
  });

  it("lists a location's elevator landings", async () => {
    const { accessControlledElevatorLandings } = await ours.ok('elevator/findAccessControlledElevatorLandingsByLocation', { locationUuid: site.locations!.HQ });
    assert.deepEqual(
      accessControlledElevatorLandings.map((l: any) => l.name),
      ['Lobby Landing'],
    );
    assert.equal(await theirs.refused('elevator/findAccessControlledElevatorLandingsByLocation', { locationUuid: site.locations!.HQ }), 'Location not found');
  });
});
