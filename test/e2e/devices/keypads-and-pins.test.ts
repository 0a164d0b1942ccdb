import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, changesDuring, createSiteOrg, nobodysUuid, type SiteOrg } from '../config/config-site.js';
import { control } from '../control/admin.js';
import { assertFails, assertOk } from '../../helpers/api.js';

const SITE = {
  locations: [
    { name: 'HQ', timeZone: 'America/New_York', monitoringPin: '2468' },
    { name: 'Annex', timeZone: 'Europe/Berlin' },
  ],
  cameras: [{ name: 'Lobby', location: 'HQ' }],
  sensors: [
    { name: 'Front Pad', kind: 'keypad', location: 'HQ' },
    { name: 'Back Pad', kind: 'keypad', location: 'Annex' },
  ],
};

forEachDialect('keypads and alert monitoring pins', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Keypad Org', SITE);
    other = await createSiteOrg(server, 'Other Org', SITE);
  });
  after(() => server.close());
  const call = (path: string, body: object = {}, key = org.apiKey) => server.call(path, body, { key });
  const keypadsAt = async (location: string, key = org.apiKey) =>
    (await call('/api/keypad/getKeypadsForLocation', { locationUuid: location }, key)).json.keypads as Record<string, unknown>[];
  const activate = async (flags: object = {}) => {
    const r = await control(server, '/simulate/keypad-activation', flags);
    assert.equal(r.json?.error, false, r.text);
    return r.json;
  };

  it('every operation requires authentication', async () => {
    for (const path of [
      '/api/keypad/getKeypadsForLocation',
      '/api/keypad/updateKeypad',
      '/api/keypad/unregisterKeypad',
      '/api/keypad/claimKeypadActivationToken',
      '/api/alertmonitoring/createCustomPinForLocation',
      '/api/alertmonitoring/deletePinForLocation',
      '/api/alertmonitoring/getAlertMonitoringSettingsForLocation',
    ]) {
      assert.equal((await call(path, {}, '')).status, 401, path);
    }
  });

  describe('keypads', () => {
    it('answers the keypads of a location; another organization’s location answers as an unknown one', async () => {
      assert.deepEqual(
        (await keypadsAt(org.site.locations.HQ)).map((k) => [k.name, k.locationName, k.tz, k.connectionState]),
        [['Front Pad', 'HQ', 'America/New_York', 'ONLINE']],
      );
      assertSameAsMissing(
        await call('/api/keypad/getKeypadsForLocation', { locationUuid: other.site.locations.HQ }),
        await call('/api/keypad/getKeypadsForLocation', { locationUuid: nobodysUuid() }),
      );
    });

    it('a simulated keypad asks for a token, an administrator claims it, and the keypad learns it was claimed', async () => {
      const shown = await activate({ platform: 'ANDROID', ipAddress: '10.1.2.3' });
      assert.match(shown.activationToken, /^[A-Z2-9]{12}$/);
      assert.deepEqual(await activate({ token: shown.activationToken }), { error: false, claimed: false, expired: false, keypadUuid: null });
      const changes = await changesDuring(server, async () =>
        assertOk(
          await call('/api/keypad/claimKeypadActivationToken', {
            activationToken: shown.activationToken.toLowerCase(),
            locationUuid: org.site.locations.Annex,
            name: 'Side Pad',
          }),
        ),
      );
      const status = await activate({ token: shown.activationToken });
      assert.equal(status.claimed, true);
      assert.deepEqual(
        changes.map((c) => [c.entity, c.type, c.entityUuid]),
        [['KEYPAD', 'CREATE', status.keypadUuid]],
      );
      const annex = await keypadsAt(org.site.locations.Annex);
      const side = annex.find((k) => k.uuid === status.keypadUuid);
      assert.deepEqual([side?.name, side?.platform, side?.ipAddress, side?.locationName], ['Side Pad', 'ANDROID', '10.1.2.3', 'Annex']);
      assertFails(
        await call(
          '/api/keypad/claimKeypadActivationToken',
          { activationToken: shown.activationToken, locationUuid: other.site.locations.HQ, name: 'Again' },
          other.apiKey,
        ),
        'Activation token not found',
      );
      assert.equal((await keypadsAt(other.site.locations.HQ, other.apiKey)).length, 1, 'a claimed token is claimed once');
      const fresh = await activate({});
      assertFails(
        await call('/api/keypad/claimKeypadActivationToken', { activationToken: fresh.activationToken, locationUuid: other.site.locations.HQ, name: 'x' }),
        'Location not found',
      );
      assert.equal((await activate({ token: fresh.activationToken })).claimed, false, 'a refused claim leaves the token');
      assertFails(
        await call('/api/keypad/claimKeypadActivationToken', { activationToken: 'NOSUCHTOKEN2', locationUuid: org.site.locations.HQ, name: 'x' }),
        'Activation token not found',
      );
    });

    it('updateKeypad sets the fields given and announces the keypad; a refused update changes nothing', async () => {
      const pad = org.site.sensors['Front Pad'];
      const wall = await call('/api/camera/createVideoWall', { videoWall: { displayName: 'Pad wall', deviceList: [`${org.site.cameras.Lobby}.v0`] } });
      assertOk(wall);
      const wallUuid = ((await call('/api/camera/getVideoWalls')).json.videoWalls as { uuid: string; displayName: string }[]).find(
        (w) => w.displayName === 'Pad wall',
      )!.uuid;
      const changes = await changesDuring(server, async () =>
        assertOk(
          await call('/api/keypad/updateKeypad', {
            keypadUuid: pad,
            name: 'Front Pad 2',
            armCountdownSecs: 45,
            buildingAdminPhoneNumber: '+1 555 0100',
            showCallBuildingAdmin: true,
            videoWallUuid: wallUuid,
            floorNumber: 2,
            timeZoneId: 'America/New_York',
          }),
        ),
      );
      assert.deepEqual(
        changes.map((c) => [c.entity, c.type, (c.update as { name: string }).name, (c.update as { locationName: string }).locationName]),
        [['KEYPAD', 'UPDATE', 'Front Pad 2', 'HQ']],
      );
      const k = (await keypadsAt(org.site.locations.HQ)).find((x) => x.uuid === pad)!;
      assert.deepEqual(
        [k.name, k.armCountdownSecs, k.buildingAdminPhoneNumber, k.showCallBuildingAdmin, k.videoWallUuid, k.floorNumber],
        ['Front Pad 2', 45, '+1 555 0100', true, wallUuid, 2],
      );
      const bad = await call('/api/keypad/updateKeypad', { keypadUuid: pad, armCountdownSecs: 601 });
      assert.equal(bad.status, 400);
      assert.match(bad.json.errorMsg, /armCountdownSecs/);
      assertFails(await call('/api/keypad/updateKeypad', { keypadUuid: pad, name: 'x', timeZoneId: 'Europe/Paris' }), /^timeZoneId/);
      assertFails(await call('/api/keypad/updateKeypad', { keypadUuid: pad, name: 'x', videoWallUuid: nobodysUuid() }), 'Video wall not found');
      assert.equal((await keypadsAt(org.site.locations.HQ)).find((x) => x.uuid === pad)!.name, 'Front Pad 2');
      assertSameAsMissing(
        await call('/api/keypad/updateKeypad', { keypadUuid: other.site.sensors['Front Pad'], name: 'x' }),
        await call('/api/keypad/updateKeypad', { keypadUuid: nobodysUuid(), name: 'x' }),
      );
    });

    it('unregisterKeypad removes the keypad, announced as its DELETE', async () => {
      const pad = org.site.sensors['Back Pad'];
      assertSameAsMissing(
        await call('/api/keypad/unregisterKeypad', { keypadUuid: other.site.sensors['Back Pad'] }),
        await call('/api/keypad/unregisterKeypad', { keypadUuid: nobodysUuid() }),
      );
      const changes = await changesDuring(server, async () => assertOk(await call('/api/keypad/unregisterKeypad', { keypadUuid: pad })));
      assert.deepEqual(
        changes.map((c) => [c.entity, c.type, c.entityUuid]),
        [['KEYPAD', 'DELETE', pad]],
      );
      assert.ok(!(await call('/api/keypad/getKeypadsForOrg')).json.keypads.some((k: { uuid: string }) => k.uuid === pad));
      assert.ok(
        (await call('/api/keypad/getKeypadsForOrg', {}, other.apiKey)).json.keypads.some((k: { uuid: string }) => k.uuid === other.site.sensors['Back Pad']),
      );
    });
  });

  describe('alert monitoring pins', () => {
    const settings = async (location = org.site.locations.HQ, key = org.apiKey) =>
      (await call('/api/alertmonitoring/getAlertMonitoringSettingsForLocation', { locationUuid: location }, key)).json.alertMonitoringSettings;

    it('a custom pin is kept as a digest, listed by name only, and switches the monitoring as the location pin does', async () => {
      const hq = org.site.locations.HQ;
      const changes = await changesDuring(server, async () => {
        const r = await call('/api/alertmonitoring/createCustomPinForLocation', {
          locationUuid: hq,
          name: 'Night guard',
          pin: '13579',
          description: 'shift B',
        });
        assertOk(r);
        assert.equal(r.json.alreadyExists, false);
      });
      assert.deepEqual(
        changes.map((c) => [c.entity, c.type, (c.update as { name: string }).name]),
        [['ALERT_MONITORING_PIN', 'CREATE', 'Night guard']],
      );
      assert.ok(!JSON.stringify(changes).includes('13579'), 'the pin never leaves');
      assert.deepEqual((await settings()).pins, [{ name: 'Night guard', description: 'shift B', pin: null }]);
      const stored = await server.gatehouse.deps.store.db.selectFrom('alert_monitoring_pins').select('pin_digest').execute();
      assert.ok(stored.every((r) => !r.pin_digest.includes('13579')));

      for (const pin of ['13579', '2468']) {
        const again = await call('/api/alertmonitoring/createCustomPinForLocation', { locationUuid: hq, name: 'Dup', pin });
        assert.equal(again.json.alreadyExists, true, pin);
      }
      assert.equal((await settings()).pins.length, 1);

      assertOk(await call('/api/alertmonitoring/enableMonitoringForLocation', { locationUuid: hq, pin: '13579' }));
      assert.equal((await settings()).enabled, true);
      assertFails(await call('/api/alertmonitoring/disableMonitoringForLocation', { locationUuid: hq, pin: '99999' }), /does not match/);
      assertOk(await call('/api/alertmonitoring/disableMonitoringForLocation', { locationUuid: hq, pin: '13579' }));
      assert.equal((await settings()).enabled, false);
    });

    it('deletePinForLocation deletes the pin that matches; it then no longer works', async () => {
      const hq = org.site.locations.HQ;
      assertFails(await call('/api/alertmonitoring/deletePinForLocation', { locationUuid: hq, pin: '11111' }), 'Pin not found');
      const changes = await changesDuring(server, async () =>
        assertOk(await call('/api/alertmonitoring/deletePinForLocation', { locationUuid: hq, pin: '13579' })),
      );
      assert.deepEqual(
        changes.map((c) => [c.entity, c.type]),
        [['ALERT_MONITORING_PIN', 'DELETE']],
      );
      assert.deepEqual((await settings()).pins, []);
      assertFails(await call('/api/alertmonitoring/enableMonitoringForLocation', { locationUuid: hq, pin: '13579' }), /does not match/);
    });

    it("another organization's location answers as an unknown one, and its pins are untouched", async () => {
      assertOk(
        await call('/api/alertmonitoring/createCustomPinForLocation', { locationUuid: other.site.locations.HQ, name: 'Theirs', pin: '8642' }, other.apiKey),
      );
      for (const [path, body] of [
        ['/api/alertmonitoring/createCustomPinForLocation', { name: 'x', pin: '1234' }],
        ['/api/alertmonitoring/deletePinForLocation', { pin: '8642' }],
        ['/api/alertmonitoring/getAlertMonitoringSettingsForLocation', {}],
      ] as const) {
        assertSameAsMissing(await call(path, { locationUuid: other.site.locations.HQ, ...body }), await call(path, { locationUuid: nobodysUuid(), ...body }));
      }
      assert.deepEqual(
        (await settings(other.site.locations.HQ, other.apiKey)).pins.map((p: { name: string }) => p.name),
        ['Theirs'],
      );
      const bad = await call('/api/alertmonitoring/createCustomPinForLocation', { locationUuid: org.site.locations.HQ, name: 'x', pin: '12ab' });
      assert.equal(bad.status, 400);
      assert.match(bad.json.errorMsg, /pin/);
    });
  });
});
