import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../../helpers/databases.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { openStore, type Store } from '../../../src/store/database.js';
import { migrateToLatest } from '../../../src/store/migrate.js';

const org = (uuid: string) => ({ uuid, name: `Org ${uuid.slice(0, 1)}`, created_at_ms: 1 });
const uuids = (store: Store) =>
  store.db
    .selectFrom('orgs')
    .select('uuid')
    .orderBy('uuid')
    .execute()
    .then((rows) => rows.map((r) => r.uuid));

async function migratedStore(dialect: 'sqlite' | 'postgres'): Promise<{ store: Store; database: TestDatabase }> {
  const database = await createTestDatabase(dialect);
  const store = openStore(database.url);
  await migrateToLatest(store);
  return { store, database };
}

forEachDialect('store: transactions', (dialect) => {
  let database: TestDatabase;
  let store: Store;
  before(async () => ({ store, database } = await migratedStore(dialect)));
  after(async () => {
    await store.close();
    await database.drop();
  });

  it('commits what the function wrote and answers what it returned', async () => {
    const answer = await store.transaction(async (tx) => {
      await tx.insertInto('orgs').values(org('AAAAAAAAAAAAAAAAAAAAAA')).execute();
      return 42;
    });
    assert.equal(answer, 42);
    assert.deepEqual(await uuids(store), ['AAAAAAAAAAAAAAAAAAAAAA']);
  });

  it('rolls back every statement when the function fails', async () => {
    await assert.rejects(
      store.transaction(async (tx) => {
        await tx.insertInto('orgs').values(org('BBBBBBBBBBBBBBBBBBBBBB')).execute();
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.deepEqual(await uuids(store), ['AAAAAAAAAAAAAAAAAAAAAA']);
  });
});

// SQLite has one connection, shared by the read handle (which waits for the loop turn) and transactions.
describe('store: SQLite reads and transactions on the one connection', () => {
  let database: TestDatabase;
  let store: Store;
  before(async () => ({ store, database } = await migratedStore('sqlite')));
  after(async () => {
    await store.close();
    await database.drop();
  });

  it('starts a transaction at once, while a read outside one waits for the loop turn', async () => {
    const order: string[] = [];
    const read = uuids(store).then(() => order.push('read'));
    const transaction = store.transaction(async () => void order.push('transaction'));
    await Promise.all([read, transaction]);
    assert.deepEqual(order, ['transaction', 'read']);
  });

  it('holds a read back while a transaction has the connection: it sees the commit, never the work in progress', async () => {
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    let inserted!: () => void;
    const insertedOne = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = store.transaction(async (tx) => {
      await tx.insertInto('orgs').values(org('CCCCCCCCCCCCCCCCCCCCCC')).execute();
      inserted();
      await finished;
      await tx.insertInto('orgs').values(org('DDDDDDDDDDDDDDDDDDDDDD')).execute();
    });
    await insertedOne;
    let seen: string[] | null = null;
    const read = uuids(store).then((rows) => (seen = rows));
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(seen, null, 'the read waits for the transaction');
    finish();
    await transaction;
    await read;
    assert.deepEqual(seen, ['CCCCCCCCCCCCCCCCCCCCCC', 'DDDDDDDDDDDDDDDDDDDDDD']);
  });
});
