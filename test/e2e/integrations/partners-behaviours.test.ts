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
  envoy: 'Bearer envoy-tok-1',
};
/** Google's token changes when it is refreshed: both are known. */
const GOOGLE_TOKENS = ['Bearer g-access-1', 'Bearer g-access-2'];

/** The partners' APIs: each knows one credential, and answers its lists and actions. */
function partnerApi(req: ReceivedRequest) {
  const [, partner, ...rest] = req.path.split('?')[0]!.split('/');
  const path = `/${rest.join('/')}`;
  if (partner === 'google' ? !GOOGLE_TOKENS.includes(String(req.headers.authorization)) : req.headers.authorization !== GOOD[partner as keyof typeof GOOD])
    return { status: 401 };
  if (path === '/me') return { status: 200, body: {} };
  if (partner === 'google' && path === '/token') return { status: 200, body: { access_token: 'g-access-2' } };
  if (req.method !== 'GET') return { status: 200, body: {} };
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
    'envoy /locations': [{ id: '41', name: 'HQ lobby' }],
    'envoy /employees': [{ id: 'e-1', name: 'Ann Host', email: 'ann@example.com', locationIds: ['41'] }],
    'envoy /deliveries': [
      { id: 'd-1', status: 'pending', locationId: '41', carrier: { name: 'UPS' }, createdAt: '2026-01-05T10:00:00Z', recipient: { id: 'e-1' } },
      { id: 'd-2', status: 'collected', locationId: '41', carrier: { name: 'DHL' }, createdAt: '2026-01-05T09:00:00Z', pickedUpAt: '2026-01-05T12:00:00Z' },
    ],
    'envoy /entries': [
      { fullName: 'Vic Visitor', signedInAt: '2026-01-05T08:00:00Z', locationId: '41' },
      { fullName: 'Gone Guest', signedInAt: '2026-01-05T07:00:00Z', signedOutAt: '2026-01-05T07:30:00Z' },
    ],
    'envoy /invites': [{ expectedArrivalAt: '2026-01-06T09:00:00Z', invitee: { name: 'Ivy Invitee' }, locationId: '41' }],
    'toast /restaurants/r-1/service-areas': [{ guid: 'sa-1', name: 'Patio' }],
    'toast /restaurants/r-1/orders': [{ guid: 'o-1', serviceAreaGuid: 'sa-1', serviceAreaName: 'Patio', totalAmount: 12.5, employeeName: 'Sam' }],
    'teams /tenants/t-1/users/me/joined-teams': [{ id: 'team-9', name: 'Security' }],
    'calendly /scheduled_events/ev-1': { name: 'Site tour', email: 'guest@example.com', start_time: '2026-01-05T10:00:00Z', end_time: '2026-01-05T11:00:00Z' },
  };
  const body = answers[`${partner} ${path.replace(/\/users\/[^/]+\/joined-teams$/, '/users/me/joined-teams')}`];
  return body === undefined ? { status: 404 } : { status: 200, body };
}

