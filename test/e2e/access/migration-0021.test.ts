import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Migrator, type Kysely } from 'kysely';
import { findRules, RULE_FINDERS } from '../../../src/domains/access/grants/finders.js';
import { decideGrants } from '../../../src/domains/access/grants/decision.js';
import { credentialHistory } from '../../../src/domains/access/credentials/credential-history.service.js';
import { openStore, type Store } from '../../../src/store/database.js';
import { migrateToLatest } from '../../../src/store/migrate.js';
import { allMigrations } from '../../../src/store/migrations/index.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/databases.js';
import { forEachDialect } from '../../helpers/dialects.js';

const ids = {
  org: 'o'.repeat(22),
  hq: 'l'.repeat(22),
  ada: 'a'.repeat(22),
  bob: 'b'.repeat(22),
  front: 'f'.repeat(22),
  back: 'k'.repeat(22),
  card: 'c'.repeat(22),
};

/** A store as migration 0020 left it, with two doors' access lists and a credential. */
async function storeBefore0021(db: Kysely<any>): Promise<void> {
  const now = Date.UTC(2024, 0, 1);
  await db.insertInto('orgs').values({ uuid: ids.org, name: 'Old Org', created_at_ms: now }).execute();
  await db
    .insertInto('users')
    .values([ids.ada, ids.bob].map((uuid, i) => ({ uuid, org_uuid: ids.org, name: i ? 'Bob' : 'Ada', created_at_ms: now })))
    .execute();
  await db.insertInto('locations').values({ uuid: ids.hq, org_uuid: ids.org, name: 'HQ', time_zone: 'UTC', created_at_ms: now, updated_at_ms: now }).execute();
  const door = (uuid: string, name: string) => ({
    uuid,
    org_uuid: ids.org,
    location_uuid: ids.hq,
    name,
    has_lock: 1,
    unlock_duration_ms: 5000,
    position: 'CLOSED',
    lock_state: 'LOCKED',
    controller_online: 0,
    created_at_ms: now,
    updated_at_ms: now,
  });
  await db
    .insertInto('doors')
    .values([door(ids.front, 'Front'), door(ids.back, 'Back')])
    .execute();
  await db
    .insertInto('door_access')
    .values([
      { door_uuid: ids.front, user_uuid: ids.ada, org_uuid: ids.org },
      { door_uuid: ids.front, user_uuid: ids.bob, org_uuid: ids.org },
      { door_uuid: ids.back, user_uuid: ids.bob, org_uuid: ids.org },
    ])
    .execute();
  await db
    .insertInto('access_credentials')
    .values({
      uuid: ids.card,
      org_uuid: ids.org,
      user_uuid: ids.ada,
      type: 'STANDARD_CSN',
      value: 'a1b2c3d4',
      lowercase_hex_value: 'a1b2c3d4',
      lookup_key: 'hex:a1b2c3d4',
      claimed_key: 'hex:a1b2c3d4',
      num_bits: 32,
      workflow_status: 'ACTIVE',
      created_at_ms: now,
      updated_at_ms: now,
    })
    .execute();
}

forEachDialect('migration 0021: door access lists become grants, credentials get a history', (dialect) => {
  let database: TestDatabase;
  let store: Store;
  before(async () => {
    database = await createTestDatabase(dialect, { empty: true });
    store = openStore(database.url);
    const migrator = new Migrator({
      db: store.db as Kysely<unknown>,
      provider: { getMigrations: async () => allMigrations(store.dialect) },
      allowUnorderedMigrations: true,
    });
    const { error } = await migrator.migrateTo('0020-org-records');
    assert.equal(error, undefined);
    await storeBefore0021(store.db as unknown as Kysely<any>);
    await migrateToLatest(store);
  });
  after(async () => {
    await store.close();
    await database.drop();
  });

  it("turns each door's access list into a grant naming the door and its users, at all times", async () => {
    const byDoor = RULE_FINDERS.find((f) => f.by === 'AccessControlledDoor')!;
    const front = await findRules({ store }, { orgUuid: ids.org }, 'GRANT', byDoor, { accessControlledDoorUuid: ids.front });
    assert.deepEqual(
      front.map((g) => [g.name, g.locationUuid, g.scheduleUuid, g.accessControlledDoorUuids, g.userUuids.sort()]),
      [['Front access', ids.hq, null, [ids.front], [ids.ada, ids.bob].sort()]],
    );
    const point = (door: string) => ({ kind: 'DOOR' as const, uuid: door, orgUuid: ids.org, locationUuid: ids.hq });
    const at = Date.UTC(2024, 0, 2);
    assert.equal((await decideGrants({ store }, point(ids.front), ids.ada, at)).reason, 'GRANTED');
    assert.equal((await decideGrants({ store }, point(ids.back), ids.ada, at)).reason, 'NO_ACCESS_AT_DOOR');
    assert.equal((await decideGrants({ store }, point(ids.back), ids.bob, at)).reason, 'GRANTED');
  });

  it('starts the history of each existing credential with its state, and drops door_access', async () => {
    const history = await credentialHistory({ store }, { orgUuid: ids.org }, { credentialHexValue: 'A1B2C3D4' }, null);
    assert.deepEqual(
      history.map((c) => [c.uuid, c.workflowStatus, c.userUuid, c.value]),
      [[ids.card, 'ACTIVE', ids.ada, 'a1b2c3d4']],
    );
    await assert.rejects((store.db as unknown as Kysely<any>).selectFrom('door_access').selectAll().execute());
  });
});
