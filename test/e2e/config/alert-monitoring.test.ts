import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findLocation } from '../../../src/domains/devices/service.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, changesDuring, createSiteOrg, nobodysUuid, type SiteOrg } from './config-site.js';
import { assertFails, assertOk } from '../../helpers/api.js';

forEachDialect('alert monitoring', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Monitoring Org');
    other = await createSiteOrg(server, 'Other Org');
  });
  after(() => server.close());
  const call = (op: string, body: object, key = org.apiKey) => server.call(`/api/alertmonitoring/${op}`, body, { key });
  const status = async (locationUuid: string, key = org.apiKey) => {
    const r = await call('locationStatus', { locationUuid }, key);
    assertOk(r);
    return r.json.status;
  };

  it('every operation requires authentication', async () => {
    for (const op of ['enableMonitoringForLocation', 'disableMonitoringForLocation', 'createPinForLocation', 'locationStatus']) {
      assert.equal((await call(op, { locationUuid: org.site.locations.HQ, pin: '2468' }, '')).status, 401, op);
    }
  });

  describe('POST /api/alertmonitoring/enableMonitoringForLocation and disableMonitoringForLocation', () => {
    it("switch monitoring with the location's pin, and announce each change", async () => {
      const hq = org.site.locations.HQ;
      assert.deepEqual(await status(hq), { enabled: false, enabledOnMs: null, disabledOnMs: null, notEnabledReason: 'monitoring is disabled' });
      const events = await changesDuring(server, async () => assertOk(await call('enableMonitoringForLocation', { locationUuid: hq, pin: '2468' })));
      const on = await status(hq);
      assert.equal(on.enabled, true);
      assert.equal(typeof on.enabledOnMs, 'number');
      assert.equal(on.notEnabledReason, null);
      assert.deepEqual(
        events.map((e) => [e.entity, e.type, e.entityUuid]),
        [['LOCATION', 'UPDATE', hq]],
      );
      assert.deepEqual(events[0].update, { locationUuid: hq, status: on });

      const again = await changesDuring(server, async () => assertOk(await call('enableMonitoringForLocation', { locationUuid: hq, pin: '2468' })));
      assert.deepEqual(again, [], 'enabling an enabled location changes nothing');

      assertOk(await call('disableMonitoringForLocation', { locationUuid: hq, pin: '2468' }));
      const off = await status(hq);
      assert.equal(off.enabled, false);
      assert.equal(off.enabledOnMs, on.enabledOnMs);
      assert.equal(typeof off.disabledOnMs, 'number');
    });

    it('refuse a wrong pin and leave the state', async () => {
      const hq = org.site.locations.HQ;
      assertFails(await call('enableMonitoringForLocation', { locationUuid: hq, pin: '1111' }), "pin: does not match the location's monitoring pin");
      assertFails(await call('enableMonitoringForLocation', { locationUuid: hq, pin: '' }), "pin: does not match the location's monitoring pin");
      assert.equal((await status(hq)).enabled, false);
      assertOk(await call('enableMonitoringForLocation', { locationUuid: hq, pin: '2468' }));
      assertFails(await call('disableMonitoringForLocation', { locationUuid: hq, pin: '2469' }), "pin: does not match the location's monitoring pin");
      assert.equal((await status(hq)).enabled, true);
    });

    it('refuse a location that has no pin yet', async () => {
      const annex = org.site.locations.Annex;
      assert.equal((await status(annex)).notEnabledReason, 'the location has no monitoring pin');
      assertFails(
        await call('enableMonitoringForLocation', { locationUuid: annex, pin: '0000' }),
        'Location "Annex" has no monitoring pin: create one with createPinForLocation',
      );
    });

    it("answer another organization's location exactly as a missing one, even with its right pin", async () => {
      const theirs = other.site.locations.HQ;
      for (const op of ['enableMonitoringForLocation', 'disableMonitoringForLocation']) {
        const foreign = await call(op, { locationUuid: theirs, pin: '2468' });
        assertSameAsMissing(foreign, await call(op, { locationUuid: nobodysUuid(), pin: '2468' }));
        assert.equal(foreign.json.errorMsg, 'Location not found');
      }
      assert.equal((await status(theirs, other.apiKey)).enabled, false);
    });

    it('answer a malformed body with 400', async () => {
      for (const body of [{}, { locationUuid: org.site.locations.HQ }, { pin: '2468' }, { locationUuid: org.site.locations.HQ, pin: 2468 }]) {
        assert.equal((await call('enableMonitoringForLocation', body)).status, 400, JSON.stringify(body));
        assert.equal((await call('disableMonitoringForLocation', body)).status, 400, JSON.stringify(body));
      }
    });
  });

  describe('POST /api/alertmonitoring/createPinForLocation', () => {
    it('answers a new 6-digit pin once, which then switches monitoring; the old pin stops working', async () => {
      const location = await createSiteOrg(server, 'Pin Org', { locations: [{ name: 'Depot', monitoringPin: '4321' }] });
      const depot = location.site.locations.Depot;
      const events = await changesDuring(server, async () => {
        const r = await call('createPinForLocation', { locationUuid: depot, name: 'Night guard' }, location.apiKey);
        assertOk(r);
        assert.match(r.json.pin, /^[0-9]{6}$/);
        assertFails(await call('enableMonitoringForLocation', { locationUuid: depot, pin: '4321' }, location.apiKey), /does not match/);
        assertOk(await call('enableMonitoringForLocation', { locationUuid: depot, pin: r.json.pin }, location.apiKey));
      });
      assert.deepEqual(
        events.map((e) => [e.entity, e.type]),
        [
          ['LOCATION', 'UPDATE'],
          ['LOCATION', 'UPDATE'],
        ],
      );
      const record = await findLocation(server.gatehouse.deps, location.orgUuid, depot);
      assert.deepEqual(events[0].update, record);
      assert.equal(record?.monitoringPinSet, true);
      assert.ok(!JSON.stringify(events[0].update).includes('scrypt'), 'the digest never leaves');
    });

    it('gives a location without a pin its first one', async () => {
      const annex = org.site.locations.Annex;
      const pin = (await call('createPinForLocation', { locationUuid: annex })).json.pin;
      assertOk(await call('enableMonitoringForLocation', { locationUuid: annex, pin }));
      assert.equal((await status(annex)).enabled, true);
    });

    it("answers another organization's location exactly as a missing one, and keeps its pin", async () => {
      const theirs = other.site.locations.HQ;
      assertSameAsMissing(await call('createPinForLocation', { locationUuid: theirs }), await call('createPinForLocation', { locationUuid: nobodysUuid() }));
      assertOk(await call('enableMonitoringForLocation', { locationUuid: theirs, pin: '2468' }, other.apiKey));
    });

    it('answers a malformed body with 400', async () => {
      assert.equal((await call('createPinForLocation', {})).status, 400);
      assert.equal((await call('createPinForLocation', { locationUuid: org.site.locations.HQ, name: 5 })).status, 400);
    });
  });

  describe('POST /api/alertmonitoring/locationStatus', () => {
    it("answers another organization's location exactly as a missing one", async () => {
      assertSameAsMissing(
        await call('locationStatus', { locationUuid: other.site.locations.HQ }),
        await call('locationStatus', { locationUuid: nobodysUuid() }),
      );
    });

    it('answers a malformed body with 400', async () => {
      assert.equal((await call('locationStatus', { locationUuid: 'nope' })).status, 400);
    });
  });
});
