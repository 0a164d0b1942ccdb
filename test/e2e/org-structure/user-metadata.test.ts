import { assertFails, assertOk } from '../../helpers/api.js';
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { expectDenied, readOnlyKey, seedYaml, watchChanges } from '../../helpers/org-structure.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

forEachDialect('POST /api/user/metadata/* and /api/user/updateRhombusKeySettingsForUser', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let users: Record<string, string>;
  let theirs: Record<string, string>;
  let reader: string;
  const templates: Record<string, string> = {};
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Fields Inc');
    other = await server.createOrg('Other Org');
    users = (await seedYaml(server, org.orgUuid, 'users: [{name: Ada}, {name: Bob}]')).users!;
    theirs = (await seedYaml(server, other.orgUuid, 'users: [{name: Zed}]')).users!;
    reader = await readOnlyKey(server, org);
  });
  after(() => server.close());
  const call = (path: string, body: unknown, key = org.apiKey) => server.call(path, body, { key });
  const meta = (op: string, body: unknown, key = org.apiKey) => call(`/api/user/metadata/${op}`, body, key);

  it('creates field templates with the kind of value they take, announced on the stream', async () => {
    const watch = await watchChanges(server, org.apiKey, org.orgUuid);
    try {
      for (const template of [
        { fieldName: 'Employee number', valueType: 'NUMBER', scimFieldName: 'employeeNumber' },
        { fieldName: 'Shift', allowedValues: ['day', 'night'] },
        { fieldName: 'Start date', valueType: 'DATE' },
        { fieldName: 'Manager e-mail', valueType: 'EMAIL' },
        { fieldName: 'Badge name', maxLength: 12 },
      ]) {
        const r = await meta('createUserMetadataFieldTemplate', { template });
        assertOk(r);
        templates[template.fieldName] = r.json.template.uuid;
      }
      await watch.waitFor((c) => c.entity === 'USER_METADATA_TEMPLATE' && c.entityUuid === templates.Shift, 'the USER_METADATA_TEMPLATE change');
    } finally {
      await watch.close();
    }
    const map = (await meta('findUserMetadataFieldTemplates', {})).json.templateMap;
    assert.deepEqual([map[templates['Employee number']!].valueType, map[templates['Employee number']!].scimFieldName], ['NUMBER', 'employeeNumber']);
    assert.deepEqual(map[templates.Shift!].allowedValues, ['day', 'night']);
    assertFails(await meta('createUserMetadataFieldTemplate', { template: { fieldName: 'Shift' } }), /already has a user metadata field named "Shift"/);
    assert.deepEqual((await meta('findUserMetadataFieldTemplates', {}, other.apiKey)).json.templateMap, {});
  });

  it("saves a user's values checked against their templates, all or none, by uuid or by field name", async () => {
    const r = await meta('saveUserMetadataFields', {
      userUuid: users.Ada,
      fieldValueMap: { [templates['Employee number']!]: ' 042 ', Shift: 'night', 'Start date': '2024-02-29', 'Manager e-mail': 'Boss@Fields.example' },
    });
    assertOk(r);
    const values = Object.fromEntries(Object.entries(r.json.userFieldValueMap).map(([t, f]: [string, any]) => [t, f.fieldValue]));
    assert.deepEqual(values, {
      [templates['Employee number']!]: '42',
      [templates.Shift!]: 'night',
      [templates['Start date']!]: '2024-02-29',
      [templates['Manager e-mail']!]: 'boss@fields.example',
    });
    for (const [field, value, why] of [
      ['Employee number', 'forty', /is not a number/],
      ['Shift', 'evening', /is not one of day, night/],
      ['Start date', '2023-02-29', /is not a date/],
      ['Manager e-mail', 'boss', /is not an e-mail address/],
      ['Badge name', 'Augusta Ada King', /longer than 12/],
    ] as const) {
      assertFails(await meta('saveUserMetadataFields', { userUuid: users.Bob, fieldValueMap: { Shift: 'day', [field]: value } }), why);
    }
    // Nothing of a refused save is kept.
    assert.deepEqual((await meta('findUserMetadataFields', { userUuid: users.Bob })).json.userFieldValueMap, {});
    assertFails(await meta('saveUserMetadataFields', { userUuid: users.Bob, fieldValueMap: { Unknown: 'x' } }), /template Unknown not found/);
    assertFails(await meta('saveUserMetadataFields', { userUuid: theirs.Zed, fieldValueMap: { Shift: 'day' } }), /User .* not found/);
    assertFails(await meta('findUserMetadataFields', { userUuid: theirs.Zed }), /User .* not found/);
    assert.equal((await meta('saveUserMetadataFields', { userUuid: users.Bob, fieldValueMap: { Shift: 7 } })).status, 400);
  });

  it('refuses a template change that values already saved would break, and deletes a template with its values', async () => {
    assertFails(
      await meta('updateUserMetadataFieldTemplate', { selectiveUpdate: { uuid: templates.Shift, allowedValues: ['day'] } }),
      /"night" is not one of day/,
    );
    const renamed = await meta('updateUserMetadataFieldTemplate', { selectiveUpdate: { uuid: templates.Shift, fieldName: 'Work shift' } });
    assert.equal(renamed.json.template.fieldName, 'Work shift');
    assertFails(await meta('updateUserMetadataFieldTemplate', { selectiveUpdate: { uuid: templates.Shift, fieldName: 'Shift' } }, other.apiKey), /not found/);
    assertOk(await meta('deleteUserMetadataField', { userUuid: users.Ada, templateUuid: templates['Start date'] }));
    assertFails(await meta('deleteUserMetadataField', { userUuid: users.Ada, templateUuid: templates['Start date'] }), /not found/);
    const deleted = await meta('deleteUserMetadataFieldTemplate', { templateUuid: templates.Shift });
    assert.equal(deleted.json.template.fieldName, 'Work shift');
    const left = (await meta('findUserMetadataFields', { userUuid: users.Ada })).json.userFieldValueMap;
    assert.deepEqual(Object.keys(left).sort(), [templates['Employee number'], templates['Manager e-mail']].sort());
    assertFails(await meta('deleteUserMetadataFieldTemplate', { templateUuid: templates['Badge name'] }, other.apiKey), /not found/);
  });

  it('keeps Rhombus Key settings per user, and a user delete takes their values', async () => {
    const r = await call('/api/user/updateRhombusKeySettingsForUser', {
      userUuid: users.Bob,
      rhombusKeyAccessEnabled: true,
      maxMobileCredsAllowed: 2,
      startDateProvisioner: { value: 1_700_000_000 },
    });
    assertOk(r);
    const config = r.json.userRhombusKeyConfig;
    assert.deepEqual(
      [
        config.rhombusOrgUserUuid,
        config.settings.rhombusKeyAccessEnabled,
        config.settings.remoteUnlockEnabled,
        config.settings.credentialProvisioningRules.maxMobileCredsAllowed,
      ],
      [users.Bob, true, false, 2],
    );
    // The catalogue's provisioner: epoch seconds, its kind named; a date never set is null.
    assert.deepEqual(config.settings.credentialProvisioningRules.startDateProvisioner, { type: 'StaticEpochSecondsProvisioner', value: 1_700_000_000 });
    assert.deepEqual(config.settings.credentialProvisioningRules.endDateProvisioner, { type: 'StaticEpochSecondsProvisioner', value: null });
    const again = (await call('/api/user/updateRhombusKeySettingsForUser', { userUuid: users.Bob, remoteUnlockEnabled: true })).json.userRhombusKeyConfig;
    assert.deepEqual([again.settings.rhombusKeyAccessEnabled, again.settings.remoteUnlockEnabled], [true, true]);
    assertFails(
      await call('/api/user/updateRhombusKeySettingsForUser', { userUuid: users.Bob, endDateProvisioner: { value: 1_600_000_000 } }),
      /must be after startDateProvisioner/,
    );
    assertFails(await call('/api/user/updateRhombusKeySettingsForUser', { userUuid: theirs.Zed, rhombusKeyAccessEnabled: true }), /not found/);
    assertOk(await meta('saveUserMetadataFields', { userUuid: users.Bob, fieldValueMap: { 'Employee number': '7' } }));
    const watch = await watchChanges(server, org.apiKey, org.orgUuid);
    try {
      assertOk(await call('/api/user/deleteUser', { userUuid: users.Bob }));
      await watch.waitFor((c) => c.entity === 'USER_METADATA_FIELD' && c.type === 'DELETE' && c.update.userUuid === users.Bob, "Bob's value deleted");
      await watch.waitFor((c) => c.entity === 'USER_SETTINGS' && c.type === 'DELETE' && c.update.userUuid === users.Bob, "Bob's settings deleted");
    } finally {
      await watch.close();
    }
  });

  it("seeds custom fields and users' values from a site file, checking each value against its template", async () => {
    const yaml = `
userMetadataTemplates: [{name: Desk, valueType: NUMBER}, {name: Team, allowedValues: [red, blue]}]
users: [{name: Cy, metadata: {Desk: "12", Team: blue}}]
`;
    const seeded = await seedYaml(server, other.orgUuid, yaml);
    const fields = (await meta('findUserMetadataFields', { userUuid: seeded.users!.Cy }, other.apiKey)).json.userFieldValueMap;
    assert.deepEqual(fields[seeded.userMetadataTemplates!.Desk!].fieldValue, '12');
    await assert.rejects(
      seedYaml(server, other.orgUuid, 'userMetadataTemplates: [{name: Floor, valueType: NUMBER}]\nusers: [{name: Di, metadata: {Floor: top, Wing: A}}]'),
      /users\[0\]\.metadata\.Floor \(Di\): "top" is not a number.*users\[0\]\.metadata\.Wing \(Di\): no user metadata template named "Wing"/,
    );
    // Seeding by name: a template the organization has is kept, by its uuid.
    const again = await seedYaml(server, other.orgUuid, 'userMetadataTemplates: [{name: Desk}]');
    assert.equal(again.userMetadataTemplates!.Desk, seeded.userMetadataTemplates!.Desk);
  });

  it('refuses every write of a read-only user with 403, and lets them read', async () => {
    for (const [op, body] of [
      ['createUserMetadataFieldTemplate', { template: { fieldName: 'Nope' } }],
      ['updateUserMetadataFieldTemplate', { selectiveUpdate: { uuid: templates['Badge name'], fieldName: 'Nope' } }],
      ['deleteUserMetadataFieldTemplate', { templateUuid: templates['Badge name'] }],
      ['saveUserMetadataFields', { userUuid: users.Ada, fieldValueMap: {} }],
      ['deleteUserMetadataField', { userUuid: users.Ada, templateUuid: templates['Badge name'] }],
    ] as const) {
      expectDenied(await meta(op, body, reader));
    }
    expectDenied(await call('/api/user/updateRhombusKeySettingsForUser', { userUuid: users.Ada }, reader));
    assertOk(await meta('findUserMetadataFieldTemplates', {}, reader));
    assertOk(await meta('findUserMetadataFields', { userUuid: users.Ada }, reader));
  });
});
