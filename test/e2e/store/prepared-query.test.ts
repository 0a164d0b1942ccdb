import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { createTestDatabase, type TestDatabase } from '../../helpers/databases.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { openStore, type Store } from '../../../src/store/database.js';
import { migrateToLatest } from '../../../src/store/migrate.js';
import { POINT_READS_APPLICATION } from '../../../src/store/point-reads.js';
import { preparedInsert, preparedQuery } from '../../../src/store/prepared-query.js';

const insertOrgs = preparedInsert('orgs', ['uuid', 'name', 'team_name', 'created_at_ms'], 'uuid');

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

  it('inserts any number of rows with the values of each call, a missing column as null, answering the returned column', async () => {
    const rows = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => ({
        uuid: `${prefix}${String(i).padStart(21 - prefix.length, '0')}Z`,
        name: `${prefix} ${i}`,
        created_at_ms: 10 + i,
      }));
    // 1 and 3 rows are compiled once each and reused; 40 rows are past the compiled sizes and built as usual.
    for (const [n, prefix] of [
      [1, 'p'],
      [3, 'q'],
      [3, 'r'],
      [40, 's'],
    ] as const) {
      await store.transaction(async (tx) => {
        const returned = await insertOrgs(tx, rows(n, prefix));
        assert.deepEqual(
          returned.map((r) => r.uuid).sort(),
          rows(n, prefix).map((r) => r.uuid),
        );
      });
      const stored = await store.db
        .selectFrom('orgs')
        .select(['uuid', 'name', 'team_name', 'created_at_ms'])
        .where('name', 'like', `${prefix} %`)
        .orderBy('uuid')
        .execute();
      assert.deepEqual(
        stored.map((r) => ({ ...r, created_at_ms: Number(r.created_at_ms) })),
        rows(n, prefix).map((r) => ({ ...r, team_name: null })),
      );
    }
    assert.deepEqual(await insertOrgs(store.db, []), []);
  });

  if (dialect === 'postgres') {
    // PostgreSQL's point reads of a turn go out together on one of the reader's pipelined connections (point-reads.ts).
    const createdAfter = preparedQuery(1, (db, ms: string) =>
      db
        .selectFrom('orgs')
        .select('uuid')
        .where('created_at_ms', '>', sql<number>`cast(${ms} as bigint)`),
    );

    it('fails a read alone: the reads sent beside it in the same turn still answer', async () => {
      const [bad, good, after] = await Promise.allSettled([
        createdAfter(store.db, 'not a number'),
        orgByUuidAndName(store.db, 'AAAAAAAAAAAAAAAAAAAAAA', 'First'),
        createdAfter(store.db, '1'),
      ]);
      assert.equal(bad.status, 'rejected');
      assert.match(String((bad as PromiseRejectedResult).reason), /invalid input syntax/);
      assert.deepEqual(good.status === 'fulfilled' && good.value, [{ uuid: 'AAAAAAAAAAAAAAAAAAAAAA', name: 'First' }]);
      assert.ok(after.status === 'fulfilled' && after.value.some((r) => r.uuid === 'BBBBBBBBBBBBBBBBBBBBBB'));
    });

    it('spreads the reads of turns that queue over at most four connections, and answers each', async () => {
      const sleepy = preparedQuery(1, (db, seconds: string) =>
        db
          .selectFrom('orgs')
          .select('uuid')
          .where(sql<boolean>`pg_sleep(cast(${seconds} as float8)) is not null`)
          .limit(1),
      );
      const readers = sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and application_name = ${POINT_READS_APPLICATION}`;
      const reads = [];
      // One read a turn, each still running when the next turn's goes out.
      for (let i = 0; i < 6; i++) {
        reads.push(sleepy(store.db, `0.${30 + i}`));
        await new Promise((resolve) => setImmediate(resolve));
      }
      // The connections are made while the first reads sleep (0.3 s): count them for 0.2 s of it.
      let seen = 0;
      for (let i = 0; i < 20; i++) {
        seen = Math.max(seen, (await readers.execute(store.db)).rows[0]!.n);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.equal(seen, 4);
      assert.deepEqual(
        (await Promise.all(reads)).map((rows) => rows.length),
        [1, 1, 1, 1, 1, 1],
      );
    });

    it('connects again once the server has ended the connection the reads shared', async () => {
      assert.equal((await orgByUuidAndName(store.db, 'AAAAAAAAAAAAAAAAAAAAAA', 'First')).length, 1);
      const { rows } = await sql<{ ended: boolean }>`select pg_terminate_backend(pid) as ended from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid()`.execute(store.db);
      assert.ok(rows.some((r) => r.ended));
      // The client hears of the end at once; the next turn's reads go out on a new connection.
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal((await orgByUuidAndName(store.db, 'AAAAAAAAAAAAAAAAAAAAAA', 'First')).length, 1);
    });
  }
});
