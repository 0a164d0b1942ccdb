import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { ChangeEvent } from '../../../src/store/change-event.js';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startReceiver, type ReceivedRequest, type Receiver } from '../../helpers/receiver.js';
import type { TestOrg } from '../../helpers/server.js';
import { seedIntegrationSite, type IntegrationSite } from './site.js';

/*
 * The partners' behaviours against one stand-in on loopback that plays each partner's API under its own path
 * (GATEHOUSE_PARTNER_API_URLS), and the Honeywell webhooks the platform's CLI provisions and posts to.
 */

const AC = '/api/integrations/accessControl';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const GOOD = {
  brivo: basic('brivo-user', 'brivo-pass'),
  kisi: 'Bearer kisi-key-0001',
  openpath: basic('ops@example.com', 'op-pass'),
  boulevard: 'Bearer blvd-token-1',
  openai: 'Bearer sk-test-0001',
};

/** The partners' APIs: each knows one credential, and answers its lists and actions. */
function partnerApi(req: ReceivedRequest) {
  const [, partner, ...rest] = req.path.split('/');
  const path = `/${rest.join('/')}`;
  if (req.headers.authorization !== GOOD[partner as keyof typeof GOOD]) return { status: 401 };
  if (path === '/me') return { status: 200, body: {} };
  if (req.method === 'POST') return { status: 200, body: {} };
  const answers: Record<string, unknown> = {
    'brivo /doors': [
      { id: 11, name: 'Front' },
      { id: 12, name: 'Back' },
    ],
    'kisi /doors': [
      { id: 1, name: 'Lobby', placeId: 7 },
      { id: 2, name: 'Roof', placeId: 8 },
    ],
    'kisi /places': [{ id: 7, name: 'HQ' }],
    'openpath /lockdown-plans': [{ id: 3, name: 'Full', isActive: false }],
    'boulevard /businesses/biz-1/locations': [{ id: 'loc-1', name: 'Downtown' }],
    'openai /models': { object: 'list', data: [{ id: 'gpt-test', object: 'model', created: 1700000000, owned_by: 'lab' }] },
  };
  const body = answers[`${partner} ${path}`];
  return body === undefined ? { status: 404 } : { status: 200, body };
}

