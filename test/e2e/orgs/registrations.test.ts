import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { issueShipment } from '../../../src/domains/orgs/registrations/service.js';
import { changesDuring } from '../../helpers/changes.js';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { lastJson, runCli } from '../../helpers/cli.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { seedYaml } from '../../helpers/org-structure.js';
import { TEST_SECRET_KEY, type TestOrg } from '../../helpers/server.js';
import { control } from '../control/admin.js';

/*
 * Shipments of hardware (issued by the operator), claimed by their tokens; the units' pending registrations,
 * applied when a unit comes online; SCIM display info from the organization's SCIM access.
 */

const O = '/api/org';

forEachDialect('org: shipments, pending registrations and SCIM display info', (dialect) => {
  const server = useTestServer(dialect);
  let org: TestOrg;
  let other: TestOrg;
  let site: Record<string, Record<string, string>>;
  let theirs: Record<string, Record<string, string>>;
  const { ok, refused, call } = apiAs(server, () => org.apiKey);
  const them = apiAs(server, () => other.apiKey);
  const ship = async (...serials: string[]) =>
    (
      await issueShipment(
        server().gatehouse.deps,
        serials.map((serialNumber) => ({ serialNumber, type: 'CAMERA' as const })),
      )
    ).token;
  const waiting = async (api = { ok }) => ({
    pending: (await api.ok(`${O}/findAllHardwareWithPendingRegistration`)).hardwareWithPendingRegistrationInfoList,
    available: (await api.ok(`${O}/findHardwareAvailableForPendingRegistration`)).hardwareList.map((h: { serialNumber: string }) => h.serialNumber),
  });
  before(async () => {
    org = await server().createOrg('Receiving Org');
    other = await server().createOrg('Other Org');
    site = await seedYaml(server(), org.orgUuid, 'locations: [{name: HQ}, {name: Annex}, {name: Pop-up}]');
    theirs = await seedYaml(server(), other.orgUuid, 'locations: [{name: Far}]');
  });

  it('issues a shipment from the CLI; peek shows its units, a claim takes them once, and a unit online registers as pending', async () => {
    const cli = await runCli(
      ['shipment', 'issue', '--serial', 'SHIP-1', 'SHIP-2', 'SHIP-3', '--variation', 'CAMERA_R510', '--json'].concat([
        '--data-dir',
        server().config.dataDir,
        '--database',
        server().config.databaseUrl,
      ]),
      { GATEHOUSE_SECRET_KEY: TEST_SECRET_KEY },
    );
    assert.equal(cli.code, 0, cli.stderr);
    const issued = lastJson(cli.stdout);
    const bySerial = new Map<string, string>(issued.hardware.map((h: { serialNumber: string; uuid: string }) => [h.serialNumber, h.uuid]));
    assert.deepEqual((await ok(`${O}/peekShipmentRegistrationToken`, { tokenUuid: issued.token })).hardwareUuidList.sort(), [...bySerial.values()].sort());

    // A claim naming a unit of no shipment of the token, or a location of another organization, changes nothing.
    assert.match(
      await refused(`${O}/claimShipmentRegistrationToken`, { tokenUuid: issued.token, claimList: [{ hardwareUuid: issued.shipmentUuid }] }),
      /no unit of this shipment/,
    );
    assert.match(
      await refused(`${O}/claimShipmentRegistrationToken`, {
        tokenUuid: issued.token,
        claimList: [{ hardwareUuid: bySerial.get('SHIP-1'), locationUuid: theirs.locations.Far }],
      }),
      /not found/,
    );
    const claimed = await changesDuring(server(), () =>
      ok(`${O}/claimShipmentRegistrationToken`, {
        tokenUuid: issued.token,
        claimList: [{ hardwareUuid: bySerial.get('SHIP-1'), deviceName: 'Lobby', locationUuid: site.locations.HQ }],
      }),
    );
    assert.deepEqual(claimed.filter((c) => c.entity === 'HARDWARE' && c.orgUuid === org.orgUuid).length, 3);
    assert.match(await refused(`${O}/claimShipmentRegistrationToken`, { tokenUuid: issued.token }), /claimed already/);
    assert.match(await them.refused(`${O}/peekShipmentRegistrationToken`, { tokenUuid: issued.token }), /claimed already/);
    assert.match(await refused(`${O}/peekShipmentRegistrationToken`, { tokenUuid: issued.shipmentUuid }), /token not found/);

    let now = await waiting();
    assert.deepEqual(
      now.pending.map((p: any) => [p.hardware.serialNumber, p.hwUuid, p.pendingRegistrationInfo.name, p.pendingRegistrationInfo.locationUuid]),
      [['SHIP-1', bySerial.get('SHIP-1'), 'Lobby', site.locations.HQ]],
    );
    assert.equal(now.pending[0].hardware.hwVariation, 'CAMERA_R510');
    assert.deepEqual(now.available, ['SHIP-2', 'SHIP-3']);
    assert.deepEqual(await waiting(them), { pending: [], available: [] });

    // Pending registrations: made by serial number (the Wi-Fi key never answered), changed, removed.
    await ok(`${O}/createPendingRegistration`, { serialNumber: 'SHIP-2', locationUuid: site.locations.Annex, wifiSsid: 'dock', wifiPsk: ['c2VjcmV0'] });
    assert.match(await refused(`${O}/createPendingRegistration`, { serialNumber: 'SHIP-2' }), /pending registration already/);
    assert.match(await them.refused(`${O}/createPendingRegistration`, { serialNumber: 'SHIP-3' }), /not found/);
    assert.match(await them.refused(`${O}/updatePendingRegistration`, { hardwareUuid: bySerial.get('SHIP-2'), name: 'Mine' }), /not found/);
    assert.match(await them.refused(`${O}/removePendingRegistration`, { serialNumber: 'SHIP-2' }), /not found/);
    await ok(`${O}/updatePendingRegistration`, { hardwareUuid: bySerial.get('SHIP-2'), name: 'Dock' });
    await ok(`${O}/createPendingRegistration`, { serialNumber: 'SHIP-3' });
    await ok(`${O}/removePendingRegistration`, { serialNumber: 'SHIP-3' });
    now = await waiting();
    assert.deepEqual(
      now.pending.map((p: any) => [p.hardware.serialNumber, p.pendingRegistrationInfo.name, p.pendingRegistrationInfo.locationUuid]),
      [
        ['SHIP-1', 'Lobby', site.locations.HQ],
        ['SHIP-2', 'Dock', site.locations.Annex],
      ],
    );
    assert.deepEqual(now.available, ['SHIP-3']);
    assert.ok(!JSON.stringify(now).includes('c2VjcmV0'));

    // SHIP-1 comes online: a camera named and placed as its pending registration said, which then goes.
    const online = await changesDuring(server(), async () =>
      assert.equal((await control(server(), '/simulate/hardware-online', { serial: 'SHIP-1' })).status, 200),
    );
    const camera = online.find((c) => c.entity === 'CAMERA' && c.type === 'CREATE')!;
    assert.ok(online.some((c) => c.entity === 'HARDWARE' && (c.update as { deviceUuid: string }).deviceUuid === camera.entityUuid));
    const cameras = (await ok('/api/camera/getMinimalCameraStateList')).cameraStates;
    const lobby = cameras.find((c: { uuid: string }) => c.uuid === camera.entityUuid);
    assert.deepEqual([lobby.name, lobby.locationUuid], ['Lobby', site.locations.HQ]);
    assert.deepEqual(
      (await waiting()).pending.map((p: any) => p.hardware.serialNumber),
      ['SHIP-2'],
    );
    assert.equal((await control(server(), '/simulate/hardware-online', { serial: 'SHIP-3' })).json.error, true, 'no pending registration');
    assert.match(await refused(`${O}/createPendingRegistration`, { serialNumber: 'SHIP-1' }), /registered already/);

    // A batch-registering camera with a pending registration takes it too.
    const batch = await ok('/api/camera/generateBatchRegistrationInfo', { locationUuid: site.locations.HQ });
    const registered = (await control(server(), '/simulate/batch-register', { token: batch.token, serial: 'SHIP-2' })).json.device;
    assert.deepEqual([registered.name, registered.locationUuid], ['Dock', site.locations.Annex]);
    assert.deepEqual(await waiting(), { pending: [], available: ['SHIP-3'] });
  });

  it('a deleted location leaves the pending registrations that named it, announced', async () => {
    await ok(`${O}/createPendingRegistration`, { serialNumber: 'SHIP-3', locationUuid: site.locations['Pop-up'] });
    const changes = await changesDuring(server(), () => ok('/api/location/deleteLocation', { uuid: site.locations['Pop-up'] }));
    const [pending] = (await waiting()).pending;
    assert.deepEqual([pending.hardware.serialNumber, pending.pendingRegistrationInfo.locationUuid], ['SHIP-3', null]);
    const update = changes.find((c) => c.entity === 'HARDWARE' && c.entityUuid === pending.hwUuid);
    assert.equal((update?.update as any)?.pendingRegistrationInfo?.locationUuid, null, 'the unit is announced without the location');
    await ok(`${O}/removePendingRegistration`, { serialNumber: 'SHIP-3' });
  });

  it('claims an activation token once, each unit pending under the name given', async () => {
    const token = await ship('ACT-1', 'ACT-2');
    assert.match(await refused(`${O}/claimActivationToken`, { activationToken: 'no-such-token' }), /token not found/);
    assert.match(await call(`${O}/claimActivationToken`, { name: 'Gate' }).then((r) => r.json.errorMsg), /activationToken/);
    await ok(`${O}/claimActivationToken`, { activationToken: token, name: 'Gate' });
    assert.match(await them.refused(`${O}/claimActivationToken`, { activationToken: token }), /claimed already/);
    const names = (await waiting()).pending.filter((p: any) => p.hardware.serialNumber.startsWith('ACT-')).map((p: any) => p.pendingRegistrationInfo.name);
    assert.deepEqual(names, ['Gate 1', 'Gate 2']);
  });

  it('answers SCIM display info once SCIM access is set up, and none after it is revoked', async () => {
    const info = () => ok(`${O}/getScimDisplayInfo`);
    assert.deepEqual([(await info()).scimEndpointUrl, (await info()).azureScimEndpointUrl], [null, null]);
    await ok(`${O}/setupSCIMAccessForOrg`, {});
    const set = await info();
    assert.equal(set.scimEndpointUrl, `${server().rest}/scim/v2`);
    assert.match(set.azureScimEndpointUrl, /\/scim\/v2\?aadOptscim062020$/);
    assert.equal((await them.ok(`${O}/getScimDisplayInfo`)).scimEndpointUrl, null);
    await ok(`${O}/revokeSCIMAccessForOrg`, {});
    assert.equal((await info()).scimEndpointUrl, null);
  });
});
