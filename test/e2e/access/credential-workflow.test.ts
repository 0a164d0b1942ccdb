import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { createCredential } from './fixtures.js';

const API = '/api/accesscontrol';

forEachDialect('credential workflow and queries', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Workflow Org');
    other = await server.createOrg('Other Org');
  });
  after(() => server.close());

  let pins = 1000;
  const newPin = (key = org.apiKey, userUuid: string | undefined = org.userUuid) =>
    createCredential(server, key, { credentialType: 'PIN_CODE', hexValue: String(pins++), ...(userUuid ? { userUuid } : {}) });
  const act = (transition: string, credentialUuid: string, key = org.apiKey) =>
    server.call(`${API}/${transition}AccessControlCredential`, { credentialUuid }, { key });
  const auditOf = (entityUuid: string) =>
    server.gatehouse.deps.store.db
      .selectFrom('audit_log')
      .select(['action', 'operation', 'user_uuid'])
      .where('entity_uuid', '=', entityUuid)
      .orderBy('id')
      .execute();

  describe(`${API}/suspend, unsuspend, revoke, deleteAccessControlCredential`, () => {
    it('requires authentication', async () => {
      for (const transition of ['suspend', 'unsuspend', 'revoke', 'delete']) {
        const r = await server.call(`${API}/${transition}AccessControlCredential`, { credentialUuid: 'AAAAAAAAAAAAAAAAAAAAAA' }, { key: '' });
        assert.equal(r.status, 401, transition);
      }
    });

    it('suspends an active credential, unsuspends it, then revokes it, auditing each change with its operation', async () => {
      const c = await newPin();
      const suspended = await act('suspend', c.uuid);
      assert.equal(suspended.json.credential.workflowStatus, 'SUSPENDED');
      const unsuspended = await act('unsuspend', c.uuid);
      assert.equal(unsuspended.json.credential.workflowStatus, 'ACTIVE');
      const revoked = await act('revoke', c.uuid);
      assert.equal(revoked.json.credential.workflowStatus, 'REVOKED');
      assert.ok(revoked.json.credential.updatedAtMillis >= c.updatedAtMillis);
      assert.deepEqual(
        (await auditOf(c.uuid)).map((a) => [a.action, a.operation, a.user_uuid]),
        [
          ['CREATE', 'createAccessControlCredentialByHexValueAndType', org.userUuid],
          ['UPDATE', 'suspendAccessControlCredential', org.userUuid],
          ['UPDATE', 'unsuspendAccessControlCredential', org.userUuid],
          ['UPDATE', 'revokeAccessControlCredential', org.userUuid],
        ],
      );
    });

    it('refuses a transition the workflow does not have, naming the state, and changes nothing', async () => {
      const c = await newPin();
      const r = await act('unsuspend', c.uuid);
      assert.deepEqual({ error: r.json.error, errorMsg: r.json.errorMsg }, { error: true, errorMsg: 'Cannot unsuspend a ACTIVE credential (only SUSPENDED)' });
      await act('revoke', c.uuid);
      for (const transition of ['suspend', 'unsuspend', 'revoke']) {
        const r = await act(transition, c.uuid);
        assert.equal(r.json.error, true, transition);
        assert.match(r.json.errorMsg, new RegExp(`^Cannot ${transition} a REVOKED credential`));
      }
      const unassigned = await newPin(org.apiKey, '');
      assert.match((await act('suspend', unassigned.uuid)).json.errorMsg, /^Cannot suspend a UNASSIGNED credential \(only ACTIVE\)$/);
      assert.equal((await act('revoke', unassigned.uuid)).json.credential.workflowStatus, 'REVOKED');
      assert.equal((await auditOf(c.uuid)).length, 2, 'the refused transitions left no audit');
    });

    it('deletes a credential in any state, once', async () => {
      const c = await newPin();
      await act('suspend', c.uuid);
      const r = await act('delete', c.uuid);
      assert.deepEqual(r.json, { error: false });
      assert.deepEqual(
        (await auditOf(c.uuid)).map((a) => a.action),
        ['CREATE', 'UPDATE', 'DELETE'],
      );
      const again = await act('delete', c.uuid);
      assert.deepEqual({ error: again.json.error, errorMsg: again.json.errorMsg }, { error: true, errorMsg: 'Credential not found' });
    });

    it("answers another organization's credential exactly as a missing one", async () => {
      const c = await newPin();
      for (const transition of ['suspend', 'unsuspend', 'revoke', 'delete']) {
        const foreign = await act(transition, c.uuid, other.apiKey);
        const missing = await act(transition, 'AAAAAAAAAAAAAAAAAAAAAA', other.apiKey);
        assert.deepEqual(foreign.json, missing.json, transition);
        assert.equal(foreign.json.errorMsg, 'Credential not found');
      }
      const r = await server.call(`${API}/findAccessControlCredentialByOrg`, {}, { key: org.apiKey });
      assert.equal(r.json.credentials.find((x: any) => x.uuid === c.uuid)?.workflowStatus, 'ACTIVE', 'untouched');
    });

    it('answers 400 to a malformed body', async () => {
      for (const transition of ['suspend', 'unsuspend', 'revoke', 'delete']) {
        assert.equal((await server.call(`${API}/${transition}AccessControlCredential`, { credentialUuid: 12 }, { key: org.apiKey })).status, 400);
        assert.equal((await server.call(`${API}/${transition}AccessControlCredential`, {}, { key: org.apiKey })).status, 400);
      }
    });
  });

  describe(`${API}/findAccessControlCredentialByOrg and ByUser`, () => {
    let scoped: TestOrg;
    let second: string;
    const created: any[] = [];
    before(async () => {
      scoped = await server.createOrg('Query Org');
      // A second user of the organization, through the site loader.
      const seeded = await control(server, `/orgs/${scoped.orgUuid}/seed`, { users: [{ name: 'Second' }] });
      second = seeded.json.users.Second;
      created.push(await createCredential(server, scoped.apiKey, { credentialType: 'PIN_CODE', hexValue: '2468', userUuid: scoped.userUuid }));
      created.push(await createCredential(server, scoped.apiKey, { credentialType: 'WIEGAND_H10301', hexValue: '2020002', userUuid: second }));
      created.push(await createCredential(server, scoped.apiKey, { credentialType: 'STANDARD_CSN', hexValue: 'a1b2c3d4', userUuid: second }));
      await act('suspend', created[2].uuid, scoped.apiKey);
    });

    it('requires authentication', async () => {
      assert.equal((await server.call(`${API}/findAccessControlCredentialByOrg`, {}, { key: '' })).status, 401);
      assert.equal((await server.call(`${API}/findAccessControlCredentialByUser`, { userUuid: second }, { key: '' })).status, 401);
    });

    it("lists the organization's credentials, oldest first, and only its own", async () => {
      const r = await server.call(`${API}/findAccessControlCredentialByOrg`, {}, { key: scoped.apiKey });
      assert.deepEqual(
        r.json.credentials.map((c: any) => c.uuid),
        created.map((c) => c.uuid),
      );
      const others = await server.call(`${API}/findAccessControlCredentialByOrg`, {}, { key: other.apiKey });
      assert.ok(others.json.credentials.every((c: any) => c.orgUuid === other.orgUuid));
    });

    it('narrows by type (catalogue names too) and by workflow status', async () => {
      const byType = await server.call(
        `${API}/findAccessControlCredentialByOrg`,
        { filter: { credTypeFilter: ['WIEGAND_H10301', 'PIN_CODE'] } },
        { key: scoped.apiKey },
      );
      assert.deepEqual(byType.json.credentials.map((c: any) => c.type).sort(), ['PIN_CODE', 'WIEGAND_H10301']);
      const suspended = await server.call(
        `${API}/findAccessControlCredentialByOrg`,
        { filter: { workflowStatusFilter: ['SUSPENDED'] } },
        { key: scoped.apiKey },
      );
      assert.deepEqual(
        suspended.json.credentials.map((c: any) => c.uuid),
        [created[2].uuid],
      );
      const none = await server.call(`${API}/findAccessControlCredentialByOrg`, { filter: { credTypeFilter: ['RHOMBUS_SECURE_CSN'] } }, { key: scoped.apiKey });
      assert.deepEqual(none.json.credentials, []);
    });

    it("lists one user's credentials", async () => {
      const r = await server.call(`${API}/findAccessControlCredentialByUser`, { userUuid: second }, { key: scoped.apiKey });
      assert.deepEqual(
        r.json.credentials.map((c: any) => c.uuid),
        [created[1].uuid, created[2].uuid],
      );
      const active = await server.call(
        `${API}/findAccessControlCredentialByUser`,
        { userUuid: second, filter: { workflowStatusFilter: ['ACTIVE'] } },
        { key: scoped.apiKey },
      );
      assert.deepEqual(
        active.json.credentials.map((c: any) => c.uuid),
        [created[1].uuid],
      );
    });

    it("answers another organization's user exactly as a missing one", async () => {
      const foreign = await server.call(`${API}/findAccessControlCredentialByUser`, { userUuid: second }, { key: other.apiKey });
      const missing = await server.call(`${API}/findAccessControlCredentialByUser`, { userUuid: 'AAAAAAAAAAAAAAAAAAAAAA' }, { key: other.apiKey });
      assert.deepEqual(foreign.json, missing.json);
      assert.equal(foreign.json.errorMsg, 'User not found');
    });

    it('answers 400 to a malformed body', async () => {
      assert.equal((await server.call(`${API}/findAccessControlCredentialByUser`, {}, { key: scoped.apiKey })).status, 400);
      assert.equal(
        (await server.call(`${API}/findAccessControlCredentialByOrg`, { filter: { workflowStatusFilter: ['GONE'] } }, { key: scoped.apiKey })).status,
        400,
      );
    });
  });
});
