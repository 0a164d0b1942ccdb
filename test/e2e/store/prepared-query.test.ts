import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../../helpers/databases.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { openStore, type Store } from '../../../src/store/database.js';
import { migrateToLatest } from '../../../src/store/migrate.js';
import { preparedQuery } from '../../../src/store/prepared-query.js';

const orgByUuidAndName = preparedQuery(2, (db, uuid: string, name: string) =>
  db.selectFrom('orgs').select(['uuid', 'name']).where('name', '=', name).where('uuid', '=', uuid).where('created_at_ms', '>', 0),
);

forEachDialect('store: prepared queries', (dialect) => {
  let database: TestDatabase;
  let store: Store;
  before(async () => {
    database = await createTestDatabase(dialect);
    store = openStore(database.url);
    await migrateToLatest(store);
    await store.db
      .insertInto('orgs')
      .values([
        { uuid: 'AAAAAAAAAAAAAAAAAAAAAA', name: 'First', created_at_ms: 1 },
        { uuid: 'BBBBBBBBBBBBBBBBBBBBBB', name: 'Second', created_at_ms: 2 },
      ])
      .execute();
  });
  after(async () => {
    await store.close();
    await database.drop();
  });

  it('runs with fresh parameters each time, in their order, beside the constants the query holds', async () => {
    assert.deepEqual(await orgByUuidAndName(store.db, 'AAAAAAAAAAAAAAAAAAAAAA', 'First'), [{ uuid: 'AAAAAAAAAAAAAAAAAAAAAA', name: 'First' }]);
    assert.deepEqual(await orgByUuidAndName(store.db, 'BBBBBBBBBBBBBBBBBBBBBB', 'Second'), [{ uuid: 'BBBBBBBBBBBBBBBBBBBBBB', name: 'Second' }]);
    assert.deepEqual(await orgByUuidAndName(store.db, 'AAAAAAAAAAAAAAAAAAAAAA', 'Second'), []);
  });

  it('runs inside a transaction and sees its uncommitted rows', async () => {
    await store.db.transaction().execute(async (tx) => {
      await tx.insertInto('orgs').values({ uuid: 'CCCCCCCCCCCCCCCCCCCCCC', name: 'Third', created_at_ms: 3 }).execute();
      assert.equal((await orgByUuidAndName(tx, 'CCCCCCCCCCCCCCCCCCCCCC', 'Third')).length, 1);
    });
  });

  it('keeps concurrent callers in the order they asked, each with its own answer', async () => {
    const names = await Promise.all(
      Array.from({ length: 20 }, (_, i) => orgByUuidAndName(store.db, i % 2 ? 'AAAAAAAAAAAAAAAAAAAAAA' : 'BBBBBBBBBBBBBBBBBBBBBB', i % 2 ? 'First' : 'Second')),
    );
    assert.deepEqual(
      names.map((rows) => rows[0]?.name),
      Array.from({ length: 20 }, (_, i) => (i % 2 ? 'First' : 'Second')),
    );
  });

  it('refuses a query that does not use every parameter as a value', async () => {
    const careless = preparedQuery(2, (db, uuid: string, _unused: string) => db.selectFrom('orgs').selectAll().where('uuid', '=', uuid));
    await assert.rejects(careless(store.db, 'AAAAAAAAAAAAAAAAAAAAAA', 'x'), /every parameter must be used as a value/);
  });
});
