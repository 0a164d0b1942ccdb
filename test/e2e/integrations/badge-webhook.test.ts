import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ChangeEvent } from '../../../src/store/change-event.js';
import { findPolicyAlert } from '../../../src/domains/events/alerts/service.js';
import { findSavedClip } from '../../../src/domains/events/clips/service.js';
import { findBadgeEvent, listSeekPointsOf } from '../../../src/domains/integrations/badge-events.service.js';
import { signBadgePost, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../../src/domains/integrations/badge-signature.js';
import { createLogger } from '../../../src/logger.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { seedIntegrationSite, type IntegrationSite } from './site.js';

const SECRET = 'whsec-badge-webhook-secret-42';

forEachDialect('POST /webhooks/badge/{webhookUuid}', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let site: IntegrationSite;
  let webhookUuid: string;
  const logLines: string[] = [];
  before(async () => {
    const log = createLogger('info', { write: (line: string) => void logLines.push(line) });
    server = await startTestServer(dialect, { log });
    org = await server.createOrg('Badge Org');
    site = await seedIntegrationSite(server, org.orgUuid);
    const r = await server.call(
      '/api/integrations/accessControl/updateBadgeIntegration',
      {
        geneaSettings: {
          enabled: true,
          apiToken: 'badge-api-token-abc',
          webhookSignatureSecret: SECRET,
          createSeekPoints: true,
          doorInfoMap: { 'door-1': { doorName: 'Front Door', locationUuid: site.locations.HQ, assignedCameraList: [site.cameras.Lobby, site.cameras.Hall] } },
        },
      },
      { key: org.apiKey },
    );
    assert.equal(r.json.error, false, r.json.errorMsg);
    webhookUuid = (await server.call('/api/integrations/accessControl/getGeneaIntegration', {}, { key: org.apiKey })).json.orgIntegrationV2.webhookUuid;
  });
  after(() => server.close());

  const event = (extra: Record<string, unknown> = {}) => ({
    eventId: `evt-${Math.random()}`,
    eventType: 'ACCESS_GRANTED',
    doorId: 'door-1',
    timestampMs: 1_700_000_000_000,
    badgeHolder: { name: 'Grace Hopper', personUuid: site.people['Grace Hopper'] },
    ...extra,
  });
  async function post(body: string, headers: Record<string, string>, id = webhookUuid) {
    const response = await fetch(`${server.rest}/webhooks/badge/${id}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    return { status: response.status, json: (await response.json()) as any };
  }
  const signed = (body: string, timestampSec = Math.floor(Date.now() / 1000), secret = SECRET) => ({
    [TIMESTAMP_HEADER]: String(timestampSec),
    [SIGNATURE_HEADER]: signBadgePost(secret, timestampSec, body),
  });

  it('records a signed event against the mapped door, with a seek point on each of its cameras', async () => {
    const changes: ChangeEvent[] = [];
    const unsubscribe = server.gatehouse.deps.bus.subscribe('change', (e) => changes.push(e));
    const body = JSON.stringify(event());
    const r = await post(body, signed(body));
    assert.equal(r.status, 200, JSON.stringify(r.json));
    assert.equal(r.json.error, false);
    const recorded = await findBadgeEvent(server.gatehouse.deps, org.orgUuid, r.json.badgeEventUuid);
    assert.equal(recorded?.doorName, 'Front Door');
    assert.equal(recorded?.locationUuid, site.locations.HQ);
    assert.deepEqual(recorded?.cameraUuids, [site.cameras.Lobby, site.cameras.Hall]);
    assert.equal(recorded?.badgeHolderName, 'Grace Hopper');
    assert.equal(recorded?.faceMismatch, false);
    assert.equal(recorded?.timestampMs, 1_700_000_000_000);
    const points = await listSeekPointsOf(server.gatehouse.deps, org.orgUuid, r.json.badgeEventUuid);
    assert.deepEqual(points.map((p) => p.cameraUuid).sort(), [site.cameras.Lobby, site.cameras.Hall].sort());
    assert.equal(points[0].label, 'ACCESS_GRANTED at Front Door (Grace Hopper)');
    await new Promise((resolve) => setTimeout(resolve, 50));
    unsubscribe();
    assert.deepEqual(
      changes
        .filter((c) => c.orgUuid === org.orgUuid)
        .map((c) => c.entity)
        .sort(),
      ['BADGE_EVENT', 'SEEK_POINT', 'SEEK_POINT'],
    );
  });

  it('refuses an unsigned post, and logs the refusal', async () => {
    const body = JSON.stringify(event());
    const r = await post(body, {});
    assert.equal(r.status, 401);
    assert.deepEqual([r.json.error, r.json.errorMsg], [true, 'Missing, invalid, expired or replayed webhook signature']);
    assert.ok(logLines.some((l) => l.includes('badge webhook post refused') && l.includes('"reason":"unsigned"') && l.includes(webhookUuid)));
  });

  it('refuses a post signed with another secret, or whose body was changed after signing', async () => {
    const body = JSON.stringify(event());
    assert.equal((await post(body, signed(body, undefined, 'some-other-secret'))).status, 401);
    assert.equal((await post(body.replace('door-1', 'door-2'), signed(body))).status, 401);
    assert.ok(logLines.some((l) => l.includes('"reason":"bad signature"')));
  });

  it('refuses a post whose timestamp is outside the replay window, even when correctly signed', async () => {
    const body = JSON.stringify(event());
    const r = await post(body, signed(body, Math.floor(Date.now() / 1000) - 6 * 60));
    assert.equal(r.status, 401);
    assert.ok(logLines.some((l) => l.includes('"reason":"timestamp outside the replay window"')));
  });

  it('accepts a signed post once: the same post again is a replay', async () => {
    const body = JSON.stringify(event());
    const headers = signed(body);
    assert.equal((await post(body, headers)).status, 200);
    const again = await post(body, headers);
    assert.equal(again.status, 401);
    assert.ok(logLines.some((l) => l.includes('"reason":"replayed signature"')));
  });

  it('refuses a post to an unknown webhook as it refuses a bad signature', async () => {
    const body = JSON.stringify(event());
    assert.equal((await post(body, signed(body), 'unknownWebhookUuid0000')).status, 401);
  });

  it('answers a verified event of an unmapped door with NOT_FOUND, and a verified malformed one with 400', async () => {
    const unmapped = JSON.stringify(event({ doorId: 'door-9' }));
    const r = await post(unmapped, signed(unmapped));
    assert.deepEqual([r.status, r.json.error, r.json.errorMsg], [200, true, 'Door door-9 not found']);
    const malformed = JSON.stringify({ doorId: 'door-1' });
    assert.equal((await post(malformed, signed(malformed))).status, 400);
  });

  it('never writes the signing secret to the log', () => {
    assert.ok(logLines.length > 0);
    assert.ok(logLines.every((l) => !l.includes(SECRET)));
  });
});

forEachDialect('POST /webhooks/badge/{webhookUuid} with clips and unauthorized-face alerts', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let site: IntegrationSite;
  let webhookUuid: string;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Face Org');
    site = await seedIntegrationSite(server, org.orgUuid);
    const r = await server.call(
      '/api/integrations/accessControl/updateBadgeIntegration',
      {
        geneaSettings: {
          enabled: true,
          apiToken: 'badge-api-token-abc',
          webhookSignatureSecret: SECRET,
          saveClips: true,
          alertUnauthorizedFaces: true,
          doorInfoMap: {
            'door-1': {
              doorName: 'Front Door',
              locationUuid: site.locations.HQ,
              assignedCameraList: [site.cameras.Lobby, site.cameras.Hall],
              leadingSeconds: 5,
              clipDuration: 20,
            },
          },
        },
      },
      { key: org.apiKey },
    );
    assert.equal(r.json.error, false, r.json.errorMsg);
    webhookUuid = (await server.call('/api/integrations/accessControl/getGeneaIntegration', {}, { key: org.apiKey })).json.orgIntegrationV2.webhookUuid;
  });
  after(() => server.close());

  async function postEvent(extra: Record<string, unknown>) {
    const body = JSON.stringify({
      eventType: 'ACCESS_GRANTED',
      doorId: 'door-1',
      timestampMs: 1_700_000_000_000,
      badgeHolder: { name: 'Grace Hopper', personUuid: site.people['Grace Hopper'] },
      ...extra,
    });
    const now = Math.floor(Date.now() / 1000);
    const response = await fetch(`${server.rest}/webhooks/badge/${webhookUuid}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [TIMESTAMP_HEADER]: String(now), [SIGNATURE_HEADER]: signBadgePost(SECRET, now, body) },
      body,
    });
    assert.equal(response.status, 200);
    return (await response.json()) as any;
  }

  it("saves a clip on each of the door's cameras, from leadingSeconds before the event", async () => {
    const r = await postEvent({ observedFace: { name: 'Grace Hopper', personUuid: site.people['Grace Hopper'] } });
    assert.equal(r.savedClipUuids.length, 2);
    for (const uuid of r.savedClipUuids) {
      const clip = await findSavedClip(server.gatehouse.deps, org.orgUuid, uuid);
      assert.deepEqual([clip?.timestampMs, clip?.durationSec], [1_700_000_000_000 - 5000, 20]);
    }
    assert.deepEqual(r.policyAlertUuids, [], 'the face is the badge holder: no alert');
  });

  it("raises an unauthorized-face alert on each camera when the face is someone else's", async () => {
    const r = await postEvent({ observedFace: { name: 'Alan Turing', personUuid: site.people['Alan Turing'] } });
    assert.equal(r.policyAlertUuids.length, 2);
    const alert = await findPolicyAlert(server.gatehouse.deps, org.orgUuid, r.policyAlertUuids[0]);
    assert.deepEqual(alert?.policyAlertTriggers, ['BADGE_FACE_MISMATCH']);
    assert.equal(alert?.alertingEventFaces?.[0]?.personUuid, site.people['Alan Turing']);
    assert.match(alert?.textDescription ?? '', /is not badge holder Grace Hopper/);
    const recorded = await findBadgeEvent(server.gatehouse.deps, org.orgUuid, r.badgeEventUuid);
    assert.equal(recorded?.faceMismatch, true);
  });

  it('raises the alert for a face nobody is known by, and not when no face was seen', async () => {
    assert.equal((await postEvent({ observedFace: { name: null, personUuid: null } })).policyAlertUuids.length, 2);
    assert.equal((await postEvent({})).policyAlertUuids.length, 0);
  });
});
