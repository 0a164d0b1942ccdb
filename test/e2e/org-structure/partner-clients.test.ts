import { assertFails, assertOk } from '../../helpers/api.js';
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createApiKey } from '../../../src/domains/orgs/service.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { seedYaml, watchChanges } from '../../helpers/org-structure.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { StrictClient } from '../streaming/helpers.js';
import { control } from '../control/admin.js';

const CLIENT_A = `
locations: [{name: Shop, timeZone: Europe/London}, {name: Back Room}]
users: [{name: Owner, email: owner@a.example}]
cameras:
  - {name: Front, location: Shop, serialNumber: SN-FRONT}
  - {name: Till, location: Shop, serialNumber: SN-TILL, connectionStatus: RED}
  - {name: Door Cam, location: Shop, serialNumber: SN-DOORCAM}
doors: [{name: Shop Door, location: Shop, lock: true, cameras: [Door Cam]}]
shipments: [{crmOppId: OPP-A1, email: buyer@a.example, trackingIdentifier: 1Z-A1}]
`;

forEachDialect('POST /api/partner/*: the partner and its clients', (dialect) => {
  let server: TestServer;
  let partner: TestOrg;
  let clientA: TestOrg;
  let clientB: TestOrg;
  let stranger: TestOrg;
  let partnerKey: string;
  let a: Record<string, Record<string, string>>;
  let strangerSite: Record<string, Record<string, string>>;
  before(async () => {
    server = await startTestServer(dialect);
    partner = await server.createOrg('Integrator');
    clientA = await server.createOrg('Client A');
    clientB = await server.createOrg('Client B');
    stranger = await server.createOrg('Stranger');
    a = await seedYaml(server, clientA.orgUuid, CLIENT_A);
    await seedYaml(server, clientB.orgUuid, 'locations: [{name: Depot}]\nshipments: [{crmOppId: OPP-B1, email: buyer@b.example}]');
    strangerSite = await seedYaml(server, stranger.orgUuid, 'locations: [{name: Far}]\ncameras: [{name: Far Cam, location: Far, serialNumber: SN-FAR}]');
    partnerKey = await server.createPartnerKey(partner.orgUuid, [clientA.orgUuid, clientB.orgUuid]);
  });
  after(() => server.close());
  const partnerCall = (op: string, body: unknown, org?: string, key = partnerKey) =>
    server.call(`/api/partner/${op}`, body, { key, scheme: 'partner-api-token', org });
  const asClient = (path: string, body: unknown, org: string) => server.call(path, body, { key: partnerKey, scheme: 'partner-api-token', org });

  it("resolves the CLI's --partner-org name through getPartnerClientsV2, whatever x-auth-org it sends", async () => {
    for (const org of [undefined, 'Client', clientA.orgUuid]) {
      const r = await server.call('/api/partner/getPartnerClientsV2', {}, { key: partnerKey, scheme: 'partner-api-token', org });
      assertOk(r);
      assert.deepEqual(
        r.json.partnerClients.map((c: any) => [c.name, c.orgUuid]),
        [
          ['Client A', clientA.orgUuid],
          ['Client B', clientB.orgUuid],
        ],
      );
    }
    // Outside the partner operations a name is still no organization.
    assert.equal((await asClient('/api/org/getOrgV2', {}, 'Client')).status, 403);
  });

  it("lists a client's devices with their types and whether they can move, and every client's devices", async () => {
    const r = await partnerCall('getClientDevices', { orgUuid: clientA.orgUuid });
    assertOk(r);
    const bySerial = Object.fromEntries(r.json.devices.map((d: any) => [d.device.serialNumber, d]));
    assert.deepEqual([bySerial['SN-FRONT'].device.type, bySerial['SN-FRONT'].reassignable, bySerial['SN-DOORCAM'].reassignable], ['CAMERA', true, false]);
    assert.ok(r.json.devices.some((d: any) => d.device.type === 'DOOR_CONTROLLER'));
    assertFails(await partnerCall('getClientDevices', { orgUuid: stranger.orgUuid }), /Client .* not found/);
    const all = (await partnerCall('getListOfAllClientDevices', {})).json.listOfAllClientDevices;
    assert.ok(all.every((d: any) => [clientA.orgUuid, clientB.orgUuid].includes(d.orgUuid)));
    assert.ok(!all.some((d: any) => d.serialNumber === 'SN-FAR'));
  });

  it("counts each client's devices by type, connected and operational, and sums a client up", async () => {
    const map = (await partnerCall('getClientStatusMap', {})).json.clientDeviceStatusMap;
    assert.deepEqual(map[clientA.orgUuid].CAMERA, { connectedCount: 2, operationalCount: 3, totalCount: 3 });
    assert.deepEqual(map[clientB.orgUuid], {});
    assert.equal(map[stranger.orgUuid], undefined);
    assertOk(await asClient('/api/org/updateGeneralSettings', { accountOwnerEmail: 'owner@a.example' }, clientA.orgUuid));
    await control(server, '/simulate/alert', { device: a.cameras!.Front, trigger: 'MOTION_HUMAN' });
    assertOk(await partnerCall('updateSendLicenseExpirationEmail', { orgUuid: clientA.orgUuid, manuallySendLicenseExpirationEmail: true }));
    const summary = (await partnerCall('getClientSummaryInfo', { clientOrgUuid: clientA.orgUuid })).json;
    assert.deepEqual(
      [
        summary.accountOwner.email,
        summary.locationCount,
        summary.recentPolicyAlertCount,
        summary.manuallySendLicenseExpirationEmailEnabled,
        summary.clientDeviceStatusMap.CAMERA.totalCount,
      ],
      ['owner@a.example', 2, 1, true, 3],
    );
    assertFails(await partnerCall('getClientSummaryInfo', { clientOrgUuid: stranger.orgUuid }), /Client .* not found/);
    assertFails(await partnerCall('updateSendLicenseExpirationEmail', { orgUuid: stranger.orgUuid, manuallySendLicenseExpirationEmail: true }), /not found/);
  });

  it("customizes a client and one of its cameras, announced on the client's stream", async () => {
    const watch = await watchChanges(server, clientA.apiKey, clientA.orgUuid);
    try {
      const r = await partnerCall('customizeClient', { clientOrgUuid: clientA.orgUuid, customizations: { inactivityTimeout: 15 } });
      assertOk(r);
      assert.deepEqual(r.json.customizations, { forceLowBandwidthOnAllCameras: null, inactivityTimeout: 15 });
      await watch.waitFor(
        (c) => c.entity === 'PARTNER_CLIENT_SETTINGS' && c.update.customizations.inactivityTimeout === 15,
        'the PARTNER_CLIENT_SETTINGS change',
      );
      const device = await partnerCall('customizeClientDevice', {
        clientOrgUuid: clientA.orgUuid,
        clientDeviceUuid: a.cameras!.Front,
        configUpdate: { img_brightness: 70 },
        customizations: { forceLowBandwidthOnAllCameras: true },
      });
      assertOk(device);
      assert.deepEqual(device.json.customizations, { forceLowBandwidthOnAllCameras: true, inactivityTimeout: 15 });
      const config = await server.call('/api/camera/getConfig', { cameraUuid: a.cameras!.Front }, { key: clientA.apiKey });
      assert.equal(config.json.config.img_brightness, 70);
    } finally {
      await watch.close();
    }
    const feed = await server.call('/api/report/getAuditFeed', { includeActions: ['PARTNER_CLIENT_SETTINGS_UPDATE'] }, { key: clientA.apiKey });
    assert.ok(
      feed.json.auditEvents.some(
        (e: any) => e.principalType === 'PARTNER' && e.principalUuid === partner.orgUuid && e.displayText.startsWith('customizeClientDevice:'),
      ),
    );
    assertFails(await partnerCall('customizeClient', { clientOrgUuid: stranger.orgUuid, customizations: {} }), /not found/);
    assertFails(
      await partnerCall('customizeClientDevice', {
        clientOrgUuid: clientA.orgUuid,
        clientDeviceUuid: strangerSite.cameras!['Far Cam'],
        configUpdate: { img_brightness: 10 },
      }),
      /not found/,
    );
    assert.equal(
      (
        await partnerCall('customizeClientDevice', {
          clientOrgUuid: clientA.orgUuid,
          clientDeviceUuid: a.cameras!.Front,
          configUpdate: { img_brightness: 700 },
        })
      ).status,
      400,
    );
  });

  it('moves devices between two clients in one write, announced on both streams, and keeps door devices', async () => {
    const watchA = await watchChanges(server, clientA.apiKey, clientA.orgUuid);
    const watchB = await watchChanges(server, clientB.apiKey, clientB.orgUuid);
    try {
      const r = await partnerCall('reassignDeviceOrg', {
        serialNumbers: ['SN-TILL', 'SN-DOORCAM', 'SN-NONE'],
        sourceOrgUuid: clientA.orgUuid,
        targetOrgUuid: clientB.orgUuid,
      });
      assertOk(r);
      assert.deepEqual(Object.fromEntries(Object.entries(r.json.statuses).map(([k, v]: [string, any]) => [k, v.status])), {
        'SN-TILL': 'SUCCESS',
        'SN-DOORCAM': 'FAILURE',
        'SN-NONE': 'FAILURE',
      });
      const till = a.cameras!.Till!;
      await watchA.waitFor((c) => c.entityUuid === till && c.type === 'DELETE', "the DELETE on A's stream");
      const joined = await watchB.waitFor((c) => c.entityUuid === till && c.type === 'CREATE', "the CREATE on B's stream");
      assert.deepEqual([joined.entity, joined.update.orgUuid, joined.update.locationUuid], ['CAMERA', clientB.orgUuid, null]);
    } finally {
      await Promise.all([watchA.close(), watchB.close()]);
    }
    const serialsOf = async (org: string) => (await partnerCall('getClientDevices', { orgUuid: org })).json.devices.map((d: any) => d.device.serialNumber);
    assert.ok((await serialsOf(clientB.orgUuid)).includes('SN-TILL'));
    assert.ok(!(await serialsOf(clientA.orgUuid)).includes('SN-TILL'));
    // B's own key now reaches it; A's does not.
    assertOk(await server.call('/api/camera/getConfig', { cameraUuid: a.cameras!.Till }, { key: clientB.apiKey }));
    assertFails(await server.call('/api/camera/getConfig', { cameraUuid: a.cameras!.Till }, { key: clientA.apiKey }), /not found/);
    // Another organization is unknown, and nothing moves.
    assertFails(
      await partnerCall('reassignDeviceOrg', { serialNumbers: ['SN-FRONT'], sourceOrgUuid: clientA.orgUuid, targetOrgUuid: stranger.orgUuid }),
      /not found/,
    );
    assertFails(
      await partnerCall('reassignDeviceOrg', { serialNumbers: ['SN-FAR'], sourceOrgUuid: stranger.orgUuid, targetOrgUuid: clientA.orgUuid }),
      /not found/,
    );
    assert.ok((await serialsOf(clientA.orgUuid)).includes('SN-FRONT'));
    assertFails(
      await partnerCall('reassignDeviceOrg', { serialNumbers: ['SN-FRONT'], sourceOrgUuid: clientA.orgUuid, targetOrgUuid: clientA.orgUuid }),
      /must differ/,
    );
  });

  it("lists its clients' shipments, one client's or all, within a time window", async () => {
    const all = (await partnerCall('getShipments', {})).json.customerShipmentList;
    assert.deepEqual(all.map((s: any) => s['rhombus-salesForceOpportunityId']).sort(), ['OPP-A1', 'OPP-B1']);
    const one = (await partnerCall('getShipments', { clientOrgUuid: clientA.orgUuid })).json.customerShipmentList;
    assert.deepEqual(
      one.map((s: any) => [s['rhombus-orgUuid'], s['rhombus-partnerOrgUuid'], s['ait-carrierTrackingNumber'], s.shipmentState]),
      [[clientA.orgUuid, partner.orgUuid, '1Z-A1', 'SHIPPED']],
    );
    assert.deepEqual((await partnerCall('getShipments', { endTimeSec: 1000 })).json.customerShipmentList, []);
    assertFails(await partnerCall('getShipments', { clientOrgUuid: stranger.orgUuid }), /not found/);
  });

  it("lists the partner's keys without the keys, and revokes one at once, its stream sessions included", async () => {
    const second = (await createApiKey(server.gatehouse.deps, { orgUuid: partner.orgUuid, kind: 'partner' })).apiKey;
    const tokens = (await partnerCall('getApiTokens', {})).json.apiTokens;
    assert.ok(tokens.length >= 2);
    const text = JSON.stringify(tokens);
    assert.ok(!text.includes(second) && !text.includes(partnerKey));
    const token = tokens.find((t: any) => t.displayName.endsWith(second.slice(-4)));
    assert.equal(token.clientType, 'PARTNER_DEVELOPER');
    assert.ok((await partnerCall('getApiTokenApplications', {})).json.applications.some((t: any) => t.tokenUuid === token.tokenUuid));
    const stream = await StrictClient.connect(server.gatehouse.urls.ws, { key: second, scheme: 'partner-api-token', org: clientA.orgUuid });
    assertOk(await partnerCall('revokeApiToken', { tokenUuid: token.tokenUuid }));
    await stream.closed;
    assert.equal((await partnerCall('getClientsV2', {}, undefined, second)).status, 403);
    assert.ok(!(await partnerCall('getApiTokens', {})).json.apiTokens.some((t: any) => t.tokenUuid === token.tokenUuid));
    const strangerKey = await server.createPartnerKey(stranger.orgUuid, []);
    const theirs = (await server.call('/api/partner/getApiTokens', {}, { key: strangerKey, scheme: 'partner-api-token' })).json.apiTokens[0];
    assertFails(await partnerCall('revokeApiToken', { tokenUuid: theirs.tokenUuid }), /API key .* not found/);
    assertOk(await server.call('/api/partner/getClientsV2', {}, { key: strangerKey, scheme: 'partner-api-token' }));
  });

  it('answers a client organization with what the partner may do there, and another organization as unknown', async () => {
    const r = await server.call('/api/org/getClientOrg', { orgUuid: clientA.orgUuid }, { key: partnerKey, scheme: 'partner-api-token' });
    assertOk(r);
    assert.deepEqual([r.json.org.name, r.json.org.accountOwnerEmail, r.json.partnerOrgPermissionGroup.superAdmin], ['Client A', 'owner@a.example', true]);
    assertFails(await server.call('/api/org/getClientOrg', { orgUuid: stranger.orgUuid }, { key: partnerKey, scheme: 'partner-api-token' }), /not found/);
    assert.equal((await server.call('/api/org/getClientOrg', { orgUuid: clientA.orgUuid }, { key: clientA.apiKey })).status, 403);
    assert.equal((await server.call('/api/org/getOrgV2', {}, { key: partnerKey, scheme: 'partner-api-token' })).status, 403);
    assert.equal((await asClient('/api/org/getOrgV2', {}, partner.orgUuid)).json.org.type, 'PARTNER');
  });
});