forEachDialect('the partners behaviours', (dialect) => {
  let standIn: Receiver;
  const env: Record<string, string> = {};
  before(async () => {
    standIn = await startReceiver(partnerApi);
    env.GATEHOUSE_PARTNER_API_URLS = ['BRIVO', 'KISI', 'OPENPATH', 'BOULEVARD'].map((k) => `${k}=${standIn.url}/${k.toLowerCase()}`).join(',');
  });
  const server = useTestServer(dialect, { env });
  let org: TestOrg;
  let other: TestOrg;
  let site: IntegrationSite;
  let otherSite: IntegrationSite;
  const changes: ChangeEvent[] = [];
  let unsubscribe = () => {};
  before(async () => {
    org = await server().createOrg('Behaviours Org');
    other = await server().createOrg('Other Org');
    site = await seedIntegrationSite(server(), org.orgUuid);
    otherSite = await seedIntegrationSite(server(), other.orgUuid);
    unsubscribe = server().gatehouse.deps.bus.subscribe('change', (e) => changes.push(e));
  });
  after(async () => {
    unsubscribe();
    await standIn.close();
  });
  const { ok, call } = apiAs(server, () => org.apiKey);
  const last = () => standIn.requests.at(-1)!;

  it("lists a partner's doors with the saved credentials, and answers authError for refused ones", async () => {
    await ok(`${AC}/updateBrivoIntegrationV2`, { brivoSettings: { enabled: true, username: 'brivo-user', password: 'brivo-pass' } });
    assert.equal(last().path, '/brivo/me', 'the credentials were checked on enabling');
    for (const name of ['getBrivoDoors', 'getBrivoDoorsV2', 'getBrivoDoorsV3']) {
      const r = await ok(`${AC}/${name}`, {});
      assert.deepEqual(r.doors, [
        { id: 11, name: 'Front' },
        { id: 12, name: 'Back' },
      ]);
    }
    const refused = (await call(`${AC}/getBrivoDoors`, { username: 'brivo-user', password: 'wrong' })).json;
    assert.equal(refused.error, true);
    assert.equal(refused.authError, true);
  });

  it("unlocks a partner's door at a camera of the organization, and refuses another organization's camera", async () => {
    await ok(`${AC}/unlockBrivoDoor`, { cameraUuid: site.cameras.Lobby, doorId: '11' });
    assert.equal(last().method, 'POST');
    assert.equal(last().path, '/brivo/doors/11/unlock');
    const count = standIn.requests.length;
    const r = (await call(`${AC}/unlockBrivoDoorV2`, { cameraUuid: otherSite.cameras.Lobby, doorId: '11' })).json;
    assert.match(r.errorMsg, /not found/);
    assert.equal(standIn.requests.length, count, 'the partner was not called');
  });

  it('saves enabled settings the partner refuses disabled, with authError', async () => {
    const r = (await call(`${AC}/updateKisiIntegrationV2`, { kisiSettings: { enabled: true, apiSecretKey: 'not-the-key' } })).json;
    assert.equal(r.authError, true);
    assert.equal(r.error, true);
    const got = (await ok(`${AC}/getKisiIntegrationV2`, {})).orgIntegrationV2;
    assert.equal(got.enabled, false);
    assert.equal(got.tokenValid, false);
  });

  it("lists Kisi's places and doors by place, and unlocks at a place", async () => {
    await ok(`${AC}/updateKisiIntegrationV2`, { kisiSettings: { enabled: true, apiSecretKey: 'kisi-key-0001' } });
    assert.deepEqual((await ok(`${AC}/getKisiPlaces`, {})).places, [{ id: 7, name: 'HQ' }]);
    assert.deepEqual((await ok(`${AC}/getKisiDoors`, {})).placeToDoorMap, { 7: [{ id: 1, name: 'Lobby' }], 8: [{ id: 2, name: 'Roof' }] });
    await ok(`${AC}/unlockKisiDoor`, { placeId: 7, doorId: 1 });
    assert.equal(last().path, '/kisi/places/7/doors/1/unlock');
  });

  it('lists, triggers and reverts Openpath lockdown plans', async () => {
    const creds = { email: 'ops@example.com', password: 'op-pass' };
    assert.deepEqual((await ok(`${AC}/getOpenpathLockdownPlans`, creds)).lockdownPlans, [{ id: 3, name: 'Full', isActive: false }]);
    await ok(`${AC}/updateOpenpathIntegration`, { openpathSettings: { enabled: true, ...creds } });
    await ok(`${AC}/triggerOpenpathLockdown`, { doorId: 3 });
    assert.equal(last().path, '/openpath/lockdown-plans/3/trigger');
    await ok(`${AC}/revertOpenpathLockdown`, { doorId: 3 });
    assert.equal(last().path, '/openpath/lockdown-plans/3/revert');
  });

  it("tests Boulevard's connection", async () => {
    const r = await ok(`${AC}/testBoulevardConnection`, { apiToken: 'blvd-token-1', boulevardBusinessId: 'biz-1' });
    assert.equal(r.success, true);
    assert.deepEqual(r.locations, [{ id: 'loc-1', name: 'Downtown' }]);
    const refused = (await call(`${AC}/testBoulevardConnection`, { apiToken: 'nope', boulevardBusinessId: 'biz-1' })).json;
    assert.equal(refused.success, false);
  });

  it('lists the models of the OpenAI-compatible server the settings name', async () => {
    const openAISettings = { enabled: true, apiToken: 'sk-test-0001', baseUrl: `${standIn.url}/openai` };
    await ok('/api/integrations/incidentManagement/updateOpenAIIntegration', { openAISettings });
    for (const path of ['/api/integrations/incidentManagement/getOpenAIModels', '/api/integrations/getOpenAIModels']) {
      const r = await ok(path, {});
      assert.deepEqual(r.models, [{ id: 'gpt-test', object: 'model', created: '1700000000', ownedBy: 'lab', owned_by: 'lab' }]);
    }
  });

  it('refuses a behaviour of a partner whose API Gatehouse does not know', async () => {
    const r = (await call('/api/integrations/incidentManagement/getInformacastScenarios', {})).json;
    assert.equal(r.error, true);
    assert.match(r.errorMsg, /does not know where its API is/);
  });

  it('records a signed OnGuard post to the webhook it provisions as a badge event, and refuses an unsigned one', async () => {
    const doorInfoMap = { '1:4': { doorName: 'Lobby door', locationUuid: site.locations.HQ, assignedCameraList: [site.cameras.Lobby] } };
    const setup = await ok(`${AC}/createOrUpdateHoneywellOnGuardIntegration`, { displayName: 'demo', doorInfoMap });
    assert.match(setup.webhookUrl, /\/webhooks\/honeywell\/[A-Za-z0-9_-]{22}$/);
    const again = await ok(`${AC}/createOrUpdateHoneywellOnGuardIntegration`, {});
    assert.deepEqual(again, setup, 'idempotent: same URL and secret, door map kept');
    const body = JSON.stringify({
      alarm_name: 'Granted Access',
      controller_id: 1,
      device_id: 4,
      cardholder_first_name: 'Eve',
      cardholder_last_name: 'Adams',
      badge_status_name: 'Lost',
      access_granted_entry_made: true,
      timestamp: Date.now(),
    });
    const post = (headers: Record<string, string>) =>
      fetch(setup.webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    assert.equal((await post({})).status, 401);
    const signature = `sha256=${createHmac('sha256', setup.presharedSecret).update(body).digest('hex')}`;
    const accepted = await post({ 'x-rhombus-signature': signature });
    assert.equal(accepted.status, 200);
    const { badgeEventUuid } = (await accepted.json()) as { badgeEventUuid: string };
    const event = changes.find((c) => c.entity === 'BADGE_EVENT' && c.entityUuid === badgeEventUuid);
    assert.equal((event?.update as { badgeHolderName?: string }).badgeHolderName, 'Eve Adams');
    assert.deepEqual((event?.update as { cameraUuids?: string[] }).cameraUuids, [site.cameras.Lobby]);
    assert.equal((await post({ 'x-rhombus-signature': signature })).status, 401, 'a replay is refused');
    // The secret is sealed: the settings answer it masked.
    const listed = (await ok('/api/integrations/org/getOrgIntegrations', {})).orgIntegrations.honeywellOnGuardSettings;
    assert.equal(listed.presharedSecret, `****${setup.presharedSecret.slice(-4)}`);
  });

  it('answers the NetBox and Elements webhooks, which record their posts against the mapped door', async () => {
    for (const [name, payload] of [
      ['NetBox', { eventType: 'Access Granted', portalKey: 'p-9', personName: 'Bob Lee', credentialStatus: 'Active', entryMade: true }],
      ['Elements', { id: 'e-1', eventType: 'Access Granted', deviceId: 'p-9' }],
    ] as const) {
      const { webhookUrl } = await ok(`${AC}/getHoneywell${name}WebhookConfig`, {});
      assert.equal((await ok(`${AC}/getHoneywell${name}WebhookConfig`, {})).webhookUrl, webhookUrl, 'the same URL each time');
      const unmapped = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
      assert.match(await unmapped.text(), /Door p-9 not found/);
      const kind = `HONEYWELL_${name.toUpperCase()}`;
      assert.ok(changes.some((c) => c.entity === 'INTEGRATION' && (c.update as { integration?: string }).integration === kind));
      // Another organization's URL is its own.
      const theirs = (await server().call(`${AC}/getHoneywell${name}WebhookConfig`, {}, { key: other.apiKey })).json.webhookUrl;
      assert.notEqual(theirs, webhookUrl);
    }
  });
});
