import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { callApi, startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { FAST_WEBHOOKS, seedWebhookSite, settle, simulate, type WebhookSite } from './fixtures.js';

const SUBSCRIBE = '/api/integrations/webhooks/subscribeZapierWebhook';
const UNSUBSCRIBE = '/api/integrations/webhooks/unsubscribeZapierWebhook';

forEachDialect('Event subscriptions (subscribeZapierWebhook)', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: WebhookSite;
  let otherSite: WebhookSite;
  const receivers: Receiver[] = [];
  before(async () => {
    server = await startTestServer(dialect, { env: FAST_WEBHOOKS });
    org = await server.createOrg('Zap Org');
    other = await server.createOrg('Other Org');
    site = await seedWebhookSite(server, org.orgUuid);
    otherSite = await seedWebhookSite(server, other.orgUuid);
  });
  after(async () => {
    await server.close();
    await Promise.all(receivers.map((r) => r.close()));
  });
  const call = (path: string, body: unknown = {}, key = org.apiKey) => server.call(path, body, { key });

  async function subscribe(body: Record<string, unknown>, key = org.apiKey): Promise<{ receiver: Receiver; webhookId: string }> {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const r = await call(SUBSCRIBE, { hookUrl: `${receiver.url}/zap`, ...body }, key);
    assert.equal(r.json.error, false, r.text);
    assert.match(r.json.webhookId, /^[A-Za-z0-9_-]{22}$/);
    return { receiver, webhookId: r.json.webhookId };
  }

  describe('subscribeZapierWebhook', () => {
    it('answers 401 without a key, and a clear error for a missing, empty or malformed body', async () => {
      assert.equal((await callApi(server.rest, SUBSCRIBE, { hookUrl: 'http://127.0.0.1:9/x', zapEnum: 'BUTTON_EVENTS' })).status, 401);
      const none = await fetch(server.rest + SUBSCRIBE, { method: 'POST', headers: { 'x-auth-apikey': org.apiKey } });
      const noneBody = await none.json();
      assert.equal(noneBody.error, true, JSON.stringify(noneBody));
      assert.match(noneBody.errorMsg, /body|hookUrl/i);
      const emptyJson = await fetch(server.rest + SUBSCRIBE, { method: 'POST', headers: { 'x-auth-apikey': org.apiKey, 'content-type': 'application/json' } });
      const emptyBody = await emptyJson.json();
      assert.equal(emptyBody.error, true);
      assert.match(emptyBody.errorMsg, /body|hookUrl/i);
      const empty = await call(SUBSCRIBE, {});
      assert.deepEqual([empty.status, empty.json.error, empty.json.errorMsg], [200, true, 'hookUrl: required']);
      const noKind = await call(SUBSCRIBE, { hookUrl: 'http://127.0.0.1:9/x' });
      assert.match(noKind.json.errorMsg, /zapEnum: required/);
      assert.equal((await call(SUBSCRIBE, { hookUrl: 'http://127.0.0.1:9/x', zapEnum: 'PIGEON_EVENTS' })).status, 400);
      const range = await call(SUBSCRIBE, {
        hookUrl: 'http://127.0.0.1:9/x',
        zapEnum: 'ENVIRONMENTAL_SENSOR_EVENTS',
        tempLowerThreshold: 30,
        tempUpperThreshold: 10,
      });
      assert.equal(range.json.error, true);
    });

    it("refuses another organization's device as unknown", async () => {
      const theirs = await call(SUBSCRIBE, { hookUrl: 'http://127.0.0.1:9/x', zapEnum: 'BUTTON_EVENTS', uuids: [otherSite.sensors.Panic] });
      const unknown = await call(SUBSCRIBE, { hookUrl: 'http://127.0.0.1:9/x', zapEnum: 'BUTTON_EVENTS', uuids: ['AAAAAAAAAAAAAAAAAAAAAA'] });
      assert.deepEqual([theirs.json.error, unknown.json.error], [true, true]);
      assert.equal(theirs.json.errorMsg.replace(otherSite.sensors.Panic, 'X'), unknown.json.errorMsg.replace('AAAAAAAAAAAAAAAAAAAAAA', 'X'));
    });
  });

  describe('delivery', () => {
    it('BUTTON_EVENTS: only presses of the listed buttons', async () => {
      const { receiver, webhookId } = await subscribe({ zapEnum: 'BUTTON_EVENTS', uuids: [site.sensors.Panic] });
      const all = await subscribe({ zapEnum: 'BUTTON_EVENTS' });
      await simulate(server, 'press', { button: site.sensors.Spare, press: 'SINGLE' });
      const pressed = await simulate(server, 'press', { button: site.sensors.Panic, press: 'DOUBLE' });
      const [got] = await receiver.waitFor(1);
      await all.receiver.waitFor(2);
      await settle();
      assert.equal(receiver.requests.length, 1);
      assert.deepEqual([got.json.webhookId, got.json.zapEnum, got.json.orgUuid], [webhookId, 'BUTTON_EVENTS', org.orgUuid]);
      assert.deepEqual([got.json.buttonEvent.uuid, got.json.buttonEvent.buttonPress], [pressed.event.uuid, 'DOUBLE']);
      assert.match(String(got.headers['webhook-id']), /^msg_/);
      assert.equal(got.headers['webhook-signature'], undefined, 'a subscription has no secret');
      assert.equal(all.receiver.requests.length, 2);
    });

    it('DOOR_SENSOR_EVENTS: door position changes of the listed door, to the given state', async () => {
      const { receiver } = await subscribe({ zapEnum: 'DOOR_SENSOR_EVENTS', uuids: [site.doors['Front Door']], doorState: 'OPEN' });
      await simulate(server, 'door', { door: site.doors['Back Door'], position: 'OPEN' });
      await simulate(server, 'door', { door: site.doors['Front Door'], position: 'CLOSED' });
      await simulate(server, 'door', { door: site.doors['Front Door'], position: 'OPEN' });
      const [got] = await receiver.waitFor(1);
      await settle();
      assert.equal(receiver.requests.length, 1);
      assert.deepEqual([got.json.doorEvent.componentCompositeUuid, got.json.doorEvent.newState], [site.doors['Front Door'], 'OPEN']);
    });

    it('ENVIRONMENTAL_SENSOR_EVENTS: readings outside the thresholds', async () => {
      const { receiver } = await subscribe({ zapEnum: 'ENVIRONMENTAL_SENSOR_EVENTS', uuids: [site.sensors.Climate], tempUpperThreshold: 40 });
      await simulate(server, 'reading', { sensor: site.sensors.Climate, tempC: 35 });
      await simulate(server, 'reading', { sensor: site.sensors.Climate, tempC: 45 });
      const [got] = await receiver.waitFor(1);
      await settle();
      assert.equal(receiver.requests.length, 1);
      assert.equal(got.json.policyAlert.tempC, 45);
    });

    it('RULE_EVENTS: firings of the listed rule; the back-off holds back the next one', async () => {
      const rule = await call('/api/button/createRuleForButton', {
        rule: { triggerPress: 'LONG', sensorUuid: site.sensors.Spare, action: { liveNotificationAction: true }, ruleFilters: { triggerBackoffSecs: 0 } },
      });
      assert.equal(rule.json.error, false, rule.text);
      const { receiver } = await subscribe({ zapEnum: 'RULE_EVENTS', uuids: [rule.json.ruleUuid], backoffSec: 3600 });
      await simulate(server, 'press', { button: site.sensors.Spare, press: 'LONG' });
      const [got] = await receiver.waitFor(1);
      assert.equal(got.json.ruleFiring.ruleUuid, rule.json.ruleUuid);
      const second = await simulate(server, 'press', { button: site.sensors.Spare, press: 'LONG' });
      assert.equal(second.firings.length, 1, 'the rule fired again');
      await settle();
      assert.equal(receiver.requests.length, 1, 'within the back-off');
    });

    it("unsubscribe stops deliveries; another organization's webhookId is not found and stays", async () => {
      const { receiver, webhookId } = await subscribe({ zapEnum: 'BUTTON_EVENTS', uuids: [site.sensors.Panic] });
      const theirs = await call(UNSUBSCRIBE, { webhookId }, other.apiKey);
      assert.deepEqual([theirs.json.error, theirs.json.errorMsg], [true, 'Webhook subscription not found']);
      await simulate(server, 'press', { button: site.sensors.Panic, press: 'SINGLE' });
      await receiver.waitFor(1);
      assert.equal((await call(UNSUBSCRIBE, { webhookId })).json.error, false);
      assert.equal((await call(UNSUBSCRIBE, { webhookId })).json.error, true);
      await simulate(server, 'press', { button: site.sensors.Panic, press: 'SINGLE' });
      await settle();
      assert.equal(receiver.requests.length, 1);
    });
  });
});
