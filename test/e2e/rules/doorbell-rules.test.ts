import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import { assertSameAsMissing, changesDuring, createSiteOrg, nobodysUuid, type SiteOrg } from '../config/config-site.js';
import { control } from '../control/admin.js';
import { assertFails, assertOk } from '../../helpers/api.js';

const SITE = {
  locations: [{ name: 'HQ', timeZone: 'America/New_York' }],
  sensors: [
    { name: 'Front Bell', kind: 'doorbell', location: 'HQ' },
    { name: 'Back Bell', kind: 'doorbell', location: 'HQ' },
    { name: 'Air', kind: 'climate', location: 'HQ' },
  ],
};

forEachDialect('doorbell camera rules', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Doorbell Org', SITE);
    other = await createSiteOrg(server, 'Other Org', SITE);
  });
  after(() => server.close());
  const call = (path: string, body: object = {}, key = org.apiKey) => server.call(path, body, { key });
  const bell = (name: string, o: SiteOrg = org) => o.site.sensors[name];
  const press = async (doorbell: string) => {
    const r = await control(server, '/simulate/doorbell', { doorbell });
    assert.equal(r.json?.error, false, r.text);
  };
  const recordsOf = async (ruleUuid: string, key = org.apiKey) =>
    (await call('/api/rulesRecords/getLatestRulesEventRecords', { ruleUuid }, key)).json.rulesEventRecords as {
      deviceEventRecords: { activities: string[]; deviceUuid: string }[];
      actionOutcomes: { action: string; status: string }[];
    }[];
  const rule = (doorbell: string, extra: object = {}) => ({
    rule: { ruleName: 'Ring', doorbellCameraUuid: doorbell, triggerActivity: 'AC_DB_TRIGGERED', action: { alertAction: true }, ...extra },
  });

  it('every operation requires authentication', async () => {
    for (const op of ['createRuleForDoorbellCamera', 'deleteRuleForDoorbellCamera', 'getDoorbellCameraRulesForOrg', 'getRulesForDoorbellCamera']) {
      assert.equal((await call(`/api/doorbellcamera/${op}`, {}, '')).status, 401, op);
    }
  });

  let ruleUuid: string;
  describe('createRuleForDoorbellCamera, getRulesForDoorbellCamera, getDoorbellCameraRulesForOrg', () => {
    it('creates a rule on the camera, announced as a RULE, and reads it back by camera and for the organization', async () => {
      const changes = await changesDuring(server, async () => {
        const r = await call('/api/doorbellcamera/createRuleForDoorbellCamera', rule(bell('Front Bell'), { ruleFilters: { triggerBackoffSecs: 0 } }));
        assertOk(r);
        ruleUuid = r.json.ruleUuid;
      });
      assert.deepEqual(
        changes.map((c) => [c.entity, c.type, c.entityUuid, (c.update as { ruleType: string }).ruleType]),
        [['RULE', 'CREATE', ruleUuid, 'DOORBELL_CAMERA_DEFINED']],
      );
      const rules = (await call('/api/doorbellcamera/getRulesForDoorbellCamera', { doorbellCameraUuid: bell('Front Bell') })).json.rules;
      assert.deepEqual(
        rules.map((r: Record<string, unknown>) => [
          r.ruleUuid,
          r.ruleName,
          r.doorbellCameraUuid,
          r.triggerActivity,
          (r.action as { alertAction: boolean }).alertAction,
        ]),
        [[ruleUuid, 'Ring', bell('Front Bell'), 'AC_DB_TRIGGERED', true]],
      );
      assert.deepEqual((await call('/api/doorbellcamera/getRulesForDoorbellCamera', { doorbellCameraUuid: bell('Back Bell') })).json.rules, []);
      const map = (await call('/api/doorbellcamera/getDoorbellCameraRulesForOrg')).json.doorbellCameraUuidToRulesMap;
      assert.deepEqual(Object.keys(map), [bell('Front Bell')]);
      assert.deepEqual((await call('/api/doorbellcamera/getDoorbellCameraRulesForOrg', {}, other.apiKey)).json.doorbellCameraUuidToRulesMap, {});
    });

    it("refuses another organization's camera as an unknown one, a device that is no doorbell camera, and an activity a press never raises", async () => {
      assertSameAsMissing(
        await call('/api/doorbellcamera/createRuleForDoorbellCamera', rule(bell('Front Bell', other))),
        await call('/api/doorbellcamera/createRuleForDoorbellCamera', rule(nobodysUuid())),
      );
      assertSameAsMissing(
        await call('/api/doorbellcamera/getRulesForDoorbellCamera', { doorbellCameraUuid: bell('Front Bell', other) }),
        await call('/api/doorbellcamera/getRulesForDoorbellCamera', { doorbellCameraUuid: nobodysUuid() }),
      );
      assertFails(await call('/api/doorbellcamera/createRuleForDoorbellCamera', rule(bell('Air'))), 'Doorbell camera not found');
      assertFails(
        await call('/api/doorbellcamera/createRuleForDoorbellCamera', rule(bell('Front Bell'), { triggerActivity: 'MOTION_HUMAN' })),
        /^rule\.triggerActivity/,
      );
      assertFails(
        await call('/api/doorbellcamera/createRuleForDoorbellCamera', rule(bell('Front Bell'), { action: {} })),
        'rule.action: give at least one action',
      );
      assert.equal(
        (await call('/api/doorbellcamera/getRulesForDoorbellCamera', { doorbellCameraUuid: bell('Front Bell', other) }, other.apiKey)).json.rules.length,
        0,
      );
      assert.equal((await call('/api/doorbellcamera/getRulesForDoorbellCamera', { doorbellCameraUuid: bell('Front Bell') })).json.rules.length, 1);
    });
  });

  describe('what a press does', () => {
    it("a press of the camera fires its rule and runs the rule's actions; a press of another camera does not", async () => {
      await press(bell('Front Bell'));
      const records = await waitFor('the firing', async () => {
        const r = await recordsOf(ruleUuid);
        return r.length === 1 && r[0].actionOutcomes.length > 0 ? r : null;
      });
      assert.deepEqual(records[0].deviceEventRecords[0].deviceUuid, bell('Front Bell'));
      assert.ok(records[0].deviceEventRecords[0].activities.includes('AC_DB_TRIGGERED'));
      assert.deepEqual(
        records[0].actionOutcomes.map((o) => [o.action, o.status]),
        [['alertAction', 'SUCCESS']],
      );
      await press(bell('Back Bell'));
      await press(bell('Front Bell', other));
      await sleep(500);
      assert.equal((await recordsOf(ruleUuid)).length, 1, 'only its own camera fires it');
    });
  });

  describe('deleteRuleForDoorbellCamera', () => {
    it('deletes the rule of that camera, announced; presses then fire nothing', async () => {
      assertFails(await call('/api/doorbellcamera/deleteRuleForDoorbellCamera', { doorbellCameraUuid: bell('Back Bell'), ruleUuid }), 'Rule not found');
      assertSameAsMissing(
        await call('/api/doorbellcamera/deleteRuleForDoorbellCamera', { doorbellCameraUuid: bell('Front Bell', other), ruleUuid }),
        await call('/api/doorbellcamera/deleteRuleForDoorbellCamera', { doorbellCameraUuid: nobodysUuid(), ruleUuid }),
      );
      const changes = await changesDuring(server, async () =>
        assertOk(await call('/api/doorbellcamera/deleteRuleForDoorbellCamera', { doorbellCameraUuid: bell('Front Bell'), ruleUuid })),
      );
      assert.deepEqual(
        changes.map((c) => [c.entity, c.type, c.entityUuid]),
        [['RULE', 'DELETE', ruleUuid]],
      );
      assert.deepEqual((await call('/api/doorbellcamera/getRulesForDoorbellCamera', { doorbellCameraUuid: bell('Front Bell') })).json.rules, []);
      const before = (await recordsOf(ruleUuid)).length;
      await press(bell('Front Bell'));
      await sleep(500);
      assert.equal((await recordsOf(ruleUuid)).length, before);
    });

    it("a deleted doorbell camera's rules go with it", async () => {
      const r = await call('/api/doorbellcamera/createRuleForDoorbellCamera', rule(bell('Back Bell')));
      assertOk(r);
      const changes = await changesDuring(server, async () =>
        assertOk(await call('/api/doorbellcamera/delete', { doorbellCameraUuid: bell('Back Bell'), mummify: false })),
      );
      assert.ok(changes.some((c) => c.entity === 'RULE' && c.type === 'DELETE' && c.entityUuid === r.json.ruleUuid));
      assert.deepEqual((await call('/api/doorbellcamera/getDoorbellCameraRulesForOrg')).json.doorbellCameraUuidToRulesMap, {});
    });
  });
});