forEachDialect('the partners behaviours', (dialect) => {
  let standIn: Receiver;
  const env: Record<string, string> = {};
  before(async () => {
    standIn = await startReceiver(partnerApi);
    const kinds = ['BRIVO', 'KISI', 'OPENPATH', 'BOULEVARD', 'ENVOY', 'TOAST', 'GOOGLE', 'DROPBOX', 'CALENDLY'];
    env.GATEHOUSE_PARTNER_API_URLS = [...kinds.map((k) => `${k}=${standIn.url}/${k.toLowerCase()}`), `MICROSOFT_TEAMS=${standIn.url}/teams`].join(',');
    env.GATEHOUSE_PARTNER_OAUTH_CLIENT_IDS = 'ENVOY=gh-envoy,GOOGLE=gh-google,DROPBOX=gh-dropbox';
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
    // KisiType has no tokenValid: the read shows the integration disabled.
    assert.equal((await ok(`${AC}/getKisiIntegrationV2`, {})).orgIntegrationV2.enabled, false);
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
    // The secret is sealed: the settings are announced with it masked (no catalogue read answers them).
    const saved = changes.filter((c) => c.entity === 'INTEGRATION' && (c.update as { integration?: string }).integration === 'HONEYWELL_ONGUARD').at(-1);
    assert.equal((saved?.update as { settings: Record<string, unknown> }).settings.presharedSecret, `****${setup.presharedSecret.slice(-4)}`);
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
  const SM = '/api/integrations/serviceManagement';
  const IM = '/api/integrations/incidentManagement';
  const ST = '/api/integrations/storage';

  it("reads Envoy's locations, employees, deliveries and visitors, and sends its invites", async () => {
    await ok(`${SM}/updateEnvoyIntegrationV2`, { envoySettings: { enabled: true, apiToken: 'envoy-tok-1' } });
    assert.deepEqual((await ok('/api/report/getEnvoyLocations', {})).locationList, [{ id: 41, name: 'HQ lobby' }]);
    assert.equal((await ok('/api/report/getEnvoyEmployees', { locationIds: ['41', '42'] })).employees[0].email, 'ann@example.com');
    assert.equal(last().path, '/envoy/employees?locationIds=41%2C42');
    const d = await ok('/api/report/getEnvoyDeliveries', { startTimestampMs: 1, endTimestampMs: 2, locationIds: ['41'] });
    assert.deepEqual([d.pendingDeliveries[0].carrier, d.pendingDeliveries[0].receivedTimestampMs], [{ name: 'UPS' }, Date.parse('2026-01-05T10:00:00Z')]);
    assert.equal(d.collectedDeliveries[0].pickedUpAt, '2026-01-05T12:00:00Z');
    const signedIn = await ok('/api/report/getEnvoyVisitors', {});
    assert.deepEqual(
      signedIn.visitors.map((v: { fullName: string }) => v.fullName),
      ['Vic Visitor'],
    );
    assert.equal(signedIn.invites[0].expectedArrivalTimestampMs, Date.parse('2026-01-06T09:00:00Z'));
    assert.equal((await ok('/api/report/getEnvoyVisitors', { includeSignedOutVisitors: true })).visitors.length, 2);
    await ok(`${SM}/createEnvoyInvite`, { invitation: { invitee: { name: 'Ivy Invitee', email: 'ivy@example.com' }, locationId: '41' } });
    assert.deepEqual([last().method, last().path, last().json.invitee.email], ['POST', '/envoy/invites', 'ivy@example.com']);
    // Another organization has no Envoy account: its call is refused and never reaches ours.
    const theirs = (await server().call('/api/report/getEnvoyLocations', {}, { key: other.apiKey })).json;
    assert.match(theirs.errorMsg, /credentials are missing/);
  });

  it("reports a Toast restaurant's orders with the cameras of their service area, and the restaurants Toast did not answer", async () => {
    const restaurantSettingsMap = {
      'r-1': { restaurantName: 'Cafe One', serviceAreaSettingsMap: { 'sa-1': { assignedCameraList: [site.cameras.Lobby] } } },
      'r-2': { restaurantName: 'Closed Diner' },
    };
    await ok(`${SM}/updateToastIntegrationV2`, { toastSettings: { enabled: true, restaurantSettingsMap } });
    assert.deepEqual((await ok(`${SM}/getToastServiceAreas`, { restaurantGuid: 'r-1' })).serviceAreas, [{ id: 'sa-1', name: 'Patio' }]);
    const one = (await ok('/api/report/getToastEventsTable', { restaurantGuid: 'r-1', businessDate: '20260105' })).eventTable;
    assert.deepEqual(
      [one[0].orderGuid, one[0].restaurantName, one[0].totalAmount, one[0].assignedCameraList],
      ['o-1', 'Cafe One', '12.5', [site.cameras.Lobby]],
    );
    assert.equal(last().path, '/toast/restaurants/r-1/orders?businessDate=20260105');
    const all = await ok('/api/report/getToastEventsTableAllLocations', { businessDate: '20260105' });
    assert.deepEqual([all.eventTable.length, all.failedGuids], [1, ['r-2']]);
  });

  it('installs and removes the Microsoft Teams bot per team and per user, kept in the settings and announced', async () => {
    await ok(`${IM}/updateMicrosoftTeamsIntegrationV2`, { microsoftTeamsSettings: { enabled: true, tenantId: 't-1' } });
    assert.deepEqual((await ok(`${IM}/getMicrosoftUsersJoinedTeams`, {})).teamsMap, { 'team-9': 'Security' });
    const teamsOf = async () => (await ok(`${IM}/getMicrosoftTeamsIntegration`, {})).orgIntegrationV2;
    const before = changes.length;
    await ok(`${IM}/installMicrosoftTeamsBotForTeam`, { teamId: 'team-9' });
    assert.deepEqual([last().method, last().path], ['POST', '/teams/tenants/t-1/teams/team-9/bot']);
    assert.equal((await teamsOf()).microsoftTeamSettingsMap['team-9'].sendChannelNotifications, true);
    assert.ok(changes.slice(before).some((c) => c.entity === 'INTEGRATION'));
    await ok(`${IM}/uninstallMicrosoftTeamsBotForTeam`, { teamId: 'team-9' });
    assert.equal(last().method, 'DELETE');
    assert.deepEqual((await teamsOf()).microsoftTeamSettingsMap, {});
    await ok(`${IM}/installMicrosoftTeamsBotForUser`, {});
    assert.equal(Object.keys((await teamsOf()).microsoftTeamsUserSettingsMap).length, 1);
    await ok(`${IM}/deleteMicrosoftTeamsUser`, {});
    assert.deepEqual((await teamsOf()).microsoftTeamsUserSettingsMap, {});
    await ok(`${IM}/uninstallMicrosoftTeamsBotForUser`, {});
    const theirs = (await server().call(`${IM}/installMicrosoftTeamsBotForTeam`, { teamId: 'team-9' }, { key: other.apiKey })).json;
    assert.match(theirs.errorMsg, /tenantId first/);
  });

  it("answers a Calendly event's invitee and times on both paths", async () => {
    for (const path of [`${SM}/getCalendlyEventDetails`, '/api/integrations/getCalendlyEventDetails']) {
      const r = await ok(path, { eventUuid: 'ev-1' });
      assert.deepEqual(
        [r.name, r.email, r.startTimeMs, r.endTimeMs],
        ['Site tour', 'guest@example.com', Date.parse('2026-01-05T10:00:00Z'), Date.parse('2026-01-05T11:00:00Z')],
      );
    }
  });

  it("refreshes Google's token into the sealed settings, and revoking takes the settings away", async () => {
    await ok(`${ST}/updateGoogleIntegrationV2`, { googleSettings: { enabled: true, apiToken: 'g-access-1', refreshToken: 'g-refresh-1' } });
    assert.equal((await ok(`${ST}/refreshGoogleAccessToken`, {})).accessToken, 'g-access-2');
    const refresh = standIn.requests.find((r) => r.path === '/google/token')!;
    assert.equal(refresh.json.refresh_token, 'g-refresh-1');
    const saved = (await ok(`${ST}/getGoogleIntegration`, {})).orgIntegrationV2;
    assert.equal(saved.apiToken, '****ss-2', 'the new token is kept, masked');
    await ok(`${ST}/revokeGoogleDriveAccess`, {});
    assert.deepEqual([last().path, last().json.token], ['/google/revoke', 'g-refresh-1']);
    assert.equal((await ok('/api/integrations/org/getOrgIntegrations', {})).orgIntegrations.googleSettingsV2 ?? null, null);
  });

  it("answers each OAuth partner's authorize URL with Gatehouse's client id and a sealed state", async () => {
    for (const [path, kind, client] of [
      [`${SM}/initiateEnvoyOAuth`, 'envoy', 'gh-envoy'],
      [`${ST}/initiateGoogleOAuth`, 'google', 'gh-google'],
      [`${ST}/initiateDropboxOAuth`, 'dropbox', 'gh-dropbox'],
    ]) {
      const url = new URL((await ok(path, { requestUrl: 'https://console.example.com/back', param: 'x' })).redirectUrl);
      assert.equal(`${url.origin}${url.pathname}`, `${standIn.url}/${kind}/oauth/authorize`);
      assert.deepEqual([url.searchParams.get('client_id'), url.searchParams.get('redirect_uri')], [client, 'https://console.example.com/back']);
      assert.ok(!url.searchParams.get('state')!.includes(org.orgUuid), 'the state is sealed');
    }
    assert.match((await call(`${ST}/initiateOffice365OAuth`, {})).json.errorMsg, /no OAuth client/);
  });
});
