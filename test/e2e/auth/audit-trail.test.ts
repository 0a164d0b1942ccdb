import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createApiKey, grantPartner } from '../../../src/domains/orgs/service.js';
import { write } from '../../../src/bus/write.js';
import { rawChange } from '../../helpers/changes.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

forEachDialect('audit trail', (dialect) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(dialect);
  });
  after(() => server.close());

  const auditOf = (orgUuid: string) =>
    server.gatehouse.deps.store.db.selectFrom('audit_log').selectAll().where('org_uuid', '=', orgUuid).orderBy('id').execute();

  it('records who created an organization, its first user and key, in the same transaction', async () => {
    const org = await server.createOrg('Audited');
    const rows = await auditOf(org.orgUuid);
    assert.deepEqual(
      rows.map((r) => [r.entity, r.action, r.operation]),
      [
        ['ORG', 'CREATE', 'org.create'],
        ['USER', 'CREATE', 'org.create'],
        ['API_KEY', 'CREATE', 'org.create'],
      ],
    );
    assert.ok(rows.every((r) => typeof r.at_ms === 'number' && r.at_ms > 0));
  });

  it('records the acting user and key of a write made by an API caller', async () => {
    const org = await server.createOrg('Actor');
    const { keyId } = await createApiKey(
      server.gatehouse.deps,
      { orgUuid: org.orgUuid, kind: 'standard' },
      {
        orgUuid: org.orgUuid,
        userUuid: org.userUuid,
        apiKeyId: 'KEYKEYKEYKEYKEYKEYKEYK',
        partnerOrgUuid: null,
        operation: 'createApiKey',
      },
    );
    const row = (await auditOf(org.orgUuid)).find((r) => r.entity_uuid === keyId)!;
    assert.equal(row.user_uuid, org.userUuid);
    assert.equal(row.api_key_id, 'KEYKEYKEYKEYKEYKEYKEYK');
    assert.equal(row.operation, 'createApiKey');
  });

  it('writes nothing, audit included, when the write fails', async () => {
    const org = await server.createOrg('Rollback');
    const before = (await auditOf(org.orgUuid)).length;
    await assert.rejects(grantPartner(server.gatehouse.deps, { partnerOrgUuid: org.orgUuid, clientOrgUuid: 'AAAAAAAAAAAAAAAAAAAAAA' }));
    await assert.rejects(
      write(server.gatehouse.deps, { orgUuid: org.orgUuid, userUuid: null, apiKeyId: null, partnerOrgUuid: null, operation: 'test' }, async (w) => {
        w.change(rawChange({ entity: 'THING', entityUuid: 'x', type: 'CREATE', update: {} }));
        throw new Error('boom');
      }),
    );
    assert.equal((await auditOf(org.orgUuid)).length, before);
    const changes = await server.gatehouse.deps.store.db.selectFrom('change_events').selectAll().where('org_uuid', '=', org.orgUuid).execute();
    assert.equal(changes.length, 0);
  });

  it('announces a committed change on the bus with its durable id', async () => {
    const org = await server.createOrg('Announcer');
    const seen: unknown[] = [];
    const stop = server.gatehouse.deps.bus.subscribe('change', (e) => {
      if (e.orgUuid === org.orgUuid) seen.push(e);
    });
    await write(server.gatehouse.deps, { orgUuid: org.orgUuid, userUuid: null, apiKeyId: null, partnerOrgUuid: null, operation: 'test' }, async (w) => {
      w.change(rawChange({ entity: 'THING', entityUuid: 'abc', type: 'UPDATE', update: { uuid: 'abc', name: 'n' } }));
    });
    for (let i = 0; i < 50 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    stop();
    assert.equal(seen.length, 1);
    const event = seen[0] as { id: number; entity: string; type: string; update: unknown };
    assert.equal(event.entity, 'THING');
    assert.equal(event.type, 'UPDATE');
    assert.deepEqual(event.update, { uuid: 'abc', name: 'n' });
    const row = await server.gatehouse.deps.store.db.selectFrom('change_events').selectAll().where('id', '=', event.id).executeTakeFirstOrThrow();
    assert.equal(row.entity_uuid, 'abc');
  });
});
