import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { expectDenied, readOnlyKey } from '../../helpers/org-structure.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { changesDuring, nobodysUuid } from '../config/config-site.js';
import { control } from '../control/admin.js';
import { seedRulesSite, startReceiver, waitFor, type RulesSite } from './fixtures.js';
import { assertFails, assertOk } from '../../helpers/api.js';
import { outboxIdle } from '../../helpers/outbox-idle.js';

const OUTBOX_FAST = { GATEHOUSE_OUTBOX_POLL_MS: '50', GATEHOUSE_OUTBOX_BASE_DELAY_MS: '100', GATEHOUSE_OUTBOX_MAX_DELAY_MS: '200' };

forEachDialect('general rules: CRUD, pauses, firing on device activity, records', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: RulesSite;
  let otherSite: RulesSite;
  before(async () => {
    server = await startTestServer(dialect, { env: OUTBOX_FAST });
    org = await server.createOrg('General Rules Org');
    other = await server.createOrg('Other Org');
    site = await seedRulesSite(server, org.orgUuid);
    otherSite = await seedRulesSite(server, other.orgUuid);
  });
  after(() => server.close());
  const call = (path: string, body: unknown, key = org.apiKey) => server.call(path, body, { key });
  const doorTrigger = (activity = 'AC_DPI_DOOR_OPEN', door = site.doors['Back Door']) => ({
    type: 'DEVICE_ACTIVITY_EVENT',
    activityEvent: { activityEvent: activity },
    componentCompositeUuids: [door],
  });
  const create = async (rule: Record<string, unknown>, key = org.apiKey): Promise<string> => {
    const r = await call('/api/rules/createRule', { rule }, key);
    assertOk(r);
    return r.json.ruleUuid;
  };
  const rulesOf = async (key = org.apiKey) => (await call('/api/rules/getRulesForOrg', {}, key)).json.rules as any[];
  const recordsOf = async (ruleUuid: string) => (await call('/api/rulesRecords/getLatestRulesEventRecords', { ruleUuid })).json.rulesEventRecords as any[];
  const openDoor = async (door = site.doors['Back Door']) => {
    const r = await control(server, '/simulate/door', { door, position: 'OPEN' });
    assert.equal(r.json?.error, false, r.text);
    return r.json.event;
  };

  describe('POST /api/rules/createRule, getRulesForOrg, getRulesFiltered, updateRule, deleteRule', () => {
    it('requires authentication', async () => {
      assert.equal((await server.call('/api/rules/createRule', { rule: {} }, { key: '' })).status, 401);
    });

    it('keeps the rule, answers it with secrets masked, finds it by door, and announces each change', async () => {
      let uuid = '';
      const changes = await changesDuring(server, async () => {
        uuid = await create({
          name: 'Door opened',
          triggers: [doorTrigger()],
          ruleFilters: { scheduleUuids: [site.schedules['Business Hours']], triggerBackoffSecs: 5 },
          action: {
            webhookActions: [
              {
                webhookUrl: 'https://hooks.example.com/x',
                oauthUrl: 'https://auth.example.com/t',
                oauthClientId: 'c',
                oauthClientSecret: 'very-secret-value-1234',
              },
            ],
          },
        });
        assertOk(await call('/api/rules/updateRule', { ruleUpdate: { uuid, name: 'Back door opened' } }));
      });
      const found = (await rulesOf()).find((r) => r.uuid === uuid);
      assert.equal(found.name, 'Back door opened');
      assert.equal(found.ruleType, 'USER_DEFINED');
      assert.equal(found.conjunction, 'OR');
      assert.deepEqual(found.triggers, [doorTrigger()]);
      assert.deepEqual(found.ruleFilters, { scheduleUuids: [site.schedules['Business Hours']], triggerBackoffSecs: 5 });
      assert.equal(found.action.webhookActions[0].webhookUrl, 'https://hooks.example.com/x');
      assert.notEqual(found.action.webhookActions[0].oauthClientSecret, 'very-secret-value-1234', 'the secret is masked');
      assert.deepEqual(
        changes.filter((c) => c.entity === 'RULE').map((c) => [c.type, c.entityUuid]),
        [
          ['CREATE', uuid],
          ['UPDATE', uuid],
        ],
      );
      assert.ok(!JSON.stringify(changes).includes('very-secret-value-1234'), 'no secret on the stream');
      const byDoor = await call('/api/rules/getRulesFiltered', { associatedUuids: [site.doors['Back Door']], ruleTypeFilter: ['USER_DEFINED'] });
      assert.ok(byDoor.json.rules.some((r: any) => r.uuid === uuid));
      const byOther = await call('/api/rules/getRulesFiltered', { associatedUuids: [site.doors['Vault Door']] });
      assert.ok(!byOther.json.rules.some((r: any) => r.uuid === uuid));
      const deleted = await changesDuring(server, async () => assertOk(await call('/api/rules/deleteRule', { ruleUuid: uuid })));
      assert.ok(!(await rulesOf()).some((r) => r.uuid === uuid));
      assert.deepEqual(
        deleted.filter((c) => c.entity === 'RULE').map((c) => c.type),
        ['DELETE'],
      );
    });

    it('refuses rules it cannot evaluate or that name what the organization lacks, and keeps nothing', async () => {
      const action = { alertAction: true };
      assertFails(await call('/api/rules/createRule', { rule: { name: 'x', triggers: [], action } }), 'rule.triggers: give at least one trigger');
      assertFails(
        await call('/api/rules/createRule', { rule: { name: 'x', triggers: [{ type: 'SCHEDULED_EVENT' }], action } }),
        'rule.triggers[0].type: only DEVICE_ACTIVITY_EVENT triggers are evaluated, not SCHEDULED_EVENT',
      );
      assertFails(
        await call('/api/rules/createRule', { rule: { name: 'x', triggers: [{ type: 'DEVICE_ACTIVITY_EVENT' }], action } }),
        'rule.triggers[0].activityEvent.activityEvent: required',
      );
      const foreignDoor = otherSite.doors['Back Door'];
      assertFails(
        await call('/api/rules/createRule', { rule: { name: 'x', triggers: [doorTrigger('AC_DPI_DOOR_OPEN', foreignDoor)], action } }),
        `rule.triggers[0].componentCompositeUuids[0]: Door ${foreignDoor} not found`,
      );
      assertFails(await call('/api/rules/createRule', { rule: { name: 'x', triggers: [doorTrigger()], action: {} } }), 'rule.action: give at least one action');
      assert.equal((await call('/api/rules/createRule', { rule: { name: 'x', triggers: [{ type: 'NOPE' }], action } })).status, 400);
      assert.ok(!(await rulesOf()).some((r) => r.name === 'x'));
    });

    it("answers another organization's rule exactly as an unknown one, and changes nothing", async () => {
      const theirs = await create(
        { name: 'Theirs', triggers: [doorTrigger('AC_DPI_DOOR_OPEN', otherSite.doors['Back Door'])], action: { alertAction: true } },
        other.apiKey,
      );
      assert.ok(!(await rulesOf()).some((r) => r.uuid === theirs));
      for (const uuid of [theirs, nobodysUuid()]) {
        assertFails(await call('/api/rules/updateRule', { ruleUpdate: { uuid, name: 'Mine' } }), 'Rule not found');
        assertFails(await call('/api/rules/deleteRule', { ruleUuid: uuid }), 'Rule not found');
        assertFails(await call('/api/rules/pauseRule', { ruleUuid: uuid, durationSec: 60 }), 'Rule not found');
      }
      assert.equal((await rulesOf(other.apiKey)).find((r) => r.uuid === theirs).name, 'Theirs');
      assert.deepEqual((await call('/api/rules/getRulePauseSettings', {}, other.apiKey)).json.rulesPausedMap, {});
    });

    it('keeps a schedule it filters on from being deleted, and skips events outside it', async () => {
      const made = await call('/api/policy/createSchedule', { schedule: { name: 'Never now', intervalList: [{ minuteOfWeekStart: 0, minuteOfWeekStop: 1 }] } });
      assertOk(made);
      const schedule = made.json.scheduleUuid;
      const uuid = await create({
        name: 'Filtered',
        triggers: [doorTrigger('AC_DPI_DOOR_CLOSED')],
        ruleFilters: { scheduleUuids: [schedule] },
        action: { liveNotificationAction: true },
      });
      assertFails(await call('/api/policy/deleteSchedule', { scheduleUuid: schedule }), 'Schedule "Never now" is in use by rule "Filtered"');
      const sentinel = await create({ name: 'Zz closed sentinel', triggers: [doorTrigger('AC_DPI_DOOR_CLOSED')], action: { liveNotificationAction: true } });
      // Monday 00:00:30 New York is inside [0, 1); Tuesday is not.
      const tuesday = Date.UTC(2024, 0, 9, 15, 0);
      assert.equal((await control(server, '/simulate/door', { door: site.doors['Back Door'], position: 'CLOSED', at: tuesday })).json.error, false);
      await waitFor('the sentinel firing', async () => (await recordsOf(sentinel)).length === 1);
      assert.equal((await recordsOf(uuid)).length, 0, 'outside its schedule the rule did not fire');
      await call('/api/rules/deleteRule', { ruleUuid: uuid });
      await call('/api/rules/deleteRule', { ruleUuid: sentinel });
      assertOk(await call('/api/policy/deleteSchedule', { scheduleUuid: schedule }));
    });

    it('refuses writes of a read-only user with 403', async () => {
      const reader = await readOnlyKey(server, org);
      expectDenied(await call('/api/rules/createRule', { rule: { name: 'r', triggers: [doorTrigger()], action: { alertAction: true } } }, reader));
      assertOk(await call('/api/rules/getRulesForOrg', {}, reader));
    });
  });

  describe('firing: a rule on a door event runs its actions; a paused rule does not fire', () => {
    it('delivers the webhook of a rule on the door opening, and records the firing with its outcomes', async () => {
      const receiver = await startReceiver();
      try {
        const uuid = await create({ name: 'Hook on open', triggers: [doorTrigger()], action: { webhookActions: [{ webhookUrl: `${receiver.url}/door` }] } });
        const event = await openDoor();
        await waitFor('the delivery', () => receiver.received.length === 1);
        const body = JSON.parse(receiver.received[0].body);
        assert.deepEqual(
          [body.type, body.ruleUuid, body.activities, body.componentCompositeUuid],
          ['RULE_FIRED', uuid, ['AC_DPI_DOOR_OPEN'], site.doors['Back Door']],
        );
        const [record] = await waitFor('the completed record', async () => {
          const got = await recordsOf(uuid);
          return got.length === 1 && got[0].actionOutcomes.length === 1 ? got : null;
        });
        assert.equal(record.ruleUuid, uuid);
        assert.equal(record.orgUuid, org.orgUuid);
        assert.deepEqual(record.deviceEventRecords[0].activities, ['AC_DPI_DOOR_OPEN']);
        assert.equal(record.deviceEventRecords[0].eventUuid, event.uuid);
        assert.deepEqual(record.actionOutcomes, [{ action: 'webhookActions[0]', status: 'QUEUED', detail: `delivery msg_${record.uuid}_0` }]);
        assert.deepEqual(record.webhookActionStatuses, { [`${receiver.url}/door`]: true });
        // The other door's events and other activities do not fire it.
        await openDoor(site.doors['Vault Door']);
        await call('/api/rules/deleteRule', { ruleUuid: uuid });
      } finally {
        await receiver.close();
      }
    });

    it('fires a rule on a policy alert (motion), raising its own alert as CUSTOM, which fires nothing further', async () => {
      const uuid = await create({
        name: 'Motion alert',
        triggers: [{ type: 'DEVICE_ACTIVITY_EVENT', activityEvent: { activityEvent: 'MOTION' }, deviceUuids: [site.cameras.Lobby] }],
        action: { alertAction: true },
      });
      const raised = await control(server, '/simulate/alert', { device: site.cameras.Lobby, trigger: 'MOTION' });
      assert.equal(raised.json.error, false, raised.text);
      const [record] = await waitFor('the record', async () => {
        const got = await recordsOf(uuid);
        return got.length === 1 && got[0].alertActionRecord ? got : null;
      });
      assert.equal(record.alertActionRecord.status, 'SUCCESS');
      const alert = await call('/api/event/getPolicyAlertV2', { policyAlertUuid: record.alertActionRecord.policyAlertUuid });
      assert.deepEqual(alert.json.policyAlert.policyAlertTriggers, ['CUSTOM'], alert.text);
      assert.equal(alert.json.policyAlert.deviceUuid, site.cameras.Lobby);
      assert.equal((await recordsOf(uuid)).length, 1, 'the CUSTOM alert did not fire the rule again');
      await call('/api/rules/deleteRule', { ruleUuid: uuid });
    });

    it('fires a rule with a back-off once for events that come together, leaving no record or delivery of the others', async () => {
      const receiver = await startReceiver();
      try {
        const backoff = await create({
          name: 'Alpha back-off',
          triggers: [doorTrigger()],
          ruleFilters: { triggerBackoffSecs: 3600 },
          action: { webhookActions: [{ webhookUrl: `${receiver.url}/backoff` }] },
        });
        const sentinel = await create({ name: 'Zulu sentinel', triggers: [doorTrigger()], action: { liveNotificationAction: true } });
        // The events' firings run side by side: each passes the back-off as it reads the rule, and all but one
        // must lose the claim and roll back whole.
        const events = 8;
        await Promise.all(Array.from({ length: events }, () => openDoor()));
        // Rules are evaluated by name: once the sentinel (Zulu) fired on every event, the back-off rule was too.
        await waitFor('the sentinel firings', async () => (await recordsOf(sentinel)).length === events);
        await waitFor('the delivery', () => receiver.received.length >= 1);
        assert.equal((await recordsOf(backoff)).length, 1, 'one firing within the back-off');
        await outboxIdle(server.gatehouse.deps, org.orgUuid);
        const deliveries = await server.gatehouse.deps.store.db
          .selectFrom('outbox_deliveries')
          .select('id')
          .where('org_uuid', '=', org.orgUuid)
          .where('target_url', '=', `${receiver.url}/backoff`)
          .execute();
        assert.equal(deliveries.length, 1, 'one delivery enqueued');
        assert.equal(receiver.received.length, 1);
        await call('/api/rules/deleteRule', { ruleUuid: backoff });
        await call('/api/rules/deleteRule', { ruleUuid: sentinel });
      } finally {
        await receiver.close();
      }
    });

    it('does not fire a paused rule until the pause is deleted; pauses are listed and announced', async () => {
      const paused = await create({ name: 'Alpha paused', triggers: [doorTrigger()], action: { liveNotificationAction: true } });
      const sentinel = await create({ name: 'Zulu sentinel', triggers: [doorTrigger()], action: { liveNotificationAction: true } });
      const changes = await changesDuring(server, async () => assertOk(await call('/api/rules/pauseRule', { ruleUuid: paused, durationSec: 3600 })));
      const pause = changes.find((c) => c.entity === 'RULE_PAUSE');
      assert.ok(pause && pause.type === 'CREATE');
      const settings = (await call('/api/rules/getRulePauseSettings', {})).json.rulesPausedMap;
      assert.deepEqual(Object.keys(settings), [paused]);
      assert.equal(settings[paused][0].durationSecs, 3600);
      assert.equal(settings[paused][0].uuid, pause.entityUuid);

      await openDoor();
      // Rules are evaluated by name: once the sentinel (Zulu) has fired, the paused rule (Alpha) was passed over.
      await waitFor('the sentinel firing', async () => (await recordsOf(sentinel)).length === 1);
      assert.equal((await recordsOf(paused)).length, 0, 'the paused rule did not fire');

      assertFails(await call('/api/rules/deleteRulePauseSetting', { uuid: pause.entityUuid }, other.apiKey), 'Rule pause setting not found');
      assertOk(await call('/api/rules/deleteRulePauseSetting', { uuid: pause.entityUuid }));
      assert.deepEqual((await call('/api/rules/getRulePauseSettings', {})).json.rulesPausedMap, {});
      await openDoor();
      await waitFor('the rule firing once unpaused', async () => (await recordsOf(paused)).length === 1);
    });
  });

  describe('POST /api/rulesRecords/getRulesEventRecords and deleteRulesEventRecord', () => {
    it('answers records newest first within the range, hides them from other organizations, and deletes them', async () => {
      const uuid = await create({
        name: 'Recorded',
        triggers: [doorTrigger('AC_DPI_DOOR_OPEN', site.doors['Vault Door'])],
        action: { liveNotificationAction: true },
      });
      await openDoor(site.doors['Vault Door']);
      await waitFor('the first record', async () => (await recordsOf(uuid)).length === 1);
      await openDoor(site.doors['Vault Door']);
      const two = await waitFor('the second record', async () => {
        const got = await recordsOf(uuid);
        return got.length === 2 ? got : null;
      });
      assert.ok(two[0].triggeredTimestampMs >= two[1].triggeredTimestampMs, 'newest first');
      const byDoor = await call('/api/rulesRecords/getRulesEventRecords', { associatedUuids: [site.doors['Vault Door']] });
      assert.deepEqual(
        byDoor.json.rulesEventRecords.filter((r: any) => r.ruleUuid === uuid).map((r: any) => r.uuid),
        two.map((r) => r.uuid),
        'found by the door',
      );
      const ranged = await call('/api/rulesRecords/getRulesEventRecords', { associatedUuids: [uuid], startTime: two[0].triggeredTimestampMs });
      assert.ok(ranged.json.rulesEventRecords.some((r: any) => r.uuid === two[0].uuid));
      const before = await call('/api/rulesRecords/getRulesEventRecords', { associatedUuids: [uuid], endTime: two[1].triggeredTimestampMs });
      assert.equal(before.json.rulesEventRecords.length, 0);
      const theirs = await call('/api/rulesRecords/getRulesEventRecords', { associatedUuids: [uuid] }, other.apiKey);
      assert.deepEqual(theirs.json.rulesEventRecords, []);
      assertFails(await call('/api/rulesRecords/deleteRulesEventRecord', { uuid: two[0].uuid }, other.apiKey), 'Rules event record not found');
      const changes = await changesDuring(server, async () => assertOk(await call('/api/rulesRecords/deleteRulesEventRecord', { uuid: two[0].uuid })));
      assert.deepEqual(
        changes.filter((c) => c.entity === 'RULES_EVENT_RECORD').map((c) => [c.type, c.entityUuid]),
        [['DELETE', two[0].uuid]],
      );
      assert.deepEqual(
        (await recordsOf(uuid)).map((r) => r.uuid),
        [two[1].uuid],
      );
    });

    it('records button rule firings too', async () => {
      const r = await call('/api/button/createRuleForButton', {
        rule: { sensorUuid: site.sensors.Spare, triggerPress: 'SINGLE', action: { liveNotificationAction: true } },
      });
      assertOk(r);
      const pressed = await control(server, '/simulate/press', { button: site.sensors.Spare, press: 'SINGLE' });
      assert.equal(pressed.json.error, false, pressed.text);
      const [record] = await recordsOf(r.json.ruleUuid);
      assert.deepEqual(record.deviceEventRecords[0].activities, ['BUTTON_SINGLE_PRESSED']);
      assert.deepEqual(record.actionOutcomes, [{ action: 'liveNotificationAction', status: 'SUCCESS', detail: record.actionOutcomes[0].detail }]);
      assert.equal(record.liveNotificationActionRecord.status, 'SUCCESS');
    });
  });
});
