import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Bus } from '../../../src/bus/bus.js';
import { systemActor } from '../../../src/deps.js';
import { raisePolicyAlert } from '../../../src/domains/events/alerts/service.js';
import { write } from '../../../src/bus/write.js';
import { rawChange } from '../../helpers/changes.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { waitFor } from '../../helpers/wait.js';
import { callApi, startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { FAST_WEBHOOKS, seedWebhookSite, settle, simulate, simulateAlert, verified, type WebhookSite } from './fixtures.js';

const UPDATE = '/api/integrations/webhooks/updateWebhookIntegration';
const GET = '/api/integrations/webhooks/getWebhookIntegration';
const DELETE = '/api/integrations/webhooks/deleteWebhookIntegration';
const SECRET = 'correct horse battery staple';

forEachDialect('Classic webhook: every policy alert and diagnostic of the organization', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: WebhookSite;
  let otherSite: WebhookSite;
  let receiver: Receiver;
  let otherReceiver: Receiver;
  before(async () => {
    server = await startTestServer(dialect, { env: FAST_WEBHOOKS });
    org = await server.createOrg('Webhook Org');
    other = await server.createOrg('Other Org');
    site = await seedWebhookSite(server, org.orgUuid);
    otherSite = await seedWebhookSite(server, other.orgUuid);
    receiver = await startReceiver();
    otherReceiver = await startReceiver();
  });
  after(async () => {
    await server.close();
    await receiver.close();
    await otherReceiver.close();
  });
  /** The classic webhook's settings as getOrgIntegrations lists them (undefined when there are none). */
  const classicOf = async (key: string) => (await server.call('/api/integrations/org/getOrgIntegrations', {}, { key })).json.orgIntegrations.webhookSettings;

  describe('updateWebhookIntegration', () => {
    it('answers 401 without a key and 400 for a malformed body, changing nothing', async () => {
      const settings = { webhookSettings: { enabled: true, webhookUrl: `${receiver.url}/hook` } };
      assert.equal((await callApi(server.rest, UPDATE, settings)).status, 401);
      assert.equal((await server.call(UPDATE, { webhookSettings: { enabled: 'yes' } }, { key: org.apiKey })).status, 400);
      assert.equal((await server.call(UPDATE, '{"webhookSettings":', { key: org.apiKey })).status, 400);
      assert.equal((await classicOf(org.apiKey)) ?? null, null);
    });

    it('refuses to enable without a URL, and a URL that is not http(s)', async () => {
      const none = await server.call(UPDATE, { webhookSettings: { enabled: true } }, { key: org.apiKey });
      assert.deepEqual([none.status, none.json.error], [200, true]);
      assert.match(none.json.errorMsg, /webhookUrl/);
      const ftp = await server.call(UPDATE, { webhookSettings: { enabled: true, webhookUrl: 'ftp://example.com/x' } }, { key: org.apiKey });
      assert.equal(ftp.json.error, true);
    });

    it('saves the settings with the secret masked, stamps who enabled it, and lists it among the integrations', async () => {
      const saved = await server.call(
        UPDATE,
        { webhookSettings: { enabled: true, webhookUrl: `${receiver.url}/hook`, webhookSecret: SECRET } },
        { key: org.apiKey },
      );
      assert.equal(saved.json.error, false, saved.text);
      const got = await classicOf(org.apiKey);
      assert.equal(got.webhookUrl, `${receiver.url}/hook`);
      assert.equal(got.enabled, true);
      assert.equal(got.enablingUserUuid, org.userUuid);
      assert.equal(typeof got.enabledTimestampMs, 'number');
      assert.match(got.webhookSecret, /^\*+.{4}$/);
      assert.ok(!JSON.stringify(got).includes(SECRET), 'the secret is never answered');
      // getWebhookIntegration answers the V2 webhooks only; the other organization sees nothing of it.
      assert.deepEqual((await server.call(GET, {}, { key: org.apiKey })).json.orgIntegrationV2 ?? null, null);
      const theirs = (await server.call(GET, {}, { key: other.apiKey })).json;
      assert.deepEqual([theirs.error, (await classicOf(other.apiKey)) ?? null, theirs.orgIntegrationV2 ?? null], [false, null, null]);
    });
  });

  describe('delivery', () => {
    it('posts a policy alert in the version "2" format with every field, signed over the exact bytes', async () => {
      const before = receiver.requests.length;
      const alert = await simulateAlert(server, site.cameras.Lobby, 'MOTION', { durationSec: 12 });
      const [request] = (await receiver.waitFor(before + 1)).slice(before);
      const body = verified(request, SECRET) as Record<string, unknown>;
      assert.deepEqual(body, JSON.parse(request.body));
      assert.equal(request.path, '/hook');
      assert.equal(request.headers['content-type'], 'application/json');
      assert.match(String(request.headers['webhook-id']), /^msg_/);
      assert.deepEqual(
        {
          version: body.version,
          activityTrigger: body.activityTrigger,
          diagnosticTrigger: body.diagnosticTrigger,
          summary: body.summary,
          deviceUuid: body.deviceUuid,
          timestampMs: body.timestampMs,
          location: body.location,
          alertUuid: body.alertUuid,
          durationSec: body.durationSec,
        },
        {
          version: '2',
          activityTrigger: 'MOTION',
          diagnosticTrigger: null,
          summary: 'Movement detected at HQ',
          deviceUuid: site.cameras.Lobby,
          timestampMs: alert.timestampMs,
          location: 'HQ',
          alertUuid: alert.uuid,
          durationSec: 12,
        },
      );
      assert.ok('thumbnailLocation' in body && 'clipLocationMap' in body);
      // The delivery log has it, delivered, with its one attempt.
      const log = await waitFor(
        'condition',
        async () => {
          const d = (await server.call('/api/integrations/getDeliveryLog', { kind: 'ORG_WEBHOOK' }, { key: org.apiKey })).json.deliveries?.[0];
          return d?.status === 'DELIVERED' ? d : undefined;
        },
        10_000,
      );
      assert.equal(`msg_${log.deliveryUuid}`, request.headers['webhook-id']);
      assert.deepEqual(
        log.attemptLog.map((a: any) => [a.attempt, a.statusCode]),
        [[1, 200]],
      );
    });

    it('delivers an alert whose announcement the bus lost, from the change log', async () => {
      const before = receiver.requests.length;
      const deps = server.gatehouse.deps;
      const silent: Bus = { ...deps.bus, publish: async () => {} };
      const alert = await raisePolicyAlert({ ...deps, bus: silent }, systemActor(org.orgUuid, 'test.lost'), {
        deviceUuid: site.cameras.Lobby,
        policyAlertTriggers: ['MOTION_CAR'],
      });
      const [request] = (await receiver.waitFor(before + 1)).slice(before);
      assert.deepEqual([request.json.alertUuid, request.json.summary], [alert.uuid, 'Vehicle detected at HQ']);
      await settle();
      assert.equal(receiver.requests.length, before + 1);
    });

    it(
      'delivers an alert that commits after a later-numbered change and whose announcement the bus lost',
      { skip: dialect === 'sqlite' && 'SQLite commits one write at a time, so changes commit in id order' },
      async () => {
        const before = receiver.requests.length;
        const deps = server.gatehouse.deps;
        const silent: Bus = { ...deps.bus, publish: async () => {} };
        // The alert's transaction takes its change id, then waits before it commits.
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        const slow = {
          ...deps.store,
          transaction: <T>(fn: (tx: never) => Promise<T>) => deps.store.transaction(async (tx) => [await fn(tx as never), await held][0] as T),
        };
        const late = raisePolicyAlert({ ...deps, store: slow, bus: silent }, systemActor(org.orgUuid, 'test.late'), {
          deviceUuid: site.cameras.Lobby,
          policyAlertTriggers: ['MOTION_HUMAN'],
        });
        // Meanwhile another organization's change, with a higher id, commits and the dispatcher reads past it.
        await simulateAlert(server, otherSite.cameras.Hall);
        await settle();
        release();
        const alert = await late;
        const got = await receiver.waitFor(before + 1);
        assert.ok(
          got.slice(before).some((r) => r.json.alertUuid === alert.uuid),
          'the late alert reached the webhook',
        );
      },
    );

    it('joins several triggers with commas', async () => {
      const before = receiver.requests.length;
      await simulate(server, 'reading', { sensor: site.sensors.Climate, tempC: 35, relHumid: 70 });
      const [request] = (await receiver.waitFor(before + 1)).slice(before);
      assert.equal(request.json.activityTrigger, 'HUMIDITY_EXCEEDED_HIGH,TEMPERATURE_EXCEEDED_HIGH');
      assert.equal(request.json.deviceUuid, site.sensors.Climate);
    });

    it("posts a door controller going offline and back as diagnostics, once each; never another organization's", async () => {
      await server.call(UPDATE, { webhookSettings: { enabled: true, webhookUrl: `${otherReceiver.url}/theirs` } }, { key: other.apiKey });
      const before = receiver.requests.length;
      await simulate(server, 'controller', { door: site.doors['Front Door'], offline: true });
      await simulate(server, 'controller', { door: site.doors['Front Door'], offline: true });
      await simulate(server, 'controller', { door: site.doors['Front Door'], online: true });
      const got = (await receiver.waitFor(before + 2)).slice(before);
      await settle();
      assert.equal(receiver.requests.length, before + 2, 'a repeated offline report is one diagnostic');
      assert.deepEqual(
        got.map((r) => [r.json.diagnosticTrigger, r.json.activityTrigger, r.json.deviceUuid, r.json.version]),
        [
          ['DOOR_CONTROLLER_DISCONNECTED', null, site.doorControllers['Front Door Controller'], '2'],
          ['DOOR_CONTROLLER_CONNECTED', null, site.doorControllers['Front Door Controller'], '2'],
        ],
      );
      assert.match(got[0].json.summary, /Front Door Controller went offline at HQ/);
      // The other organization's receiver got only its own organization's events.
      await simulateAlert(server, otherSite.cameras.Hall);
      const [theirs] = await otherReceiver.waitFor(1);
      assert.equal(theirs.json.deviceUuid, otherSite.cameras.Hall);
      await settle();
      assert.ok(receiver.requests.every((r) => r.json.deviceUuid !== otherSite.cameras.Hall));
      assert.equal(otherReceiver.requests.length, 1);
    });

    it('posts a camera going offline and back (a CAMERA change with connectionStatus, as a device reports it)', async () => {
      const before = receiver.requests.length;
      const report = (connectionStatus: string) =>
        write(server.gatehouse.deps, systemActor(org.orgUuid, 'test.camera'), async (w) => {
          w.change(
            rawChange({
              entity: 'CAMERA',
              entityUuid: site.cameras.Lobby,
              deviceUuid: site.cameras.Lobby,
              type: 'UPDATE',
              update: { uuid: site.cameras.Lobby, connectionStatus },
            }),
          );
        });
      await report('RED');
      await report('GREEN');
      const got = (await receiver.waitFor(before + 2)).slice(before);
      assert.deepEqual(
        got.map((r) => [r.json.diagnosticTrigger, r.json.deviceUuid]),
        [
          ['CAMERA_DISCONNECTED', site.cameras.Lobby],
          ['CAMERA_CONNECTED', site.cameras.Lobby],
        ],
      );
      assert.equal(got[0].json.summary, 'Camera Lobby went offline at HQ');
    });

    it('stops posting once disabled, and deleting it twice answers not found the second time', async () => {
      const off = await server.call(UPDATE, { webhookSettings: { enabled: false, webhookUrl: `${receiver.url}/hook` } }, { key: org.apiKey });
      assert.equal(off.json.error, false);
      const before = receiver.requests.length;
      await simulateAlert(server, site.cameras.Lobby);
      await settle();
      assert.equal(receiver.requests.length, before);
      assert.equal((await server.call(DELETE, {}, { key: other.apiKey })).json.error, false, "deletes the caller's own");
      assert.equal((await server.call(DELETE, {}, { key: org.apiKey })).json.error, false);
      const again = await server.call(DELETE, {}, { key: org.apiKey });
      assert.deepEqual([again.json.error, again.json.errorMsg], [true, 'Webhook integration not found']);
      assert.equal((await classicOf(org.apiKey)) ?? null, null);
    });
  });
});
