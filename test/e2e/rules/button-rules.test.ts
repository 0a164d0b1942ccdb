import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { createRule, seedRulesSite, type RulesSite } from './fixtures.js';

forEachDialect('button rules: create, read, delete', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: RulesSite;
  let otherSite: RulesSite;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Rules Org');
    other = await server.createOrg('Other Org');
    site = await seedRulesSite(server, org.orgUuid);
    otherSite = await seedRulesSite(server, other.orgUuid);
  });
  after(() => server.close());
  const call = (path: string, body: unknown, key = org.apiKey) => server.call(path, body, { key });
  const create = (rule: Record<string, unknown>, key = org.apiKey) =>
    call('/api/button/createRuleForButton', { rule: { triggerPress: 'SINGLE', ...rule } }, key);

  describe('POST /api/button/createRuleForButton', () => {
    it('requires authentication', async () => {
      const r = await server.call('/api/button/createRuleForButton', { rule: {} }, { key: '' });
      assert.equal(r.status, 401);
    });

    it('stores every field of the rule and answers it from getRulesForButton, secrets masked', async () => {
      const rule = {
        ruleName: 'Panic',
        sensorUuid: site.sensors.Panic,
        triggerPress: 'DOUBLE',
        ruleFilters: { scheduleUuids: [site.schedules['Business Hours']], triggerBackoffSecs: 30 },
        action: {
          alertAction: true,
          liveNotificationAction: true,
          webhookActions: [
            {
              webhookUrl: 'https://hooks.example.com/a',
              headers: { 'x-team': 'blue' },
              oauthUrl: 'https://auth.example.com/token',
              oauthClientId: 'gatehouse',
              oauthClientSecret: 'very-secret-value-1234',
              oauthScope: 'events',
            },
          ],
          thirdPartyAudioPlaybackAction: {
            proxyDeviceUuid: site.audioGateways.Speaker,
            audioFileName: 'alarm.wav',
            username: 'admin',
            password: 'speaker-password-9876',
            playCount: 2,
          },
          changeComponentCompositeAccessStateActions: [
            { componentCompositeUuid: site.doors['Back Door'], accessState: 'UNLOCKED', expirationStrategy: 'TIME_DELAY', expireTimeDelaySeconds: 5 },
          ],
          audioPlaybackActions: [{ audioClipUuid: site.cameras.Lobby, audioGateways: [site.audioGateways.Speaker], playCount: 1 }],
          triggerComponentRelayActions: [{ componentUuid: site.relays['Gate Relay'], state: 'ACTIVE', outputType: 'TRANSIENT', overrideRelayDurationSec: 3 }],
        },
      };
      const created = await create(rule);
      assert.equal(created.json.error, false, created.text);
      const r = await call('/api/button/getRulesForButton', { sensorUuid: site.sensors.Panic });
      assert.equal(r.json.error, false, r.text);
      const [got] = r.json.rules;
      assert.equal(got.ruleUuid, created.json.ruleUuid);
      assert.deepEqual([got.ruleName, got.sensorUuid, got.triggerPress, got.ruleFilters], ['Panic', site.sensors.Panic, 'DOUBLE', rule.ruleFilters]);
      assert.equal(got.action.webhookActions[0].oauthClientSecret, '****1234');
      assert.equal(got.action.thirdPartyAudioPlaybackAction.password, '****9876');
      assert.ok(!r.text.includes('very-secret-value') && !r.text.includes('speaker-password'), 'no secret leaves');
      // Header values are credential-like: sealed at rest and answered masked, names kept.
      assert.deepEqual(got.action.webhookActions[0].headers, { 'x-team': '****' });
      assert.equal(got.action.changeComponentCompositeAccessStateActions[0].expireTimeDelaySeconds, 5);
      assert.equal(got.action.alertAction, true);
    });

    it("refuses a reference that is not the caller's, naming the field, exactly as a missing one", async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ sensorUuid: otherSite.sensors.Panic, action: { alertAction: true } }, 'rule.sensorUuid: button not found'],
        [
          { sensorUuid: site.sensors.Panic, ruleFilters: { scheduleUuids: [otherSite.schedules['Business Hours']] }, action: { alertAction: true } },
          'rule.ruleFilters.scheduleUuids[0]: schedule not found',
        ],
        [
          { sensorUuid: site.sensors.Panic, action: { remoteDoorUnlockActions: [{ doorId: otherSite.doors['Back Door'] }] } },
          'rule.action.remoteDoorUnlockActions[0].doorId: door not found',
        ],
        [
          { sensorUuid: site.sensors.Panic, action: { audioPlaybackActions: [{ audioGateways: [site.cameras.Lobby] }] } },
          'rule.action.audioPlaybackActions[0].audioGateways[0]: audio gateway not found',
        ],
        [
          { sensorUuid: site.sensors.Panic, action: { activateLocationLockdown: { locationUuid: otherSite.locations.HQ } } },
          'rule.action.activateLocationLockdown.locationUuid: location not found',
        ],
        [
          { sensorUuid: site.sensors.Panic, action: { triggerComponentRelayActions: [{ componentUuid: otherSite.relays['Gate Relay'] }] } },
          'rule.action.triggerComponentRelayActions[0].componentUuid: relay not found',
        ],
        [
          { sensorUuid: site.sensors.Panic, action: { customLLMActions: [{ deviceFacetUuids: [`${site.audioGateways.Speaker}.v0`] }] } },
          'rule.action.customLLMActions[0].deviceFacetUuids[0]: camera not found',
        ],
      ];
      for (const [rule, message] of cases) {
        const r = await create(rule);
        assert.deepEqual([r.status, r.json.error, r.json.errorMsg], [200, true, message], JSON.stringify(rule));
      }
    });

    it('refuses URLs that are not http(s), an OAuth webhook without its client, a TIME_DELAY without delay, and an empty action', async () => {
      const hook = (w: Record<string, unknown>) => ({ sensorUuid: site.sensors.Panic, action: { webhookActions: [w] } });
      const cases: Array<[Record<string, unknown>, string]> = [
        [hook({ webhookUrl: 'ftp://example.com/x' }), 'rule.action.webhookActions[0].webhookUrl: must be an http or https URL'],
        [hook({ webhookUrl: 'not a url' }), 'rule.action.webhookActions[0].webhookUrl: not a URL'],
        [
          hook({ webhookUrl: 'https://example.com/x', oauthUrl: 'https://auth.example.com/t' }),
          'rule.action.webhookActions[0]: oauthUrl needs oauthClientId and oauthClientSecret',
        ],
        [
          {
            sensorUuid: site.sensors.Panic,
            action: { changeComponentCompositeAccessStateActions: [{ componentCompositeUuid: site.doors['Back Door'], expirationStrategy: 'TIME_DELAY' }] },
          },
          'rule.action.changeComponentCompositeAccessStateActions[0].expireTimeDelaySeconds: required by TIME_DELAY',
        ],
        [{ sensorUuid: site.sensors.Panic, action: {} }, 'rule.action: give at least one action'],
      ];
      for (const [rule, message] of cases) {
        const r = await create(rule);
        assert.deepEqual([r.json.error, r.json.errorMsg], [true, message]);
      }
    });

    it('refuses an unknown enum value and a malformed body with 400', async () => {
      assert.equal((await create({ sensorUuid: site.sensors.Panic, triggerPress: 'TRIPLE', action: { alertAction: true } })).status, 400);
      assert.equal(
        (await create({ sensorUuid: site.sensors.Panic, action: { remoteDoorUnlockActions: [{ doorId: site.doors['Back Door'], system: 'NOPE' }] } })).status,
        400,
      );
      assert.equal((await call('/api/button/createRuleForButton', { rule: 'nope' })).status, 400);
      assert.equal((await call('/api/button/createRuleForButton', '{not json')).status, 400);
    });
  });

  describe('POST /api/button/getRulesForButton, getButtonRulesForOrg, deleteRuleForButton', () => {
    it("answers null as the organization's button rules, and groups them by button", async () => {
      const spare = await createRule(server, org.apiKey, { sensorUuid: site.sensors.Spare, action: { liveNotificationAction: true } });
      const all = await call('/api/button/getRulesForButton', { sensorUuid: null });
      assert.ok(all.json.rules.some((r: any) => r.ruleUuid === spare));
      assert.ok(all.json.rules.every((r: any) => [site.sensors.Panic, site.sensors.Spare].includes(r.sensorUuid)));
      const map = (await call('/api/button/getButtonRulesForOrg', {})).json.buttonUuidToRulesMap;
      assert.deepEqual(
        map[site.sensors.Spare].map((r: any) => r.ruleUuid),
        [spare],
      );
      assert.equal((await call('/api/button/getButtonRulesForOrg', {}, other.apiKey)).json.buttonUuidToRulesMap[site.sensors.Spare], undefined);
    });

    it("answers another organization's button as not found, and deletes only the caller's rules", async () => {
      const r = await call('/api/button/getRulesForButton', { sensorUuid: site.sensors.Panic }, other.apiKey);
      assert.deepEqual([r.json.error, r.json.errorMsg], [true, 'Button not found']);
      const uuid = await createRule(server, org.apiKey, { sensorUuid: site.sensors.Spare, action: { alertAction: true } });
      const refused = await call('/api/button/deleteRuleForButton', { ruleUuid: uuid }, other.apiKey);
      assert.deepEqual([refused.json.error, refused.json.errorMsg], [true, 'Rule not found']);
      assert.equal((await call('/api/button/deleteRuleForButton', { ruleUuid: uuid, sensorUuid: site.sensors.Spare })).json.error, false);
      const left = (await call('/api/button/getRulesForButton', { sensorUuid: site.sensors.Spare })).json.rules;
      assert.ok(!left.some((r: any) => r.ruleUuid === uuid));
      assert.equal((await call('/api/button/deleteRuleForButton', {})).status, 400);
    });
  });

  describe('POST /api/button/getMinimalButtonStateList', () => {
    it("lists the caller's buttons only", async () => {
      const r = await call('/api/button/getMinimalButtonStateList', {});
      assert.deepEqual(r.json.states.map((s: any) => s.name).sort(), ['Panic', 'Spare']);
      assert.ok(r.json.states.every((s: any) => s.locationUuid === site.locations.HQ));
    });
  });
});
