import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ChangeEvent } from '../../../src/store/change-event.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { collect, stompjsClient } from '../streaming/helpers.js';
import { createRule, MONDAY_10AM_NY, MONDAY_8AM_NY, press, seedRulesSite, startReceiver, verifyStandardWebhook, waitFor, type RulesSite } from './fixtures.js';

const OUTBOX_FAST = { GATEHOUSE_OUTBOX_POLL_MS: '50', GATEHOUSE_OUTBOX_BASE_DELAY_MS: '100', GATEHOUSE_OUTBOX_MAX_DELAY_MS: '200' };

forEachDialect('POST /_gatehouse/simulate/press: rules fire and act', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let site: RulesSite;
  const changes: ChangeEvent[] = [];
  before(async () => {
    // Short outbox delays, so that a webhook retried after its target was down arrives within the test.
    server = await startTestServer(dialect, { env: OUTBOX_FAST });
    org = await server.createOrg('Press Org');
    site = await seedRulesSite(server, org.orgUuid);
    server.gatehouse.deps.bus.subscribe('change', (e) => changes.push(e));
  });
  after(() => server.close());
  const call = (path: string, body: unknown) => server.call(path, body, { key: org.apiKey });
  const rule = (action: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    createRule(server, org.apiKey, { sensorUuid: site.sensors.Panic, action, ...extra });
  /** Each test's rules sit on the Panic button; deleting them afterwards keeps the tests independent. */
  async function clearRules() {
    for (const r of (await call('/api/button/getRulesForButton', { sensorUuid: site.sensors.Panic })).json.rules)
      await call('/api/button/deleteRuleForButton', { ruleUuid: r.ruleUuid });
  }

  describe('webhookActions', () => {
    it("POSTs the rule event signed per Standard Webhooks with the organization's secret and the given headers", async () => {
      await clearRules();
      const receiver = await startReceiver();
      try {
        const uuid = await rule({ webhookActions: [{ webhookUrl: `${receiver.url}/hook`, headers: { 'x-team': 'blue' } }] }, { ruleName: 'Hook' });
        const pressed = await press(server, site.sensors.Panic);
        assert.deepEqual(
          pressed.firings.map((f) => [f.ruleUuid, f.outcomes.map((o: any) => [o.action, o.status])]),
          [[uuid, [['webhookActions[0]', 'QUEUED']]]],
        );
        await waitFor('the delivery', () => receiver.received.length === 1);
        const [got] = receiver.received;
        const secret = (await call('/api/button/getWebhookSigningSecret', {})).json.secret;
        assert.match(secret, /^whsec_/);
        assert.ok(verifyStandardWebhook(secret, got), "the signature verifies with the organization's secret");
        assert.equal(got.headers['x-team'], 'blue');
        assert.equal(got.headers['content-type'], 'application/json');
        assert.ok(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000) < 60);
        const body = JSON.parse(got.body);
        assert.deepEqual(
          [body.type, body.ruleUuid, body.ruleName, body.sensorUuid, body.buttonPress, body.pressUuid],
          ['BUTTON_RULE_FIRED', uuid, 'Hook', site.sensors.Panic, 'SINGLE', pressed.event.uuid],
        );

        const rotated = (await call('/api/button/rotateWebhookSigningSecret', {})).json.secret;
        assert.notEqual(rotated, secret);
        await press(server, site.sensors.Panic);
        await waitFor('the second delivery', () => receiver.received.length === 2);
        assert.ok(
          verifyStandardWebhook(rotated, receiver.received[1]) && !verifyStandardWebhook(secret, receiver.received[1]),
          'signed with the rotated secret',
        );
      } finally {
        await receiver.close();
      }
    });

    it('gets a client-credentials token, reuses it while valid, and retries once with a fresh one on 401', async () => {
      await clearRules();
      let issued = 0;
      const tokens = await startReceiver(() => ({ status: 200, json: { access_token: `token-${++issued}`, token_type: 'Bearer', expires_in: 3600 } }));
      let rejectNext = false;
      const target = await startReceiver((r) => {
        if (rejectNext && r.headers.authorization === 'Bearer token-1') return { status: 401 };
        return { status: 200 };
      });
      try {
        await rule({
          webhookActions: [
            {
              webhookUrl: target.url,
              oauthUrl: `${tokens.url}/token`,
              oauthClientId: 'gh client',
              oauthClientSecret: 's3cret:value',
              oauthScope: 'events.write',
            },
          ],
        });
        await press(server, site.sensors.Panic);
        await waitFor('the first delivery', () => target.received.length === 1);
        await press(server, site.sensors.Panic);
        await waitFor('the second delivery', () => target.received.length === 2);
        assert.equal(tokens.received.length, 1, 'the token is cached');
        const form = new URLSearchParams(tokens.received[0].body);
        assert.deepEqual([form.get('grant_type'), form.get('scope')], ['client_credentials', 'events.write']);
        assert.equal(tokens.received[0].headers.authorization, `Basic ${Buffer.from('gh%20client:s3cret%3Avalue').toString('base64')}`);
        assert.deepEqual(
          target.received.map((r) => r.headers.authorization),
          ['Bearer token-1', 'Bearer token-1'],
        );
        rejectNext = true;
        const third = await press(server, site.sensors.Panic);
        assert.equal(third.firings[0].outcomes[0].status, 'QUEUED');
        await waitFor('the retried delivery', () => target.received.length === 4);
        const delivery = await waitFor('the delivery logged as delivered', async () => {
          const d = (await call('/api/integrations/getDeliveryLog', { kind: 'BUTTON_RULE_WEBHOOK' })).json.deliveries[0];
          return d.status === 'DELIVERED' && d;
        });
        assert.equal(delivery.attempts, 1, 'the fresh-token retry is part of one attempt');
        assert.deepEqual(
          target.received.slice(2).map((r) => r.headers.authorization),
          ['Bearer token-1', 'Bearer token-2'],
        );
        assert.equal(target.received[2].headers['webhook-id'], target.received[3].headers['webhook-id'], 'the id is stable across the retry');
      } finally {
        await Promise.all([tokens.close(), target.close()]);
      }
    });

    it('delivers to a target that was down once it is back, exactly once per firing, with the attempts in the delivery log', async () => {
      await clearRules();
      // A port that answers nothing: a receiver is started and closed, and started again on it later.
      const probe = await startReceiver();
      const port = Number(new URL(probe.url).port);
      await probe.close();
      await rule({ webhookActions: [{ webhookUrl: `http://127.0.0.1:${port}/hook` }] });
      const pressed = await press(server, site.sensors.Panic);
      assert.equal(pressed.firings[0].outcomes[0].status, 'QUEUED');
      const log = async () => (await call('/api/integrations/getDeliveryLog', { kind: 'BUTTON_RULE_WEBHOOK' })).json.deliveries[0];
      const failing = await waitFor('two failed attempts', async () => {
        const d = await log();
        return d.attempts >= 2 && d.status === 'PENDING' && d;
      });
      assert.ok(failing.lastError, 'the failed attempt is logged with its error');
      const receiver = await startReceiver(undefined, port);
      try {
        const delivered = await waitFor('the delivery', async () => {
          const d = await log();
          return d.status === 'DELIVERED' && d;
        });
        assert.ok(delivered.attempts > failing.attempts);
        await new Promise((r) => setTimeout(r, 400)); // a duplicate would come within the retry delays
        assert.equal(receiver.received.length, 1, 'delivered exactly once');
        assert.equal(receiver.received[0].headers['webhook-id'], `msg_${pressed.firings[0].uuid}_0`);
        const secret = (await call('/api/button/getWebhookSigningSecret', {})).json.secret;
        assert.ok(verifyStandardWebhook(secret, receiver.received[0]));
      } finally {
        await receiver.close();
      }
    });
  });

  describe('door and lockdown actions', () => {
    it("unlocks a door through the access service, and the relock scheduler relocks it after the TIME_DELAY, not the door's own 300 ms", async () => {
      await clearRules();
      const door = site.doors['Back Door'];
      await rule({
        changeComponentCompositeAccessStateActions: [
          { componentCompositeUuid: door, accessState: 'UNLOCKED', expirationStrategy: 'TIME_DELAY', expireTimeDelaySeconds: 1 },
        ],
      });
      const pressed = await press(server, site.sensors.Panic);
      assert.equal(pressed.firings[0].outcomes[0].status, 'SUCCESS', JSON.stringify(pressed.firings));
      const unlocked = changes.find((c) => c.entity === 'DOOR' && c.entityUuid === door && (c.update as any).lockState === 'UNLOCKED');
      assert.ok(unlocked, 'the door was unlocked');
      const relocked = await waitFor(
        'the relock',
        () => changes.find((c) => c.entity === 'DOOR' && c.entityUuid === door && c.id > unlocked.id && (c.update as any).lockState === 'LOCKED'),
        5000,
      );
      assert.ok(relocked.timestampMs - unlocked.timestampMs >= 900, `relocked after ${relocked.timestampMs - unlocked.timestampMs} ms`);
    });

    it("relocks after a TIME_DELAY shorter than the door's own unlock duration (10 minutes), without a restart", async () => {
      await clearRules();
      const door = site.doors['Vault Door'];
      await rule({
        changeComponentCompositeAccessStateActions: [
          { componentCompositeUuid: door, accessState: 'UNLOCKED', expirationStrategy: 'TIME_DELAY', expireTimeDelaySeconds: 1 },
        ],
      });
      const since = changes.length;
      assert.equal((await press(server, site.sensors.Panic)).firings[0].outcomes[0].status, 'SUCCESS');
      const unlocked = changes.slice(since).find((c) => c.entity === 'DOOR' && c.entityUuid === door && (c.update as any).lockState === 'UNLOCKED');
      assert.ok(unlocked, 'the door was unlocked');
      const relocked = await waitFor(
        'the relock',
        () => changes.slice(since).find((c) => c.entity === 'DOOR' && c.entityUuid === door && (c.update as any).lockState === 'LOCKED'),
        5000,
      );
      assert.ok(relocked.timestampMs - unlocked.timestampMs >= 900, `relocked after ${relocked.timestampMs - unlocked.timestampMs} ms`);
    });

    it('locks the location down so that a badge is refused', async () => {
      await clearRules();
      await rule({ activateLocationLockdown: { locationUuid: site.locations.HQ } }, { triggerPress: 'LONG' });
      const hex = 'c0ffee01';
      const card = await call('/api/accesscontrol/createAccessControlCredentialByHexValueAndType', {
        credentialType: 'STANDARD_CSN',
        hexValue: hex,
        userUuid: site.users.Ada,
      });
      assert.equal(card.json.error, false, card.text);
      assert.equal((await control(server, '/simulate/badge', { door: site.doors['Back Door'], hex })).json.granted, true);
      const pressed = await press(server, site.sensors.Panic, 'LONG');
      assert.equal(pressed.firings[0].outcomes[0].status, 'SUCCESS');
      const refused = (await control(server, '/simulate/badge', { door: site.doors['Back Door'], hex })).json;
      assert.deepEqual([refused.granted, refused.reason], [false, 'LOCATION_LOCKED_DOWN']);
    });
  });

  describe('alerts, notifications, device commands', () => {
    it('raises a policy alert and a live notification, sends commands, and an unreachable webhook does not hold up the others', async () => {
      await clearRules();
      await rule({
        alertAction: true,
        liveNotificationAction: true,
        audioPlaybackActions: [{ audioGateways: [site.audioGateways.Speaker], playCount: 2 }],
        webhookActions: [{ webhookUrl: 'http://127.0.0.1:1/closed' }],
      });
      // Observed as a client sees it: a @stomp/stompjs client over TLS, subscribed to the organization's changes.
      const client = await stompjsClient(server.gatehouse.urls.ws, { key: org.apiKey, scheme: 'api-token' });
      try {
        const sub = await collect(client, `/topic/change/${org.orgUuid}`);
        const pressed = await press(server, site.sensors.Panic);
        const outcomes = Object.fromEntries(pressed.firings[0].outcomes.map((o: any) => [o.action, o.status]));
        assert.deepEqual(outcomes, {
          'webhookActions[0]': 'QUEUED',
          alertAction: 'SUCCESS',
          liveNotificationAction: 'SUCCESS',
          'audioPlaybackActions[0]': 'SUCCESS',
        });
        const seen = () => sub.messages.map((m) => JSON.parse(m.body));
        await waitFor('the firing on the stream', () => seen().some((c) => c.entity === 'BUTTON_RULE_FIRING'));
        const alert = seen().find((c) => c.entity === 'POLICY_ALERT');
        assert.deepEqual([alert?.type, alert?.deviceUuid, alert?.update.policyAlertTriggers], ['CREATE', site.sensors.Panic, ['BUTTON_SINGLE_PRESSED']]);
        const notification = seen().find((c) => c.entity === 'LIVE_NOTIFICATION');
        assert.deepEqual(
          [notification?.type, notification?.update.sensorUuid, notification?.update.firingUuid],
          ['CREATE', site.sensors.Panic, pressed.firings[0].uuid],
        );
        const command = seen().find((c) => c.entity === 'DEVICE_COMMAND');
        assert.deepEqual([command?.deviceUuid, command?.update.command, command?.update.payload.playCount], [site.audioGateways.Speaker, 'PLAY_AUDIO', 2]);
        const firing = seen().find((c) => c.entity === 'BUTTON_RULE_FIRING');
        assert.equal(firing?.update.outcomes.length, 4);
        const recorded = (await call('/api/button/getRuleFiringsForButton', { sensorUuid: site.sensors.Panic })).json.firings[0];
        assert.deepEqual(recorded, pressed.firings[0]);
      } finally {
        await client.deactivate();
      }
    });
  });

  describe('integration actions', () => {
    it("posts a chat message through the organization's chat integration and records an integration command", async () => {
      await clearRules();
      await rule(
        {
          integrationNotificationActions: [{ integration: 'SLACK', notificationTarget: 'front-desk' }],
          integrationCommandActions: [{ integration: 'ZAPIER', commandPayload: '{"zap":"lights"}', delaySecs: 5 }],
        },
        { ruleName: 'Front desk' },
      );
      const unconfigured = await press(server, site.sensors.Panic);
      assert.deepEqual(
        unconfigured.firings[0].outcomes.map((o: any) => [o.action, o.status, o.detail]),
        [
          ['integrationNotificationActions[0]', 'FAILED', 'the organization has no enabled chat integration'],
          ['integrationCommandActions[0]', 'SUCCESS', unconfigured.firings[0].outcomes[1].detail],
        ],
      );
      const chat = await startReceiver();
      try {
        const enabled = await call('/api/integrations/updateChatIntegration', {
          mattermostSettings: { enabled: true, channel: 'security', webhookUrl: `${chat.url}/hooks/chat` },
        });
        assert.equal(enabled.json.error, false, enabled.text);
        const since = changes.length;
        const pressed = await press(server, site.sensors.Panic);
        assert.deepEqual(
          pressed.firings[0].outcomes.map((o: any) => [o.action, o.status]),
          [
            ['integrationNotificationActions[0]', 'QUEUED'],
            ['integrationCommandActions[0]', 'SUCCESS'],
          ],
        );
        await waitFor('the chat post', () => chat.received.length === 1);
        const message = JSON.parse(chat.received[0].body);
        assert.equal(chat.received[0].path, '/hooks/chat');
        assert.equal(message.channel, 'front-desk');
        assert.match(message.text, /Front desk.*SINGLE press of \*\*Panic\*\* at \*\*HQ\*\*/);
        const command = changes.slice(since).find((c) => c.entity === 'INTEGRATION_COMMAND');
        const record = command?.update as any;
        assert.deepEqual(
          [record?.integration, record?.commandPayload, record?.dueAtMs - record?.createdAtMs, record?.firingUuid],
          ['ZAPIER', '{"zap":"lights"}', 5000, pressed.firings[0].uuid],
        );
        await waitFor('the chat delivery logged as delivered', async () => {
          const logged = (await call('/api/integrations/getDeliveryLog', { kind: 'CHAT_BUTTON_RULE' })).json.deliveries;
          return logged.length === 1 && logged[0].status === 'DELIVERED';
        });
      } finally {
        await call('/api/integrations/updateChatIntegration', { mattermostSettings: { enabled: false } });
        await chat.close();
      }
    });
  });

  describe('filters', () => {
    it("fires only for its press type and inside its schedules, on the location's wall clock", async () => {
      await clearRules();
      await rule({ liveNotificationAction: true }, { triggerPress: 'DOUBLE', ruleFilters: { scheduleUuids: [site.schedules['Business Hours']] } });
      assert.equal((await press(server, site.sensors.Panic, 'SINGLE', { at: MONDAY_10AM_NY })).firings.length, 0);
      assert.equal((await press(server, site.sensors.Panic, 'DOUBLE', { at: MONDAY_8AM_NY })).firings.length, 0);
      // 10:00 UTC is 05:00 in New York: outside, though inside Business Hours on a UTC clock.
      assert.equal((await press(server, site.sensors.Panic, 'DOUBLE', { at: Date.UTC(2024, 0, 8, 10, 0) })).firings.length, 0);
      assert.equal((await press(server, site.sensors.Panic, 'DOUBLE', { at: MONDAY_10AM_NY })).firings.length, 1);
      const events = (
        await call('/api/button/getButtonPressEventsForSensor', {
          sensorUuid: site.sensors.Panic,
          createdAfterMs: MONDAY_8AM_NY - 1,
          createdBeforeMs: MONDAY_10AM_NY + 1,
        })
      ).json.events;
      assert.deepEqual(
        events.map((e: any) => e.timestampMs),
        [MONDAY_10AM_NY, MONDAY_10AM_NY, MONDAY_8AM_NY],
        'newest first, inside the range',
      );
      assert.deepEqual(events.map((e: any) => e.buttonPress).sort(), ['DOUBLE', 'DOUBLE', 'SINGLE']);
    });

    it('fires once within its back-off, even for presses evaluated at the same time', async () => {
      await clearRules();
      await rule({ liveNotificationAction: true }, { ruleFilters: { triggerBackoffSecs: 60 } });
      const results = await Promise.all(Array.from({ length: 5 }, () => press(server, site.sensors.Panic)));
      assert.equal(
        results.reduce((n, r) => n + r.firings.length, 0),
        1,
      );
      assert.equal((await press(server, site.sensors.Panic)).firings.length, 0);
    });

    it('keeps a schedule that a rule uses from being deleted', async () => {
      await rule({ liveNotificationAction: true }, { ruleName: 'Office hours', ruleFilters: { scheduleUuids: [site.schedules['Business Hours']] } });
      const r = await call('/api/policy/deleteSchedule', { scheduleUuid: site.schedules['Business Hours'] });
      assert.equal(r.json.error, true);
      assert.match(r.json.errorMsg, /button rule "Office hours"/);
    });
  });
});
