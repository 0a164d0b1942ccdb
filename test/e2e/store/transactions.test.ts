import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
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

// SQLite: the writes that wait for the connection commit together, each in a savepoint (group-commit.ts).
describe('store: SQLite group commit', () => {
  let database: TestDatabase;
  let store: Store;
  before(async () => ({ store, database } = await migratedStore('sqlite')));
  after(async () => {
    await store.close();
    await database.drop();
  });

  const ids = ['EEEEEEEEEEEEEEEEEEEEEE', 'FFFFFFFFFFFFFFFFFFFFFF', 'GGGGGGGGGGGGGGGGGGGGGG', 'HHHHHHHHHHHHHHHHHHHHHH'];

  it('runs waiting writes one after another, each seeing the ones before it, and fails only the one that failed', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const seenBy: Record<string, string[]> = {};
    // The first write holds the connection, so that the next three wait and run in one group after it.
    const first = store.transaction(async (tx) => {
      await tx.insertInto('orgs').values(org(ids[0]!)).execute();
      await held;
    });
    const others = ids.slice(1).map((id, i) =>
      store.transaction(async (tx) => {
        await tx.insertInto('orgs').values(org(id)).execute();
        seenBy[id] = (await tx.selectFrom('orgs').select('uuid').where('uuid', 'in', ids).orderBy('uuid').execute()).map((r) => r.uuid);
        if (i === 1) throw new Error('the second one fails');
        return id;
      }),
    );
    release();
    await first;
    const results = await Promise.allSettled(others);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.match(String((results[1] as PromiseRejectedResult).reason), /the second one fails/);
    // Each saw every write committed or made before it, and never the failed one's rolled-back row.
    assert.deepEqual(seenBy[ids[1]!], ids.slice(0, 2));
    assert.deepEqual(seenBy[ids[2]!], ids.slice(0, 3));
    assert.deepEqual(seenBy[ids[3]!], [ids[0], ids[1], ids[3]]);
    const stored = await uuids(store);
    assert.deepEqual(
      stored.filter((u) => ids.includes(u)),
      [ids[0], ids[1], ids[3]],
    );
  });

  it('answers a write only once its group has committed: another connection already sees it', async () => {
    const other = new SQLite(database.url.slice('sqlite:'.length), { readonly: true });
    const committed = (id: string) => (other.prepare('select count(*) as n from orgs where uuid = ?').get(id) as { n: number }).n === 1;
    try {
      let releaseFirst!: () => void;
      let firstStarted!: () => void;
      const started = new Promise<void>((resolve) => (firstStarted = resolve));
      const first = store.transaction(
        () =>
          new Promise<void>((resolve) => {
            releaseFirst = resolve;
            firstStarted();
          }),
      );
      await started;
      // The next two wait for the first, then run in one group; the last of them is still busy when the one
      // before it is done, and the group commits only after it.
      const answered = store
        .transaction(async (tx) => void (await tx.insertInto('orgs').values(org('JJJJJJJJJJJJJJJJJJJJJJ')).execute()))
        .then(() => committed('JJJJJJJJJJJJJJJJJJJJJJ'));
      const last = store.transaction(async (tx) => {
        await tx.insertInto('orgs').values(org('KKKKKKKKKKKKKKKKKKKKKK')).execute();
        await new Promise((resolve) => setTimeout(resolve, 30));
      });
      releaseFirst();
      await Promise.all([first, last]);
      assert.equal(await answered, true, 'the write was answered before its commit');
    } finally {
      other.close();
    }
  });
});
