import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { createTestDatabase, postgresProblem, type TestDatabase } from '../../helpers/databases.js';
import { openStore, type Store } from '../../../src/store/database.js';
import { migrateToLatest } from '../../../src/store/migrate.js';
import { DurableCommits } from '../../../src/store/durable-commits.js';

const pgProblem = await postgresProblem();
const org = (uuid: string) => ({ uuid, name: `Org ${uuid.slice(0, 4)}`, created_at_ms: 1 });

// An LSN ('16/B374D848') as a number: the high and low 32-bit halves.
const lsn = (text: string) => {
  const [high, low] = text.split('/').map((h) => parseInt(h, 16));
  return high! * 2 ** 32 + low!;
};

describe(
  'store: PostgreSQL commits release their locks before the flush and answer after it',
  { skip: pgProblem && !process.env.CI ? `PostgreSQL unreachable: ${pgProblem}` : false },
  () => {
    let database: TestDatabase;
    let store: Store;
    before(async () => {
      database = await createTestDatabase('postgres');
      store = openStore(database.url);
      await migrateToLatest(store);
    });
    after(async () => {
      await store.close();
      await database.drop();
    });

    it('commits without waiting for the WAL flush, and answers only once the WAL is flushed past the commit', async () => {
      for (let i = 0; i < 20; i++) {
        const inside = await store.transaction(async (tx) => {
          await tx
            .insertInto('orgs')
            .values(org(`DURABLE${String(i).padStart(15, '0')}`))
            .execute();
          const { rows } = await sql<{ setting: string; written: string }>`
            select current_setting('synchronous_commit') as setting, pg_current_wal_insert_lsn()::text as written`.execute(tx);
          return rows[0]!;
        });
        assert.equal(inside.setting, 'off');
        // The commit record follows everything the transaction wrote: the flush must be past the last of it.
        const { rows } = await sql<{ flushed: string }>`select pg_current_wal_flush_lsn()::text as flushed`.execute(store.db);
        assert.ok(lsn(rows[0]!.flushed) >= lsn(inside.written), `flushed to ${rows[0]!.flushed}, the write reached ${inside.written}`);
      }
    });

    it('makes the commits of a burst durable together: one flush for those that wait while another runs', async () => {
      const orgs = Array.from({ length: 40 }, (_, i) => org(`BURST${String(i).padStart(17, '0')}`));
      await Promise.all(orgs.map((o) => store.transaction((tx) => tx.insertInto('orgs').values(o).execute())));
      assert.equal((await store.db.selectFrom('orgs').select('uuid').where('uuid', 'like', 'BURST%').execute()).length, 40);

      const durable = new DurableCommits({ connectionString: database.url });
      try {
        await Promise.all(Array.from({ length: 40 }, () => durable.flushed()));
        // The first call starts a flush; the 39 made meanwhile share the next one.
        assert.equal(durable.flushes, 2);
      } finally {
        await durable.close();
      }
    });

    it('fails the waiting commits when the flush cannot be made', async () => {
      const broken = new DurableCommits({ connectionString: database.url.replace(/\/[^/]*$/, '/no_such_database_here') });
      await assert.rejects(Promise.all([broken.flushed(), broken.flushed()]), /no_such_database_here/);
      await broken.close();
    });
  },
);
