import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { issueLicenses } from '../../../src/domains/access/licenses/service.js';
import type { ChangeEvent } from '../../../src/store/change-event.js';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import type { TestOrg } from '../../helpers/server.js';
import { control } from '../control/admin.js';

/*
 * Licenses: issued to an organization, assigned by it to a camera, a door or a location; what a camera's
 * licenses grant shows in its feature map; a partner reads its client's.
 */

const L = '/api/license';
const SITE = {
  locations: [{ name: 'HQ' }],
  cameras: [
    { name: 'Lobby', location: 'HQ' },
    { name: 'Dock', location: 'HQ' },
  ],
  sensors: [{ name: 'Panic', kind: 'button', location: 'HQ' }],
  doors: [{ name: 'Front Door', location: 'HQ' }],
};

forEachDialect('licenses', (dialect) => {
  const server = useTestServer(dialect);
  let org: TestOrg;
  let other: TestOrg;
  let site: any;
  let theirs: any;
  const changes: ChangeEvent[] = [];
  let unsubscribe = () => {};
  const issue = (orgUuid: string, order: Parameters<typeof issueLicenses>[2]) =>
    issueLicenses(server().gatehouse.deps, { orgUuid, userUuid: null, apiKeyId: null, partnerOrgUuid: null, operation: 'test' }, order);
  before(async () => {
    org = await server().createOrg('Licensed Org');
    other = await server().createOrg('Other Org');
    site = (await control(server(), `/orgs/${org.orgUuid}/seed`, SITE)).json;
    theirs = (await control(server(), `/orgs/${other.orgUuid}/seed`, SITE)).json;
    unsubscribe = server().gatehouse.deps.bus.subscribe('change', (e) => changes.push(e));
  });
  after(() => unsubscribe());
  const { ok, call } = apiAs(server, () => org.apiKey);
  const features = async (deviceUuid: string) => (await ok('/api/feature/getDeviceFeatures', { deviceUuid })).features.featureMap;

  it('assigns a device license and an add-on to a camera: its feature map shows them, and moving them takes them away', async () => {
    const [device, spare] = await issue(org.orgUuid, { productType: 'DEVICE', licenseFamily: 'CAMERA', count: 2 });
    const [vehicle] = await issue(org.orgUuid, { productType: 'LICENSE_USAGE', addOn: 'VEHICLE', count: 1 });
    const { Lobby, Dock } = site.cameras;
    assert.equal((await features(Lobby)).deviceLicense, undefined, 'never licensed: no license features');

    const assigned = (await ok(`${L}/assignDeviceLicense`, { licenseUuid: device!.uuid, deviceUuid: Lobby })).deviceLicense;
    assert.deepEqual([assigned.deviceUuid, assigned.licenseFamily, assigned.features], [Lobby, 'CAMERA', [{ name: 'deviceLicense', enabled: true }]]);
    await ok(`${L}/assignLicense`, { licenseUuid: vehicle!.uuid, deviceUuid: Lobby });
    assert.deepEqual([(await features(Lobby)).deviceLicense, (await features(Lobby)).vehicleAnalytics], [true, true]);
    const announced = changes.filter((c) => c.entity === 'DEVICE' && c.entityUuid === Lobby).at(-1)!;
    assert.equal((announced.update as { featureMap: Record<string, boolean> }).featureMap.vehicleAnalytics, true);
    assert.ok(changes.some((c) => c.entity === 'LICENSE' && c.entityUuid === vehicle!.uuid && c.type === 'UPDATE'));

    // Another license on the same camera frees the first; the add-on moved to Dock leaves Lobby.
    await ok(`${L}/assignDeviceLicense`, { licenseUuid: spare!.uuid, deviceUuid: Lobby });
    await ok(`${L}/assignLicense`, { licenseUuid: vehicle!.uuid, deviceUuid: Dock });
    assert.deepEqual(
      [(await features(Lobby)).deviceLicense, (await features(Lobby)).vehicleAnalytics, (await features(Dock)).vehicleAnalytics],
      [true, false, true],
    );
    const listed = new Map(
      (await ok(`${L}/getDeviceLicenses`, {})).deviceLicenses.map((l: { uuid: string; deviceUuid: string | null }) => [l.uuid, l.deviceUuid]),
    );
    assert.deepEqual([listed.get(device!.uuid), listed.get(spare!.uuid)], [null, Lobby]);
    assert.deepEqual(
      (await ok(`${L}/getLicenses`, { optionalDeviceTypeFilter: 'CAMERA' })).licenses.map((l: { license: string }) => l.license),
      ['VEHICLE'],
    );
  });

  it("refuses a license on a device it is not for, and another organization's license or device as unknown", async () => {
    const [license] = await issue(org.orgUuid, { productType: 'DEVICE', licenseFamily: 'CAMERA', count: 1 });
    const [foreign] = await issue(other.orgUuid, { productType: 'DEVICE', licenseFamily: 'CAMERA', count: 1 });
    assert.match((await call(`${L}/assignDeviceLicense`, { licenseUuid: license!.uuid, deviceUuid: site.sensors.Panic })).json.errorMsg, /not for a BUTTON/);
    assert.match(
      (await call(`${L}/assignDeviceLicense`, { licenseUuid: foreign!.uuid, deviceUuid: site.cameras.Lobby })).json.errorMsg,
      /License .* not found/,
    );
    assert.match(
      (await call(`${L}/assignDeviceLicense`, { licenseUuid: license!.uuid, deviceUuid: theirs.cameras.Lobby })).json.errorMsg,
      /Device .* not found/,
    );
    assert.equal((await features(site.cameras.Dock)).deviceLicense, undefined, 'nothing changed');
  });

  it('frees the licenses of a deleted device, and announces them', async () => {
    const [license] = await issue(org.orgUuid, { productType: 'DEVICE', licenseFamily: 'CAMERA', count: 1 });
    const { Dock } = site.cameras;
    await ok(`${L}/assignDeviceLicense`, { licenseUuid: license!.uuid, deviceUuid: Dock });
    await ok('/api/camera/delete', { cameraUuid: Dock, mummify: false });
    const held = (await ok(`${L}/getDeviceLicenses`, {})).deviceLicenses.filter((l: { deviceUuid: string | null }) => l.deviceUuid === Dock);
    assert.deepEqual(held, [], 'no license stays on the deleted camera');
    const freed = changes.filter((c) => c.entity === 'LICENSE' && c.entityUuid === license!.uuid).at(-1)!;
    assert.equal((freed.update as { deviceUuid: string | null }).deviceUuid, null);
    // Free again: it goes on another camera.
    assert.equal(
      (await ok(`${L}/assignDeviceLicense`, { licenseUuid: license!.uuid, deviceUuid: site.cameras.Lobby })).deviceLicense.deviceUuid,
      site.cameras.Lobby,
    );
  });

  it("assigns door and alert-monitoring licenses, and a partner reads its client's licenses", async () => {
    const [door] = await issue(org.orgUuid, { productType: 'ACCESS_CONTROL', count: 1 });
    const [monitoring] = await issue(org.orgUuid, { productType: 'ALERT_MONITORING', allowedDeviceCount: 1, count: 1 });
    assert.equal(
      (await ok(`${L}/assignACUDoorLicense`, { licenseUuid: door!.uuid, doorUuid: site.doors['Front Door'] })).acuDoorLicense.doorUuid,
      site.doors['Front Door'],
    );
    assert.match(
      (await call(`${L}/assignACUDoorLicense`, { licenseUuid: door!.uuid, doorUuid: theirs.doors['Front Door'] })).json.errorMsg,
      /Door .* not found/,
    );
    const am = (await ok(`${L}/assignAlertMonitoringLicense`, { licenseUuid: monitoring!.uuid, locationUuid: site.locations.HQ })).alertMonitoringLicense;
    assert.deepEqual([am.locationUuid, am.deviceUuids?.length], [site.locations.HQ, 1], JSON.stringify(am));
    assert.equal((await ok(`${L}/getACUDoorLicenses`, {})).acuDoorLicenses[0].doorUuid, site.doors['Front Door']);
    assert.equal((await ok(`${L}/getAlertMonitoringLicenses`, {})).alertMonitoringLicenses[0].locationUuid, site.locations.HQ);

    const partner = await server().createOrg('Partner Org');
    const key = await server().createPartnerKey(partner.orgUuid, [org.orgUuid]);
    const asPartner = (path: string, orgUuid: string) => server().call(path, { orgUuid }, { key, scheme: 'partner-api-token' });
    for (const path of [`${L}/getDeviceLicensesForClientOrg`, '/api/partner/getDeviceLicensesForOrg']) {
      const r = (await asPartner(path, org.orgUuid)).json;
      assert.equal(r.deviceLicenses?.length, 4, JSON.stringify(r));
      assert.equal((await asPartner(path, other.orgUuid)).json.error, true, 'not a client');
    }
    assert.equal((await asPartner('/api/partner/getLicensesForOrg', org.orgUuid)).json.licenses.length, 1);
    assert.equal((await asPartner(`${L}/getACUDoorLicensesForClientOrg`, org.orgUuid)).json.acuDoorLicenses.length, 1);
    assert.equal((await asPartner(`${L}/getAlertMonitoringLicensesForClientOrg`, org.orgUuid)).json.alertMonitoringLicenses.length, 1);
  });
});
