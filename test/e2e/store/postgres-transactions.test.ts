import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { createTestDatabase, postgresProblem, type TestDatabase } from '../../helpers/databases.js';
import { openStore, type Store } from '../../../src/store/database.js';
import { migrateToLatest } from '../../../src/store/migrate.js';
import { DurableCommits } from '../../../src/store/durable-commits.js';
import { committing } from '../../../src/store/postgres-dialect.js';

const pgProblem = await postgresProblem();
const org = (uuid: string) => ({ uuid, name: `Org ${uuid.slice(0, 4)}`, created_at_ms: 1 });

// An LSN ('16/B374D848') as a number: the high and low 32-bit halves.
const lsn = (text: string) => {
  const [high, low] = text.split('/').map((h) => parseInt(h, 16));
  return high! * 2 ** 32 + low!;
};

describe(
  'store: PostgreSQL transactions (postgres-dialect.ts)',
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

    describe('commits release their locks before the flush and answer after it', () => {
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
    });

    describe("a transaction's BEGIN goes with its first statement, and its COMMIT with a last one marked committing", () => {
      /** What the store's clients were asked to run, one entry a round trip: a statement's text, or the query object's class. */
      let sent: string[];
      const query = pg.Client.prototype.query;
      beforeEach(() => {
        sent = [];
        pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
          const first = args[0] as string | { text?: string; constructor: { name: string } };
          const text = typeof first === 'string' ? first : first.constructor.name === 'Object' ? first.text! : first.constructor.name;
          // The commit's flush barrier runs on a connection of its own (durable-commits.ts).
          if (!text.includes('pg_logical_emit_message')) sent.push(text);
          return (query as (...a: unknown[]) => unknown).apply(this, args);
        } as typeof query;
      });
      afterEach(() => {
        pg.Client.prototype.query = query;
      });

      it('runs a transaction of two statements in three round trips: BEGIN with the first, the second, COMMIT', async () => {
        const name = await store.transaction(async (tx) => {
          await tx.insertInto('orgs').values(org('BEGIN00000000000000001')).execute();
          return (await tx.selectFrom('orgs').select('name').where('uuid', '=', 'BEGIN00000000000000001').executeTakeFirstOrThrow()).name;
        });
        assert.equal(name, 'Org BEGI');
        assert.equal(sent.length, 3, sent.join(' | '));
        assert.equal(sent[0], 'EnclosedQuery');
        assert.match(sent[1]!, /^select "name" from "orgs"/);
        assert.equal(sent[2], 'commit');
        const row = await store.db.selectFrom('orgs').select('uuid').where('uuid', '=', 'BEGIN00000000000000001').executeTakeFirst();
        assert.ok(row, 'committed: another connection sees the row');
      });

      it('runs the first statement inside the transaction, under its settings, with or without parameters', async () => {
        const settings = (withParameter: boolean) =>
          store.db
            .transaction()
            .setIsolationLevel('serializable')
            .execute(async (tx) => {
              const where = withParameter ? sql`where ${1}::int = 1` : sql``;
              const { rows } = await sql<{ isolation: string; sync: string }>`
              select current_setting('transaction_isolation') as isolation, current_setting('synchronous_commit') as sync ${where}`.execute(tx);
              return rows[0]!;
            });
        assert.deepEqual(await settings(true), { isolation: 'serializable', sync: 'off' });
        assert.deepEqual(await settings(false), { isolation: 'serializable', sync: 'off' });
        // Outside a transaction the session's own settings hold: nothing was left set on the pooled connections.
        const { rows } = await sql<{ isolation: string }>`select current_setting('transaction_isolation') as isolation`.execute(store.db);
        assert.equal(rows[0]!.isolation, 'read committed');
      });

      it('never runs the first statement outside its transaction: a read-only one refuses an insert, and nothing is written', async () => {
        await assert.rejects(
          store.db
            .transaction()
            .setAccessMode('read only')
            .execute((tx) => tx.insertInto('orgs').values(org('BEGIN00000000000000002')).execute()),
          /read-only transaction/,
        );
        assert.equal(await store.db.selectFrom('orgs').select('uuid').where('uuid', '=', 'BEGIN00000000000000002').executeTakeFirst(), undefined);
      });

      it('rolls back whole when the first statement fails, and its connection serves the next transactions', async () => {
        await store.transaction((tx) => tx.insertInto('orgs').values(org('BEGIN00000000000000003')).execute());
        await assert.rejects(
          store.transaction(async (tx) => {
            await tx.insertInto('orgs').values(org('BEGIN00000000000000003')).execute();
            await tx.insertInto('orgs').values(org('BEGIN00000000000000004')).execute();
          }),
          (error: Error) => {
            assert.match(error.message, /duplicate key/);
            // pg raises it from its socket's read; the stack still says which of our calls ran the statement.
            assert.match(error.stack!, /postgres-transactions\.test\.ts/);
            return true;
          },
        );
        await assert.rejects(
          store.transaction(async (tx) => {
            await tx.insertInto('orgs').values(org('BEGIN00000000000000005')).execute();
            throw new Error('the function failed');
          }),
          /the function failed/,
        );
        // More transactions than the pool has connections, so that every connection serves one after the failures.
        for (let i = 0; i < 12; i++)
          await store.transaction((tx) =>
            tx
              .insertInto('orgs')
              .values(org(`BEGINAFTER${String(i).padStart(12, '0')}`))
              .execute(),
          );
        const uuids = (await store.db.selectFrom('orgs').select('uuid').where('uuid', 'like', 'BEGIN%').execute()).map((r) => r.uuid);
        assert.ok(!uuids.includes('BEGIN00000000000000004') && !uuids.includes('BEGIN00000000000000005'), uuids.join(' '));
        assert.equal(uuids.filter((u) => u.startsWith('BEGINAFTER')).length, 12);
      });

      it('sends the COMMIT with a last statement marked committing: two statements in two round trips', async () => {
        const insert = (uuid: string) => sql`insert into orgs (uuid, name, created_at_ms) values (${uuid}, ${'Org ' + uuid.slice(0, 4)}, ${1})`;
        await store.transaction(async (tx) => {
          await tx.insertInto('orgs').values(org('COMMIT0000000000000001')).execute();
          await tx.executeQuery(committing(insert('COMMIT0000000000000002').compile(tx)));
          // Committed before the function ends: another connection can lock the rows at once.
          const { rows } = await sql<{ uuid: string }>`select uuid from orgs where uuid like 'COMMIT%' order by uuid for update nowait`.execute(store.db);
          assert.deepEqual(
            rows.map((r) => r.uuid),
            ['COMMIT0000000000000001', 'COMMIT0000000000000002'],
          );
        });
        assert.deepEqual(sent.slice(0, 2), ['EnclosedQuery', 'EnclosedQuery']);
        assert.ok(!sent.includes('commit'), sent.join(' | '));
        assert.ok(!sent.includes('rollback'), sent.join(' | '));
      });

      it('refuses a statement after the committing one, which stays committed', async () => {
        await assert.rejects(
          store.transaction(async (tx) => {
            await tx.executeQuery(committing(sql`insert into orgs (uuid, name, created_at_ms) values (${'COMMIT0000000000000003'}, ${'x'}, ${1})`.compile(tx)));
            await tx.insertInto('orgs').values(org('COMMIT0000000000000004')).execute();
          }),
          /after its transaction committed/,
        );
        const uuids = (
          await store.db.selectFrom('orgs').select('uuid').where('uuid', 'in', ['COMMIT0000000000000003', 'COMMIT0000000000000004']).execute()
        ).map((r) => r.uuid);
        assert.deepEqual(uuids, ['COMMIT0000000000000003']);
      });

      it('rolls back whole when the committing statement fails, and its connection serves the next transactions', async () => {
        await store.transaction((tx) => tx.insertInto('orgs').values(org('COMMIT0000000000000005')).execute());
        for (let i = 0; i < 12; i++) {
          const uuid = `COMMITFAIL${String(i).padStart(12, '0')}`;
          await assert.rejects(
            store.transaction(async (tx) => {
              await tx.insertInto('orgs').values(org(uuid)).execute();
              await tx.executeQuery(
                committing(sql`insert into orgs (uuid, name, created_at_ms) values (${'COMMIT0000000000000005'}, ${'x'}, ${1})`.compile(tx)),
              );
            }),
            /duplicate key/,
          );
        }
        assert.equal((await store.db.selectFrom('orgs').select('uuid').where('uuid', 'like', 'COMMITFAIL%').execute()).length, 0);
        // Every pooled connection left its failed transaction: a write on each commits, and no session is left idle in one.
        await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            store.transaction((tx) =>
              tx
                .insertInto('orgs')
                .values(org(`COMMITNEXT${String(i).padStart(12, '0')}`))
                .execute(),
            ),
          ),
        );
        assert.equal((await store.db.selectFrom('orgs').select('uuid').where('uuid', 'like', 'COMMITNEXT%').execute()).length, 12);
        const { rows } = await sql<{
          n: string;
        }>`select count(*) as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`.execute(store.db);
        assert.equal(Number(rows[0]!.n), 0);
      });

      it('commits nothing when the committing statement cannot be sent (a value pg cannot bind)', async () => {
        const unbindable = {
          toPostgres: () => {
            throw new Error('this value cannot be bound');
          },
        };
        await assert.rejects(
          store.transaction(async (tx) => {
            await tx.insertInto('orgs').values(org('COMMIT0000000000000007')).execute();
            await tx.executeQuery(
              committing(sql`insert into orgs (uuid, name, created_at_ms) values (${'COMMIT0000000000000008'}, ${unbindable}, ${1})`.compile(tx)),
            );
          }),
          /cannot be bound/,
        );
        const uuids = await store.db.selectFrom('orgs').select('uuid').where('uuid', 'in', ['COMMIT0000000000000007', 'COMMIT0000000000000008']).execute();
        assert.deepEqual(uuids, []);
      });

      it('commits apart after a committing statement without parameters (the simple protocol cannot share its Sync)', async () => {
        await store.transaction(async (tx) => {
          await tx.insertInto('orgs').values(org('COMMIT0000000000000006')).execute();
          await tx.executeQuery(committing(sql`update orgs set name = 'Plain' where uuid = 'COMMIT0000000000000006'`.compile(tx)));
        });
        assert.deepEqual(sent.slice(1), ["update orgs set name = 'Plain' where uuid = 'COMMIT0000000000000006'", 'commit']);
        const row = await store.db.selectFrom('orgs').select('name').where('uuid', '=', 'COMMIT0000000000000006').executeTakeFirstOrThrow();
        assert.equal(row.name, 'Plain');
      });

      it('sends nothing for a transaction that runs no statement', async () => {
        assert.equal(await store.transaction(async () => 42), 42);
        await assert.rejects(
          store.transaction(async () => {
            throw new Error('failed before any statement');
          }),
          /failed before any statement/,
        );
        assert.deepEqual(sent, []);
      });
    });
  },
);
