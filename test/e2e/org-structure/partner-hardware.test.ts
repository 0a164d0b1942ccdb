import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { assertFails, assertOk } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { seedYaml, watchChanges } from '../../helpers/org-structure.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

const INVENTORY = `
partnerHardware:
  - {serialNumber: R200-1, macAddress: "00:11:22:33:44:01", deviceModel: CAMERA_R200}
  - {serialNumber: R200-2, deviceModel: CAMERA_R200}
  - {serialNumber: DC20-1, deviceType: DOOR_CONTROLLER, deviceModel: DOOR_CONTROLLER_DC20}
`;

forEachDialect("POST /api/partner/*: the partner's hardware and deals", (dialect) => {
  let server: TestServer;
  let partner: TestOrg;
  let client: TestOrg;
  let stranger: TestOrg;
  let partnerKey: string;
  let clientSite: Record<string, Record<string, string>>;
  let strangerSite: Record<string, Record<string, string>>;
  before(async () => {
    server = await startTestServer(dialect);
    partner = await server.createOrg('Integrator');
    client = await server.createOrg('Client');
    stranger = await server.createOrg('Stranger');
    await seedYaml(server, partner.orgUuid, INVENTORY);
    clientSite = await seedYaml(server, client.orgUuid, 'locations: [{name: Shop}]');
    strangerSite = await seedYaml(server, stranger.orgUuid, 'locations: [{name: Far}]');
    partnerKey = await server.createPartnerKey(partner.orgUuid, [client.orgUuid]);
  });
  after(() => server.close());
  const partnerCall = (op: string, body: unknown, key = partnerKey) => server.call(`/api/partner/${op}`, body, { key, scheme: 'partner-api-token' });
  const available = async () => (await partnerCall('getListOfAvailableHardware', {})).json.controlledHardwareList.map((h: any) => h.serialNumber);

  it("registers a camera of the partner's inventory to a client, where it is a camera, and it leaves the inventory", async () => {
    const list = (await partnerCall('getListOfAvailableHardware', {})).json.controlledHardwareList;
    assert.deepEqual(list[1], { serialNumber: 'R200-1', macAddress: '00:11:22:33:44:01', deviceType: 'CAMERA', deviceModel: 'CAMERA_R200' });
    assert.deepEqual(await available(), ['DC20-1', 'R200-1', 'R200-2']);

    const watch = await watchChanges(server, client.apiKey, client.orgUuid);
    let camera: string;
    try {
      const body = {
        orgUuid: client.orgUuid,
        serialNumber: 'R200-1',
        locationUuid: clientSite.locations.Shop,
        wifiSsid: 'Shop',
        wifiPsk: ['c2VjcmV0LXdpZmk='],
      };
      const r = await partnerCall('registerCameraToClient', body);
      assertOk(r);
      assert.ok(!r.text.includes('c2VjcmV0'), 'the Wi-Fi key is never answered');
      const created = await watch.waitFor((c) => c.entity === 'CAMERA' && c.type === 'CREATE', 'the CAMERA change');
      assert.deepEqual([created.update.serialNumber, created.update.locationUuid], ['R200-1', clientSite.locations.Shop]);
      camera = created.entityUuid;
    } finally {
      await watch.close();
    }
    const cameras = (await server.call('/api/camera/getMinimalCameraStateList', {}, { key: client.apiKey })).json.cameraStates;
    assert.deepEqual(
      cameras.map((c: any) => c.uuid),
      [camera],
    );
    assert.deepEqual(await available(), ['DC20-1', 'R200-2']);
    assertFails(await partnerCall('registerCameraToClient', { orgUuid: client.orgUuid, serialNumber: 'R200-1' }), /already registered/);
  });

  it('refuses hardware not in the inventory, a door controller, a client not granted and a location of another organization', async () => {
    assertFails(await partnerCall('registerCameraToClient', { orgUuid: client.orgUuid, serialNumber: 'NOPE' }), /Hardware with serial number NOPE not found/);
    assertFails(await partnerCall('registerCameraToClient', { orgUuid: client.orgUuid, serialNumber: 'DC20-1' }), /not a camera/);
    assertFails(await partnerCall('registerCameraToClient', { orgUuid: stranger.orgUuid, serialNumber: 'R200-2' }), /Client .* not found/);
    const far = { orgUuid: client.orgUuid, serialNumber: 'R200-2', locationUuid: strangerSite.locations.Far };
    assertFails(await partnerCall('registerCameraToClient', far), /Location not found/);
    assert.deepEqual(await available(), ['DC20-1', 'R200-2'], 'nothing changed');
    const otherPartner = await server.createOrg('Other Partner');
    const otherKey = await server.createPartnerKey(otherPartner.orgUuid, [client.orgUuid]);
    assert.deepEqual((await partnerCall('getListOfAvailableHardware', {}, otherKey)).json.controlledHardwareList, []);
    assertFails(await partnerCall('registerCameraToClient', { orgUuid: client.orgUuid, serialNumber: 'R200-2' }, otherKey), /not found/);
  });

  it('keeps a deal, readable back by getDeals and announced to the partner, and answers its clients', async () => {
    const watch = await watchChanges(server, partner.apiKey, partner.orgUuid);
    try {
      const r = await partnerCall('registerDeal', { details: { customer: 'Acme', cameras: '12' } });
      assertOk(r);
      assert.deepEqual(
        r.json.clients.map((c: any) => c.clientOrgUuid),
        [client.orgUuid],
      );
      await watch.waitFor((c) => c.entity === 'PARTNER_DEAL' && c.update.details.customer === 'Acme', 'the PARTNER_DEAL change');
    } finally {
      await watch.close();
    }
    const deals = (await partnerCall('getDeals', {})).json.deals;
    assert.deepEqual(
      deals.map((d: any) => d.details),
      [{ customer: 'Acme', cameras: '12' }],
    );
    assertFails(await partnerCall('registerDeal', { details: {} }), /at least one detail/);
  });
});
