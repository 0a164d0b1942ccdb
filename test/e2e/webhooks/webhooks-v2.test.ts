import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Bus } from '../../../src/bus/bus.js';
import type { ChangeEvent } from '../../../src/store/change-event.js';
import { systemActor } from '../../../src/deps.js';
import { addEndpoint } from '../../../src/domains/integrations/webhooks/endpoints.service.js';
import { write } from '../../../src/bus/write.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { callApi, startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { FAST_WEBHOOKS, seedWebhookSite, settle, simulate, simulateAlert, verified, type WebhookSite } from './fixtures.js';

const UPDATE = '/api/integrations/webhooks/updateWebhookIntegrationV2';
const GET = '/api/integrations/webhooks/getWebhookIntegration';
const DELETE = '/api/integrations/webhooks/deleteWebhookIntegrationV2';

forEachDialect('V2 webhooks: several URLs for activity and diagnostic events', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: WebhookSite;
  let activity: Receiver;
  let diagnostic: Receiver;
  before(async () => {
    server = await startTestServer(dialect, { env: FAST_WEBHOOKS });
    org = await server.createOrg('V2 Org');
    other = await server.createOrg('Other Org');
    site = await seedWebhookSite(server, org.orgUuid);
    activity = await startReceiver();
    diagnostic = await startReceiver();
  });
  after(async () => {
    await server.close();
    await activity.close();
    await diagnostic.close();
  });
  const call = (path: string, body: unknown = {}, key = org.apiKey) => server.call(path, body, { key });

  describe('updateWebhookIntegrationV2', () => {
    it('answers 401 without a key, 400 for a malformed body, and a clear error for an empty one', async () => {
      assert.equal((await callApi(server.rest, UPDATE, { webhookUrl: `${activity.url}/a` })).status, 401);
      assert.equal((await call(UPDATE, { webhookUrl: 42 })).status, 400);
      const empty = await call(UPDATE, {});
      assert.deepEqual([empty.status, empty.json.error], [200, true]);
      assert.match(empty.json.errorMsg, /webhookUrl|updatedWebhookSettings/);
      assert.equal((await call(GET)).json.orgIntegrationV2 ?? null, null);
    });

    it('adds URLs, answering each generated secret once; reads show them masked', async () => {
      const a = await call(UPDATE, { webhookUrl: `${activity.url}/a` });
      assert.equal(a.json.error, false, a.text);
      assert.match(a.json.webhookSecret, /^whsec_[A-Za-z0-9+/=]{40,}$/);
      const d = await call(UPDATE, { webhookUrl: `${diagnostic.url}/d`, isDiagnostic: true });
      assert.match(d.json.webhookSecret, /^whsec_/);
      // Changing a known URL answers no secret.
      const again = await call(UPDATE, { webhookUrl: `${activity.url}/a`, disabled: false });
      assert.equal(again.json.webhookSecret ?? null, null);
      const got = (await call(GET)).json.orgIntegrationV2;
      assert.equal(got.integration, 'WEBHOOKS');
      assert.equal(got.enabled, true);
      assert.deepEqual(Object.keys(got.activityWebhooksV2), [`${activity.url}/a`]);
      assert.deepEqual(Object.keys(got.diagnosticWebhooksV2), [`${diagnostic.url}/d`]);
      assert.equal(got.activityWebhooksV2[`${activity.url}/a`].webhookDisabled, false);
      assert.match(got.activityWebhooksV2[`${activity.url}/a`].webhookSecret, /^\*+.{4}$/);
      assert.ok(!JSON.stringify(got).includes(a.json.webhookSecret));
      // The organization's integration listing shows the activity webhook, masked, as its webhookSettings.
      const listed = (await call('/api/integrations/org/getOrgIntegrations')).json.orgIntegrations.webhookSettings;
      assert.deepEqual(
        { ...listed, webhookSecret: /^\*+.{4}$/.test(listed.webhookSecret) },
        { enabled: true, webhookUrl: `${activity.url}/a`, webhookSecret: true },
      );
      // Stored sealed: the plaintext is nowhere in the table.
      const rows = await server.gatehouse.deps.store.db.selectFrom('webhook_endpoints').selectAll().where('org_uuid', '=', org.orgUuid).execute();
      assert.equal(rows.length, 2);
      assert.ok(!JSON.stringify(rows).includes(a.json.webhookSecret.slice(6)) && !JSON.stringify(rows).includes(d.json.webhookSecret.slice(6)));
      activitySecret = a.json.webhookSecret;
      diagnosticSecret = d.json.webhookSecret;
      // The other organization has none.
      assert.equal((await call(GET, {}, other.apiKey)).json.orgIntegrationV2 ?? null, null);
    });
    let activitySecret: string;
    let diagnosticSecret: string;

    it('posts policy alerts to the activity URLs and diagnostics to the diagnostic URLs, each signed with its own secret', async () => {
      const alert = await simulateAlert(server, site.cameras.Lobby, 'MOTION_HUMAN');
      const [a] = await activity.waitFor(1);
      assert.deepEqual(verified(a, activitySecret), JSON.parse(a.body));
      assert.deepEqual([a.json.alertUuid, a.json.activityTrigger, a.json.summary], [alert.uuid, 'MOTION_HUMAN', 'Person detected at HQ']);
      await simulate(server, 'controller', { door: site.doors['Back Door'], offline: true });
      const [d] = await diagnostic.waitFor(1);
      assert.deepEqual(verified(d, diagnosticSecret), JSON.parse(d.body));
      assert.equal(d.json.diagnosticTrigger, 'DOOR_CONTROLLER_DISCONNECTED');
      assert.equal(d.json.location, 'Annex');
      await settle();
      assert.deepEqual([activity.requests.length, diagnostic.requests.length], [1, 1], 'each URL gets only its family');
      assert.throws(() => verified(a, diagnosticSecret), 'another URL’s secret does not verify');
    });

    it('a disabled URL gets nothing until enabled again', async () => {
      assert.equal((await call(UPDATE, { webhookUrl: `${activity.url}/a`, disabled: true })).json.error, false);
      assert.equal((await call(GET)).json.orgIntegrationV2.activityWebhooksV2[`${activity.url}/a`].webhookDisabled, true);
      await simulateAlert(server, site.cameras.Lobby);
      await settle();
      assert.equal(activity.requests.length, 1);
      await call(UPDATE, { webhookUrl: `${activity.url}/a`, disabled: false });
      await simulateAlert(server, site.cameras.Lobby);
      await activity.waitFor(2);
    });

    it('replaces the whole set with updatedWebhookSettings, keeping known secrets; two new URLs without secrets are refused', async () => {
      const settings = (extra: Record<string, unknown>) => ({ updatedWebhookSettings: { activityWebhooksV2: { [`${activity.url}/a`]: {} }, ...extra } });
      const two = await call(UPDATE, settings({ diagnosticWebhooksV2: { [`${diagnostic.url}/x`]: {}, [`${diagnostic.url}/y`]: {} } }));
      assert.equal(two.json.error, true);
      assert.match(two.json.errorMsg, /one at a time/);
      assert.deepEqual(Object.keys((await call(GET)).json.orgIntegrationV2.diagnosticWebhooksV2), [`${diagnostic.url}/d`], 'nothing changed');
      const given = await call(UPDATE, settings({ diagnosticWebhooksV2: { [`${diagnostic.url}/x`]: { webhookSecret: 'my own secret' } } }));
      assert.equal(given.json.error, false, given.text);
      assert.equal(given.json.webhookSecret ?? null, null);
      const got = (await call(GET)).json.orgIntegrationV2;
      assert.deepEqual(Object.keys(got.diagnosticWebhooksV2), [`${diagnostic.url}/x`], 'the URL left out is removed');
      await simulate(server, 'controller', { door: site.doors['Back Door'], online: true });
      const [, x] = await diagnostic.waitFor(2);
      assert.equal(x.path, '/x');
      assert.deepEqual(verified(x, 'my own secret'), JSON.parse(x.body));
      // The activity URL kept its generated secret.
      await simulateAlert(server, site.cameras.Lobby);
      const [, , third] = await activity.waitFor(3);
      assert.deepEqual(verified(third, activitySecret), JSON.parse(third.body));
    });

    it('deleteWebhookIntegrationV2 removes every URL; the second time answers not found; another organization cannot', async () => {
      const theirs = await call(DELETE, {}, other.apiKey);
      assert.deepEqual([theirs.json.error, theirs.json.errorMsg], [true, 'Webhook integration not found']);
      assert.notEqual((await call(GET)).json.orgIntegrationV2, null);
      assert.equal((await call(DELETE)).json.error, false);
      assert.equal((await call(GET)).json.orgIntegrationV2 ?? null, null);
      assert.equal((await call(DELETE)).json.error, true);
      const before = activity.requests.length;
      await simulateAlert(server, site.cameras.Lobby);
      await settle();
      assert.equal(activity.requests.length, before);
    });
  });

  describe('a URL the dispatcher has not heard of', () => {
    it('gets the alerts raised after it was added, though the bus lost its announcement (the next pass knows it)', async () => {
      const o = await server.createOrg('Unannounced');
      const receiver = await startReceiver();
      try {
        const camera = (await seedWebhookSite(server, o.orgUuid)).cameras.Lobby;
        // An alert while the organization has no target, and a pass that sees it without one.
        await simulateAlert(server, camera);
        await settle(300);
        const deps = server.gatehouse.deps;
        const silent: Bus = { ...deps.bus, publish: async () => {} };
        await write({ ...deps, bus: silent }, systemActor(o.orgUuid, 'test.unannounced'), (w) =>
          addEndpoint(deps, w, { purpose: 'ACTIVITY', url: `${receiver.url}/in`, secret: null, disabled: false }),
        );
        const alert = await simulateAlert(server, camera, 'MOTION_HUMAN');
        const [request] = await receiver.waitFor(1);
        assert.equal(request!.json.alertUuid, alert.uuid);
        await settle();
        assert.equal(receiver.requests.length, 1, 'the alert from before the URL is not sent');
      } finally {
        await receiver.close();
      }
    });
  });

  describe('a burst of changes', () => {
    it('alerts raised together in two organizations reach each one’s own URL; announced again all at once, nothing is sent twice', async () => {
      const orgs = [await server.createOrg('Burst A'), await server.createOrg('Burst B')];
      const receivers = [await startReceiver(), await startReceiver()];
      const bus = server.gatehouse.deps.bus;
      const announced: ChangeEvent[] = [];
      const unsubscribe = bus.subscribe('change', (e) => void (e.entity === 'POLICY_ALERT' && orgs.some((o) => o.orgUuid === e.orgUuid) && announced.push(e)));
      try {
        const cameras: string[] = [];
        for (const [i, o] of orgs.entries()) {
          cameras.push((await seedWebhookSite(server, o.orgUuid)).cameras.Lobby);
          assert.equal((await call(UPDATE, { webhookUrl: `${receivers[i]!.url}/in` }, o.apiKey)).json.error, false);
        }
        const raised = await Promise.all(Array.from({ length: 30 }, (_, k) => simulateAlert(server, cameras[k % 2]!, 'MOTION', { text: `burst ${k}` })));
        const delivered = async () => {
          for (const i of [0, 1]) {
            const theirs = raised.filter((_, k) => k % 2 === i).map((a) => a.uuid as string);
            const got = await receivers[i]!.waitFor(theirs.length);
            assert.deepEqual(got.map((r) => r.json.alertUuid).sort(), theirs.sort());
          }
          await settle();
          assert.deepEqual(
            receivers.map((r) => r.requests.length),
            [15, 15],
            'no alert twice, none at the other organization',
          );
          for (const [i, o] of orgs.entries()) {
            const log = (await call('/api/integrations/getDeliveryLog', { kind: 'WEBHOOK_V2_ACTIVITY', maxResults: 100 }, o.apiKey)).json.deliveries as any[];
            assert.deepEqual(
              log.map((d) => [d.targetUrl, d.status]),
              Array(15).fill([`${receivers[i]!.url}/in`, 'DELIVERED']),
            );
          }
        };
        await delivered();
        // The same announcements again, in one turn (as a bus that reconnects may repeat them): the dispatcher takes
        // them as one run over both organizations, and every delivery is already known.
        assert.equal(announced.length, 30);
        for (const e of announced) void bus.publish('change', e);
        await delivered();
      } finally {
        unsubscribe();
        await Promise.all(receivers.map((r) => r.close()));
      }
    });
  });
  describe('event listeners (developer/*)', () => {
    it('posts the policy alerts of its activities and device to a listener, answers it without its key, and removes it', async () => {
      const listener = await startReceiver();
      try {
        const D = '/api/developer';
        const created = await call(`${D}/createEventListener`, {
          eventListner: {
            uri: `${listener.url}/events`,
            activities: ['MOTION_HUMAN'],
            deviceUuid: site.cameras.Lobby,
            clientKey: ['-----BEGIN KEY-----sekrit'],
          },
        });
        assert.equal(created.json.error, false, created.text);
        const uuid = created.json.eventListenerUuid;
        const carListener = (await call(`${D}/createEventListener`, { eventListner: { uri: `${listener.url}/cars`, activities: ['MOTION_CAR'] } })).json
          .eventListenerUuid;
        const alert = await simulateAlert(server, site.cameras.Lobby, 'MOTION_HUMAN');
        const [got] = await listener.waitFor(1);
        assert.deepEqual([got!.path, got!.json.alertUuid, got!.json.activityTrigger], ['/events', alert.uuid, 'MOTION_HUMAN']);
        const all = (await call(`${D}/getAllEventListeners`)).json.eventListeners;
        assert.deepEqual(all.map((l: { uuid: string }) => l.uuid).sort(), [uuid, carListener].sort());
        assert.ok(!JSON.stringify(all).includes('sekrit'), 'the client key is never answered');
        const rows = await server.gatehouse.deps.store.db.selectFrom('webhook_endpoints').select('filter').where('uuid', '=', uuid).execute();
        assert.ok(!JSON.stringify(rows).includes('sekrit'), 'and kept sealed');
        const forDevice = (await call(`${D}/getEventListenersForDevice`, { deviceUuid: site.cameras.Lobby })).json.eventListeners;
        assert.equal(forDevice.length, 2, "the device's own and the one for every device");
        // Another organization neither sees nor removes them.
        assert.deepEqual((await call(`${D}/getAllEventListeners`, {}, other.apiKey)).json.eventListeners, []);
        assert.equal((await call(`${D}/deleteEventListener`, { eventListenerUuid: uuid }, other.apiKey)).json.error, true);
        assert.equal((await call(`${D}/deleteEventListener`, { eventListenerUuid: uuid })).json.error, false);
        assert.deepEqual(
          (await call(`${D}/getAllEventListeners`)).json.eventListeners.map((l: { uuid: string }) => l.uuid),
          [carListener],
        );
        await settle();
        assert.equal(listener.requests.length, 1, 'the MOTION_CAR listener heard nothing');
      } finally {
        await listener.close();
      }
    });
  });
});
