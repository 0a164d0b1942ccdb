import { assertFails, assertOk } from '../../helpers/api.js';
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { listApiKeys, TEMPORARY_TOKEN_TTL_MS } from '../../../src/domains/orgs/service.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { expectDenied, readOnlyKey, seedYaml, watchChanges } from '../../helpers/org-structure.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

forEachDialect('POST /api/org/*: the organization record and its settings', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let reader: string;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Settings Inc');
    other = await server.createOrg('Other Org');
    await seedYaml(server, org.orgUuid, 'users: [{name: Owner, email: owner@settings.example}]');
    reader = await readOnlyKey(server, org);
  });
  after(() => server.close());
  const call = (path: string, body: unknown, key = org.apiKey) => server.call(path, body, { key });
  const getOrg = async (key = org.apiKey) => (await call('/api/org/getOrgV2', {}, key)).json.org;

  it('changes the name and team name, announced as ORG and kept apart from other organizations', async () => {
    const watch = await watchChanges(server, org.apiKey, org.orgUuid);
    try {
      const r = await call('/api/org/updateOrg', { org: { name: 'Settings Ltd', teamName: 'Settings-HQ', countryCode: 'gb', address1: '1 Main St' } });
      assertOk(r);
      assert.equal(r.json.teamNameUniquenessConstraintFailure, false);
      const change = await watch.waitFor((c) => c.entity === 'ORG' && c.entityUuid === org.orgUuid, 'the ORG change');
      assert.deepEqual([change.update.name, change.update.teamName], ['Settings Ltd', 'settings-hq']);
      await watch.waitFor((c) => c.entity === 'ORG_SETTINGS' && c.update.countryCode === 'GB', 'the ORG_SETTINGS change');
    } finally {
      await watch.close();
    }
    const read = await getOrg();
    assert.deepEqual([read.name, read.countryCode, read.address1, read.type], ['Settings Ltd', 'GB', '1 Main St', 'CUSTOMER']);
    assert.equal('teamName' in read, false, "the catalogue's OrgV2Type has no teamName: getOrg answers it");
    const feed = (await call('/api/report/getAuditFeed', { includeActions: ['ORG_UPDATE', 'ORG_SETTINGS_CREATE'] })).json.auditEvents;
    // ORG_UPDATE is the catalogue's name of both: the trail's own is in displayText.
    assert.deepEqual(feed.map((e: any) => [e.action, e.principalUuid, e.displayText.split(' ').slice(0, 3).join(' ')]).sort(), [
      ['ORG_UPDATE', org.userUuid, 'updateOrg: CREATE ORG_SETTINGS'],
      ['ORG_UPDATE', org.userUuid, 'updateOrg: UPDATE ORG'],
    ]);
    assert.equal((await call('/api/org/getOrg', {})).json.org.teamName, 'settings-hq');
    // Another organization cannot take it, and nothing of its update happens.
    const taken = await call('/api/org/updateOrg', { org: { name: 'Thief', teamName: 'SETTINGS-hq' } }, other.apiKey);
    assert.equal(taken.json.teamNameUniquenessConstraintFailure, true);
    assert.equal((await getOrg(other.apiKey)).name, 'Other Org');
    assert.equal((await call('/api/org/findIfTeamNameAvailable', { teamName: 'settings-hq' }, other.apiKey)).json.available, false);
    assert.equal((await call('/api/org/findIfTeamNameAvailable', { teamName: 'settings-hq' })).json.available, true);
    assert.equal((await call('/api/org/findIfTeamNameAvailable', { teamName: 'free-name' }, other.apiKey)).json.available, true);
    assertFails(await call('/api/org/findIfTeamNameAvailable', { teamName: 'a b' }), /teamName: "a b" must be/);
    assertFails(await call('/api/org/updateOrg', { org: { name: '   ' } }), /name: must not be empty/);
  });

  it('keeps the general, sign-in, firmware and policy settings, and names the account owner among the users', async () => {
    assertOk(
      await call('/api/org/updateGeneralSettings', {
        accountOwnerEmail: 'OWNER@settings.example',
        accountTechnicalContacts: ['Tech@x.example'],
        inactivityTimeout: 30,
        defaultPlayerViewLiveType: 'BUFFERED',
        uapSettings: { enabled: true, text: 'Be nice' },
      }),
    );
    assertFails(await call('/api/org/updateGeneralSettings', { accountOwnerEmail: 'nobody@settings.example' }), /accountOwnerEmail: user with e-mail/);
    const mfa = await call('/api/org/updateMFASettings', { mfaEnabled: true, v3AuthNumDaysSkip2FAForTrustedDevices: 7 });
    assertOk(mfa);
    assert.deepEqual([mfa.json.org.mfaEnabled, mfa.json.org.v3AuthNumDaysSkip2FAForTrustedDevices], [true, 7]);
    const window = { mode: 'SCHEDULED', intervalsV2: [{ minuteOfWeekStart: 120, minuteOfWeekStop: 240 }] };
    assertOk(await call('/api/org/updateFirmwareSettings', { firmwareUpdateSettings: window }));
    assertFails(
      await call('/api/org/updateFirmwareSettings', {
        firmwareUpdateSettings: { mode: 'SCHEDULED', intervalsV2: [{ minuteOfWeekStart: 300, minuteOfWeekStop: 200 }] },
      }),
      /intervalsV2\[0\]: minuteOfWeekStart must be before/,
    );
    for (const [path, field] of [
      ['updateAiTrainingSettings', 'shareAiTrainingMediaWithRhombus'],
      ['updateOrgAudioAnalysisPolicy', 'audioAnalysisEnabled'],
      ['updateOrgAudioRecordingPolicy', 'audioRecordingEnabled'],
      ['updateOrgLLMUsagePolicy', 'llmUsageEnabled'],
    ] as const) {
      assertOk(await call(`/api/org/${path}`, { [field]: true }));
      assert.equal((await getOrg())[field], true, field);
      assert.equal((await call(`/api/org/${path}`, { [field]: 'yes' })).status, 400);
    }
    const read = await getOrg();
    assert.deepEqual(
      [
        read.accountOwnerEmail,
        read.accountTechnicalContacts,
        read.inactivityTimeout,
        read.defaultPlayerViewLiveType,
        read.uapSettings,
        read.firmwareUpdateSettings,
      ],
      ['owner@settings.example', ['tech@x.example'], 30, 'BUFFERED', { enabled: true, text: 'Be nice' }, window],
    );
    const users = (await call('/api/user/getUsersInOrg', {})).json.users;
    assert.deepEqual(
      users.filter((u: any) => u.accountOwner).map((u: any) => u.email),
      ['owner@settings.example'],
    );
    // The other organization's settings are its own.
    const theirs = await getOrg(other.apiKey);
    assert.deepEqual([theirs.mfaEnabled, theirs.llmUsageEnabled, theirs.accountOwnerEmail], [false, false, null]);
  });

  it('answers the features the organization has from its cameras and archiving configs', async () => {
    const before = (await call('/api/org/getFeatures', {})).json;
    assert.deepEqual([before.faceRecognition, before.cloudArchiving, before.rulesEngine, before.ppeDetection], [false, false, true, false]);
    await seedYaml(server, org.orgUuid, 'locations: [{name: Yard}]\ncameras: [{name: Yard Cam, location: Yard}]');
    assertOk(await call('/api/org/updateCloudArchivingConfig', { archivingConfig: { scope: 'ORG', uploadStrategy: 'CONTINUOUS' } }));
    const after = (await call('/api/org/getFeatures', {})).json;
    assert.deepEqual([after.faceRecognition, after.peopleCounting, after.cloudArchiving], [true, true, true]);
    assert.equal((await call('/api/org/getFeatures', {}, other.apiKey)).json.faceRecognition, false);
  });

  it('issues a temporary token that acts as the caller and stops working after ten minutes', async () => {
    const r = await call('/api/org/getTemporaryOrgToken', {});
    assertOk(r);
    const token = r.json.tempOrgToken;
    assert.equal((await call('/api/customer/getCurrentUser', {}, token)).json.user.uuid, org.userUuid);
    const key = (await listApiKeys(server.gatehouse.deps, { orgUuid: org.orgUuid })).find((k) => k.hint === token.slice(-4))!;
    assert.equal(key.expiresAtMs! - key.createdAtMs, TEMPORARY_TOKEN_TTL_MS);
    const readerToken = (await call('/api/org/getTemporaryOrgToken', {}, reader)).json.tempOrgToken;
    expectDenied(await call('/api/location/createLocation', { location: { name: 'Nope' } }, readerToken));
    const deps = server.gatehouse.deps as { clock: { now(): number } };
    const clock = deps.clock;
    deps.clock = { now: () => Date.now() + TEMPORARY_TOKEN_TTL_MS + 1000 };
    try {
      assert.equal((await call('/api/org/getOrgV2', {}, token)).status, 403);
    } finally {
      deps.clock = clock;
    }
  });

  it('keeps SAML registrations, checks their metadata, and gives their team name to the organization', async () => {
    const xml = '<md:EntityDescriptor entityID="https://idp.example"/>';
    assertOk(await call('/api/org/updateSAMLSettings', { samlSettings: { enabled: true, idpMetaDataXml: xml, teamName: 'saml-team' } }));
    const one = (await call('/api/org/getSAMLSettings', {})).json.samlSettings;
    assert.deepEqual([one.enabled, one.idpMetaDataXml, one.teamName, one.orgUuid], [true, xml, 'saml-team', org.orgUuid]);
    assert.equal((await call('/api/org/getOrg', {})).json.org.teamName, 'saml-team');
    assertFails(await call('/api/org/updateSAMLSettings', { samlSettings: { idpMetaDataXml: 'not xml' } }), /idpMetaDataXml: must be/);
    assertFails(await call('/api/org/updateSAMLSettings', { samlSettings: { teamName: 'saml-team' } }, other.apiKey), /taken by another organization/);
    const v2 = [
      { registrationUuid: one.registrationUuid, enabled: false },
      { domain: 'RHOMBUS_COM', enabled: true },
    ];
    assertOk(await call('/api/org/updateSAMLSettingsV2', { samlSettings: v2 }));
    const list = (await call('/api/org/getSAMLSettingsV2', {})).json.samlSettings;
    assert.equal(list.length, 2);
    assert.equal(list.find((s: any) => s.registrationUuid === one.registrationUuid).enabled, false);
    assertFails(await call('/api/org/updateSAMLSettingsV2', { samlSettings: [{ registrationUuid: one.registrationUuid }] }, other.apiKey), /not found/);
    assert.deepEqual((await call('/api/org/getSAMLSettingsV2', {}, other.apiKey)).json.samlSettings, []);
  });

  it('sets SCIM up with a token answered once, keeps its settings, and revokes it', async () => {
    const watch = await watchChanges(server, org.apiKey, org.orgUuid);
    try {
      const setup = await call('/api/org/setupSCIMAccessForOrg', { sendWelcomeEmailToNewUsers: true });
      assertOk(setup);
      assert.match(setup.json.token, /^[A-Za-z0-9_-]{40,}$/);
      const change = await watch.waitFor((c) => c.entity === 'SCIM_SETTINGS', 'the SCIM_SETTINGS change');
      assert.ok(!JSON.stringify(change.update).includes(setup.json.token));
      const again = await call('/api/org/setupSCIMAccessForOrg', {});
      assert.deepEqual([again.json.scimAccessAlreadySetupFailure, again.json.token ?? null], [true, null]);
      assertOk(await call('/api/org/updateSCIMSettingsForOrg', { addUsersOnRoleMismatch: true }));
      const settings = (await call('/api/org/findSCIMSettingsForOrg', {})).json.scimSettings;
      assert.deepEqual([settings.sendWelcomeEmailToNewUsers, settings.addUsersOnRoleMismatch], [true, true]);
      assert.ok(!JSON.stringify(settings).includes(setup.json.token));
      assert.equal((await call('/api/org/findSCIMSettingsForOrg', {}, other.apiKey)).json.scimSettings ?? null, null);
      assertFails(await call('/api/org/revokeSCIMAccessForOrg', {}, other.apiKey), /SCIM access not found/);
      assertOk(await call('/api/org/revokeSCIMAccessForOrg', {}));
      assert.equal((await call('/api/org/findSCIMSettingsForOrg', {})).json.scimSettings ?? null, null);
      assertFails(await call('/api/org/updateSCIMSettingsForOrg', {}), /set SCIM access up first/);
    } finally {
      await watch.close();
    }
  });

  it('keeps cloud archiving configs per target, checks targets and schedules, and keeps their schedule from deletion', async () => {
    const site = await seedYaml(server, org.orgUuid, 'locations: [{name: Depot}]\nschedules: [{name: Nights, intervals: [{start: 0, stop: 360}]}]');
    const depot = site.locations!.Depot!;
    const nights = site.schedules!.Nights!;
    const config = { scope: 'LOCATION', targetUuid: depot, uploadStrategy: 'WEEKLY_SCHEDULED', uploadScheduleUuid: nights };
    assertOk(await call('/api/org/updateCloudArchivingConfig', { archivingConfig: config }));
    assertOk(await call('/api/org/updateCloudArchivingConfig', { archivingConfig: { ...config, uploadScheduleInverted: true } }));
    const list = (await call('/api/org/getCloudArchivingConfigs', {})).json.archivingConfigs;
    assert.deepEqual(
      list.filter((c: any) => c.scope === 'LOCATION').map((c: any) => [c.targetUuid, c.uploadScheduleUuid, c.uploadScheduleInverted]),
      [[depot, nights, true]],
    );
    assertFails(await call('/api/policy/deleteSchedule', { scheduleUuid: nights }), /cloud archiving config of LOCATION/);
    assertFails(await call('/api/org/updateCloudArchivingConfig', { archivingConfig: { ...config, uploadScheduleUuid: undefined } }), /needs a schedule/);
    assertFails(await call('/api/org/updateCloudArchivingConfig', { archivingConfig: config }, other.apiKey), /Location .* not found/);
    assertFails(await call('/api/org/deleteCloudArchivingConfig', { scope: 'LOCATION', targetUuid: depot }, other.apiKey), /not found/);
    assertOk(await call('/api/org/deleteCloudArchivingConfig', { scope: 'LOCATION', targetUuid: depot }));
    assertFails(await call('/api/org/deleteCloudArchivingConfig', { scope: 'LOCATION', targetUuid: depot }), /not found/);
    assertOk(await call('/api/policy/deleteSchedule', { scheduleUuid: nights }));
  });

  it('refuses every settings write of a read-only user with 403, and lets them read', async () => {
    for (const [op, body] of [
      ['updateOrg', { org: { name: 'Mine' } }],
      ['updateGeneralSettings', { inactivityTimeout: 1 }],
      ['updateMFASettings', { mfaEnabled: false }],
      ['updateFirmwareSettings', {}],
      ['updateAiTrainingSettings', { shareAiTrainingMediaWithRhombus: false }],
      ['updateOrgAudioAnalysisPolicy', { audioAnalysisEnabled: false }],
      ['updateOrgAudioRecordingPolicy', { audioRecordingEnabled: false }],
      ['updateOrgLLMUsagePolicy', { llmUsageEnabled: false }],
      ['updateSAMLSettings', { samlSettings: {} }],
      ['updateSAMLSettingsV2', { samlSettings: [] }],
      ['setupSCIMAccessForOrg', {}],
      ['updateSCIMSettingsForOrg', {}],
      ['revokeSCIMAccessForOrg', {}],
      ['updateCloudArchivingConfig', { archivingConfig: { scope: 'ORG', uploadStrategy: 'CONTINUOUS' } }],
      ['deleteCloudArchivingConfig', { scope: 'ORG' }],
    ] as const) {
      expectDenied(await call(`/api/org/${op}`, body, reader));
    }
    for (const op of ['getOrgV2', 'getFeatures', 'getSAMLSettingsV2', 'findSCIMSettingsForOrg', 'getCloudArchivingConfigs'])
      assertOk(await call(`/api/org/${op}`, {}, reader));
    assert.equal((await getOrg()).llmUsageEnabled, true);
  });
});
