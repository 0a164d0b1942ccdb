import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ChangeEvent } from '../../../src/store/change-event.js';
import { signBadgePost, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../../src/domains/integrations/badge-signature.js';
import { createLogger } from '../../../src/logger.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { startTestServer, type CallResult, type TestOrg, type TestServer } from '../../helpers/server.js';
import { seedIntegrationSite, type IntegrationSite } from './site.js';

const API_TOKEN = 'SECRET-api-token-7f3a9c';
const REFUSED_TOKEN = 'SECRET-refused-token-5d1e';
const PLATFORM_TOKEN = 'SECRETplatformTokenXYZ';
const SIGNING_SECRET = 'SECRET-signing-secret-b44e';
const TICKET_PASSWORD = 'SECRET-ticket-password-0c2d';
const SECRETS = [API_TOKEN, REFUSED_TOKEN, PLATFORM_TOKEN, SIGNING_SECRET, TICKET_PASSWORD];

forEachDialect('Integration secrets never leave Gatehouse', (dialect) => {
  let server: TestServer;
  let badgeSystem: Receiver;
  let org: TestOrg;
  let site: IntegrationSite;
  const logLines: string[] = [];
  const responses: string[] = [];
  const changes: ChangeEvent[] = [];
  let unsubscribe: () => void;
  before(async () => {
    badgeSystem = await startReceiver((req) =>
      req.headers.authorization === `Bearer ${API_TOKEN}` ? { status: 200 } : { status: 401, body: { error: 'bad token' } },
    );
    // Every level, so that whatever any part of the server logs is searched.
    const log = createLogger('trace', { write: (line: string) => void logLines.push(line) });
    server = await startTestServer(dialect, { log, env: { GATEHOUSE_BADGE_API_URL: badgeSystem.url } });
    org = await server.createOrg('Secret Org');
    site = await seedIntegrationSite(server, org.orgUuid);
    unsubscribe = server.gatehouse.deps.bus.subscribe('change', (e) => changes.push(e));
  });
  after(async () => {
    unsubscribe();
    await server.close();
    await badgeSystem.close();
  });

  async function call(path: string, body: unknown): Promise<CallResult> {
    const r = await server.call(path, body, { key: org.apiKey });
    responses.push(`${r.status} ${JSON.stringify([...r.headers])} ${r.text}`);
    return r;
  }
  const badge = (extra: Record<string, unknown> = {}) => ({
    geneaSettings: {
      enabled: true,
      apiToken: API_TOKEN,
      platformToken: PLATFORM_TOKEN,
      webhookSignatureSecret: SIGNING_SECRET,
      doorInfoMap: { d1: { doorName: 'Front', locationUuid: site.locations.HQ, assignedCameraList: [site.cameras.Lobby] } },
      createSeekPoints: true,
      ...extra,
    },
  });

  it('exercises every path a secret travels: set, kept masked, refused, wrong, read, signed posts', async () => {
    assert.equal((await call('/api/integrations/accessControl/updateBadgeIntegration', badge())).json.error, false);
    const masked = (await call('/api/integrations/accessControl/getGeneaIntegration', {})).json.orgIntegrationV2;
    assert.equal(
      (
        await call(
          '/api/integrations/accessControl/updateBadgeIntegration',
          badge({ apiToken: masked.apiToken, platformToken: masked.platformToken, webhookSignatureSecret: masked.webhookSignatureSecret }),
        )
      ).json.error,
      false,
    );
    assert.equal((await call('/api/integrations/accessControl/updateBadgeIntegration', badge({ apiToken: '****nope' }))).json.error, true);
    assert.equal((await call('/api/integrations/accessControl/updateBadgeIntegration', badge({ platformToken: `${PLATFORM_TOKEN}!` }))).json.error, true);
    assert.equal(
      (await call('/api/integrations/accessControl/updateBadgeIntegration', { geneaSettings: { apiToken: 42, webhookSignatureSecret: SIGNING_SECRET } }))
        .status,
      400,
    );
    assert.equal(
      (
        await call('/api/integrations/incidentManagement/updateServiceNowIntegration', {
          serviceNowSettings: { enabled: true, instanceUrl: 'https://t.example.com', username: 'u', password: TICKET_PASSWORD },
        })
      ).json.error,
      false,
    );
    for (const path of [
      '/api/integrations/accessControl/getGeneaIntegration',
      '/api/integrations/incidentManagement/getTicketingIntegration',
      '/api/integrations/org/getOrgIntegrations',
      '/api/integrations/org/getOrgIntegrationsV2',
      '/api/org/getOrgIntegrations',
      '/api/integrations/getDeliveryLog',
    ]) {
      assert.equal((await call(path, {})).status, 200, path);
    }

    const webhookUuid = masked.webhookUuid;
    const body = JSON.stringify({ eventType: 'ACCESS_GRANTED', doorId: 'd1' });
    const now = Math.floor(Date.now() / 1000);
    const attempts: Array<Record<string, string>> = [
      { [TIMESTAMP_HEADER]: String(now), [SIGNATURE_HEADER]: signBadgePost(SIGNING_SECRET, now, body) },
      { [TIMESTAMP_HEADER]: String(now), [SIGNATURE_HEADER]: signBadgePost('wrong', now, body) },
      {},
    ];
    for (const headers of attempts) {
      const response = await fetch(`${server.rest}/webhooks/badge/${webhookUuid}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
      responses.push(await response.text());
    }

    assert.equal((await call('/api/integrations/accessControl/updateBadgeIntegration', badge({ apiToken: REFUSED_TOKEN }))).json.authError, true);
    assert.equal((await call('/api/integrations/accessControl/deleteBadgeIntegration', {})).json.error, false);
    await new Promise((resolve) => setTimeout(resolve, 100));
  });

  const find = (haystack: string[]) =>
    SECRETS.flatMap((secret) => haystack.filter((text) => text.includes(secret)).map((text) => `${secret} in ${text.slice(0, 200)}`));

  it('answers no secret in any response', () => {
    assert.ok(responses.length >= 15);
    assert.deepEqual(find(responses), []);
  });

  it('announces no secret in any change event (what the stream delivers)', async () => {
    assert.ok(changes.some((c) => c.entity === 'INTEGRATION'));
    assert.deepEqual(find(changes.map((c) => JSON.stringify(c))), []);
    const logged = await server.gatehouse.deps.store.db.selectFrom('change_events').select('payload').where('org_uuid', '=', org.orgUuid).execute();
    assert.deepEqual(find(logged.map((c) => c.payload)), [], 'nor in the durable change log');
  });

  it('writes no secret to any log line', () => {
    assert.ok(logLines.some((l) => l.includes('integration saved')) && logLines.some((l) => l.includes('badge webhook post refused')), 'the log was captured');
    assert.deepEqual(find(logLines), []);
  });

  it('keeps no secret as text in the store', async () => {
    const db = server.gatehouse.deps.store.db;
    const rows = [
      ...(await db.selectFrom('integrations').selectAll().execute()),
      ...(await db.selectFrom('audit_log').selectAll().execute()),
      ...(await db.selectFrom('outbox_deliveries').selectAll().execute()),
    ].map((r) => JSON.stringify(r));
    assert.deepEqual(find(rows), []);
  });
});
