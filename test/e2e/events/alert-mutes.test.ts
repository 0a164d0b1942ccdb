import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ChangeEvent } from '../../../src/store/change-event.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import { assertSameAsMissing, nobodysUuid } from '../config/config-site.js';
import { FAST_OUTBOX } from '../integrations/alerts.js';
import { FAST_WEBHOOKS } from '../webhooks/fixtures.js';
import { seedEventsSite, simulate, type EventsSite } from './fixtures.js';
import { apiAs, assertFails, assertOk } from '../../helpers/api.js';

forEachDialect('policy alerts: muted devices and false-positive reports', (dialect) => {
  let server: TestServer;
  let site: EventsSite;
  let other: EventsSite;
  let chat: Receiver;
  let hook: Receiver;
  const changes: ChangeEvent[] = [];
  let unsubscribe: () => void;
  before(async () => {
    server = await startTestServer(dialect, { env: { ...FAST_OUTBOX, ...FAST_WEBHOOKS } });
    site = await seedEventsSite(server, 'Mute Org');
    other = await seedEventsSite(server, 'Other Mute Org');
    unsubscribe = server.gatehouse.deps.bus.subscribe('change', (c) => changes.push(c));
    [chat, hook] = await Promise.all([startReceiver(), startReceiver()]);
    // Every way an alert is told: the caller's own notifications, the chat integration and the classic webhook.
    assertOk(await call('/api/customer/updateCurrentUserNotificationSettings', { timeFrames: [{ mediums: ['APP'], rows: [{ activities: ['MOTION'] }] }] }));
    assertOk(await call('/api/integrations/updateChatIntegration', { mattermostSettings: { enabled: true, webhookUrl: `${chat.url}/chat` } }));
    assertOk(await call('/api/integrations/webhooks/updateWebhookIntegration', { webhookSettings: { enabled: true, webhookUrl: `${hook.url}/hook` } }));
  });
  after(async () => {
    unsubscribe();
    await server.close();
    await Promise.all([chat.close(), hook.close()]);
  });

  const { call, ok } = apiAs(
    () => server,
    () => site.org.apiKey,
  );
  const alert = async (device: string) => (await simulate(server, 'alert', { device, trigger: 'MOTION' })).policyAlert;
  /**
   * The alert as Gatehouse keeps it, with what it adds beyond the catalogue (the mute, the report), which the
   * catalogue's reads leave out: read through Gatehouse's own getExpiringPolicyAlerts.
   */
  async function kept(uuid: string, key = site.org.apiKey) {
    const { policyAlerts } = await ok('/api/event/getExpiringPolicyAlerts', { withinMs: 30 * 86_400_000, maxResults: 1000 }, { key });
    const found = policyAlerts.find((a: { uuid: string }) => a.uuid === uuid);
    assert.ok(found, `alert ${uuid} listed`);
    return found;
  }
  /** How the alert was told: a notification to the user, a chat message delivered (its outbox row), a webhook received. */
  async function told(uuid: string) {
    const chatRows = await server.gatehouse.deps.store.db
      .selectFrom('outbox_deliveries')
      .select('status')
      .where('dedupe_key', 'like', `CHAT:%:POLICY_ALERT:${uuid}`)
      .execute();
    return {
      notified: changes.some((c) => c.entity === 'USER_NOTIFICATION' && (c.update as any).sourceUuid === uuid),
      chat: chatRows.some((r) => r.status === 'DELIVERED'),
      hook: hook.requests.some((r) => r.json?.alertUuid === uuid),
    };
  }
  const toldEverywhere = (uuid: string) => waitFor(`the notifications of ${uuid}`, async () => Object.values(await told(uuid)).every(Boolean));

  describe('muteNotificationsForDevice', () => {
    it("records a muted device's alerts but tells nobody of them until the mute ends, and refuses another organization's device", async () => {
      const first = await alert(site.dock);
      await toldEverywhere(first.uuid);

      const muting = changes.length;
      assertOk(await call('/api/event/muteNotificationsForDevice', { deviceUuid: site.lobby, durationSec: 600 }));
      const mute = changes.slice(muting).find((c) => c.entity === 'NOTIFICATION_MUTE');
      assert.deepEqual([mute?.type, mute?.entityUuid], ['UPDATE', site.lobby]);
      const [listed] = (await ok('/api/event/getNotificationMutes')).mutes;
      assert.equal(listed.deviceUuid, site.lobby);
      assert.ok(listed.mutedUntilMs - listed.mutedAtMs === 600_000);

      const muted = await alert(site.lobby);
      assert.equal(muted.notificationsMutedUntilMs, listed.mutedUntilMs);
      assert.equal(muted.notificationSent, false);
      // A later alert of an unmuted device is told everywhere: by then the muted one would have been too.
      const fence = await alert(site.dock);
      await toldEverywhere(fence.uuid);
      assert.deepEqual(await told(muted.uuid), { notified: false, chat: false, hook: false });
      assert.deepEqual(
        chat.requests.map((r) => /on \*\*(\w+)\*\*/.exec(r.json.text)?.[1]),
        ['Dock', 'Dock'],
        'the chat heard of the unmuted camera only',
      );
      const stored = await ok('/api/event/getPolicyAlert', { policyAlertUuid: muted.uuid });
      assert.equal('notificationsMutedUntilMs' in stored.policyAlert, false, 'the catalogue has no such field');
      assert.equal((await kept(muted.uuid)).notificationsMutedUntilMs, listed.mutedUntilMs, 'recorded and readable');
      assert.ok((await ok('/api/event/getPolicyAlertsV2', { deviceFilter: [site.lobby] })).policyAlerts.some((a: any) => a.uuid === muted.uuid));

      // 0 ends the mute: the next alert is told again.
      const ending = changes.length;
      assertOk(await call('/api/event/muteNotificationsForDevice', { deviceUuid: site.lobby, durationSec: 0 }));
      assert.equal(changes.slice(ending).find((c) => c.entity === 'NOTIFICATION_MUTE')?.type, 'DELETE');
      assert.deepEqual((await ok('/api/event/getNotificationMutes')).mutes, []);
      const unmuted = await alert(site.lobby);
      assert.equal(unmuted.notificationsMutedUntilMs ?? null, null);
      await toldEverywhere(unmuted.uuid);

      assertSameAsMissing(
        await call('/api/event/muteNotificationsForDevice', { deviceUuid: other.lobby, durationSec: 60 }),
        await call('/api/event/muteNotificationsForDevice', { deviceUuid: nobodysUuid(), durationSec: 60 }),
      );
      assert.deepEqual((await ok('/api/event/getNotificationMutes', {}, { key: other.org.apiKey })).mutes, []);
      assert.equal((await alert(other.lobby)).notificationsMutedUntilMs ?? null, null, "the other organization's camera is not muted");
      assert.equal((await call('/api/event/muteNotificationsForDevice', { deviceUuid: site.lobby, durationSec: -1 })).status, 400);
      assert.equal((await call('/api/event/muteNotificationsForDevice', { deviceUuid: site.lobby, durationSec: 8 * 86_400 })).status, 400);
    });
  });

  describe('reportBadPolicyAlert', () => {
    it('keeps the first report on the alert, announced once, and answers another organization’s alert as an unknown one', async () => {
      const reported = await alert(site.dock);
      const theirs = await alert(other.dock);
      const since = changes.length;
      assertOk(await call('/api/event/reportBadPolicyAlert', { policyAlert: { ...reported, textDescription: 'not a person' } }));
      const update = changes.slice(since).filter((c) => c.entity === 'POLICY_ALERT' && c.entityUuid === reported.uuid);
      assert.deepEqual(
        update.map((c) => c.type),
        ['UPDATE'],
      );
      const stored = await kept(reported.uuid);
      assert.equal(stored.badAlertReport.userUuid, site.org.userUuid);
      assert.equal(typeof stored.badAlertReport.reportedAtMs, 'number');
      assert.equal(stored.textDescription, reported.textDescription, 'only the report is kept');

      const again = changes.length;
      assertOk(await call('/api/event/reportBadPolicyAlert', { policyAlert: { uuid: reported.uuid } }));
      assert.equal((await kept(reported.uuid)).badAlertReport.reportedAtMs, stored.badAlertReport.reportedAtMs);
      assert.equal(changes.slice(again).filter((c) => c.entity === 'POLICY_ALERT').length, 0);

      assertSameAsMissing(
        await call('/api/event/reportBadPolicyAlert', { policyAlert: { uuid: theirs.uuid } }),
        await call('/api/event/reportBadPolicyAlert', { policyAlert: { uuid: nobodysUuid() } }),
      );
      assert.equal((await kept(theirs.uuid, other.org.apiKey)).badAlertReport ?? null, null);
      assertFails(await call('/api/event/reportBadPolicyAlert', { policyAlert: { uuid: nobodysUuid() } }), 'Policy alert not found');
      assert.equal((await call('/api/event/reportBadPolicyAlert', { policyAlert: {} })).status, 400);
    });
  });
});
