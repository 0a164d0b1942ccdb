import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import type { TestOrg } from '../../helpers/server.js';
import { recordChanges } from '../access-lockdown/fixtures.js';
import { seedEventsSite, simulate, type EventsSite } from '../events/fixtures.js';

/** Policy pauses silence a device's, location's or door's alerts for a window; addendums add activities for one. */
forEachDialect('policy pauses and addendums', (dialect) => {
  const server = useTestServer(dialect);
  let site: EventsSite;
  let other: TestOrg;
  const api = apiAs(server, () => site.org.apiKey, '/api/policy');
  const theirs = apiAs(server, () => other.apiKey, '/api/policy');
  const nowS = () => Math.floor(Date.now() / 1000);
  const alertOn = async (device: string, trigger = 'MOTION', atMs = Date.now()) =>
    (await simulate(server(), 'alert', { device, trigger, at: String(atMs) })).policyAlert;

  before(async () => {
    site = await seedEventsSite(server());
    other = await server().createOrg('Other');
  });

  it("a device pause silences its alerts (and its sensor's readings) for the window; ending it lets them through", async () => {
    const { result, changes } = await recordChanges(server(), () =>
      api.ok('pauseAlertPolicyForDevice', { deviceUuids: [site.lobby, site.air], durationSec: 3600 }),
    );
    assert.equal(result.error, false);
    assert.deepEqual(
      changes.map((c) => [c.entity, c.type]),
      [
        ['POLICY_PAUSE', 'CREATE'],
        ['POLICY_PAUSE', 'CREATE'],
      ],
    );
    assert.equal(await alertOn(site.lobby), null);
    assert.equal((await simulate(server(), 'reading', { sensor: site.air, tempC: '45' })).policyAlert, null);
    assert.ok(await alertOn(site.dock), 'another device still alerts');
    assert.ok(await alertOn(site.lobby, 'MOTION', Date.now() + 3700_000), 'after the window');

    const settings = await api.ok('getPolicyPauseSettings');
    const [pause] = settings.policiesPausedForDevicesMap[site.lobby];
    assert.equal(pause.durationSecs, 3600);
    assert.ok(Math.abs(pause.timestampSec - nowS()) < 60);
    assert.deepEqual([settings.policiesPausedForLocationsMap, settings.policiesPausedForComponentCompositesMap], [{}, {}]);

    assert.match(await theirs.refused('deletePolicyPauseSettingForDevice', { uuid: pause.uuid }), /Policy pause .* not found/);
    assert.match(await api.refused('deletePolicyPauseSettingForLocation', { uuid: pause.uuid }), /not found/, 'a pause of another scope');
    await api.ok('deletePolicyPauseSettingForDevice', { uuid: pause.uuid });
    assert.ok(await alertOn(site.lobby));
    assert.equal(Object.keys((await api.ok('getPolicyPauseSettings')).policiesPausedForDevicesMap).length, 1, "the sensor's pause remains");
  });

  it('a location pause scheduled later covers its window only; targets must be the organization’s', async () => {
    const location = (await api.ok('/api/location/getLocations')).locations[0].uuid;
    await api.ok('pauseAlertPolicyForLocation', { locationUuids: [location], scheduledTimestampSec: nowS() + 7200, durationSec: 600 });
    assert.ok(await alertOn(site.dock), 'before the window');
    assert.equal(await alertOn(site.dock, 'MOTION', (nowS() + 7300) * 1000), null, 'inside the window');

    assert.match(await theirs.refused('pauseAlertPolicyForDevice', { deviceUuids: [site.lobby], durationSec: 60 }), /deviceUuids\[0\]: Device .* not found/);
    assert.match(await theirs.refused('pauseAlertPolicyForLocation', { locationUuids: [location], durationSec: 60 }), /not found/);
    assert.match(await api.refused('pauseAlertPolicyForDevice', { locationUuids: [location], durationSec: 60 }), /deviceUuids: give at least one/);
    assert.equal((await api.call('pauseAlertPolicyForDevice', { deviceUuids: [site.lobby], durationSec: 0 })).status, 400);
    assert.deepEqual((await theirs.ok('getPolicyPauseSettings')).policiesPausedForLocationsMap, {});
  });

  it("an addendum adds activities to a camera's policy for its window", async () => {
    const policyUuid = (await api.ok('createCameraPolicy', { policy: { name: 'Quiet', scheduledTriggers: [] } })).policyUuid;
    await api.ok('/api/camera/updateDetailsV2', { uuid: site.lobby, policyUuid, policyUuidUpdated: true });
    assert.equal(await alertOn(site.lobby), null, 'the policy names no activity');

    await api.ok('createPolicyAddendumsForDevices', { deviceUuids: [site.lobby], activities: ['MOTION'], durationSec: 900 });
    assert.deepEqual((await alertOn(site.lobby)).policyAlertTriggers, ['MOTION']);
    assert.equal(await alertOn(site.lobby, 'MOTION_HUMAN'), null, 'an activity the addendum does not add');
    assert.equal(await alertOn(site.lobby, 'MOTION', Date.now() + 1000_000), null, 'after the window');

    const { deviceAddendumsMap, locationAddendumsMap } = await api.ok('getPolicyAddendums');
    assert.deepEqual(locationAddendumsMap, {});
    const [addendum] = deviceAddendumsMap[site.lobby];
    assert.match(await theirs.refused('deleteDevicePolicyAddendums', { uuids: [addendum.uuid] }), /not found/);
    assert.match(await api.refused('createPolicyAddendumsForDevices', { deviceUuids: [site.lobby], durationSec: 60 }), /activities: give at least one/);
    await api.ok('deleteDevicePolicyAddendums', { uuids: [addendum.uuid] });
    assert.equal(await alertOn(site.lobby), null);
  });
});
