import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../../helpers/databases.js';
import { openStore, type Store } from '../../../src/store/database.js';
import { migrateToLatest } from '../../../src/store/migrate.js';

const PAGE = 4096;
/** About 300 pages a round: 30 organizations with names of 40 KB (overflow pages). */
const ROUND_ROWS = 30;
const NAME = 'n'.repeat(40_000);
const sizeOf = (file: string) => statSync(file, { throwIfNoEntry: false })?.size ?? 0;

// SQLite: the WAL's pages move into the database file on a thread of its own (sqlite-checkpointer.ts), where the
// serving connection checkpoints by itself only past 10,000 pages.
describe('store: SQLite checkpoints on a thread of their own', () => {
  let database: TestDatabase;
  let store: Store;
  let file: string;
  before(async () => {
    database = await createTestDatabase('sqlite');
    file = database.url.slice('sqlite:'.length);
    store = openStore(database.url);
    await migrateToLatest(store);
  });
  after(async () => {
    await store.close();
    await database.drop();
  });

  it('moves committed pages into the database file soon after, and the WAL starts over instead of growing', async () => {
    const before = sizeOf(file);
    for (let round = 0; round < 10; round++) {
      await store.transaction(async (tx) => {
        const rows = Array.from({ length: ROUND_ROWS }, (_, i) => ({
          uuid: `CHECKPOINT${String(round * 100 + i).padStart(12, '0')}`,
          name: NAME,
          created_at_ms: 1,
        }));
        await tx.insertInto('orgs').values(rows).execute();
      });
      // Bounded: the checkpointer passes every 20 ms; a second is far past it.
      for (let waited = 0; waited < 1000 && sizeOf(file) < before + (round + 1) * ROUND_ROWS * NAME.length; waited += 20) await sleep(20);
    }
    // Ten rounds of about 300 pages: left in the WAL (under the 10,000-page backstop), the database file would not
    // have grown and the WAL would hold them all.
    assert.ok(sizeOf(file) >= before + 10 * ROUND_ROWS * NAME.length, `the database file grew by ${sizeOf(file) - before} bytes`);
    assert.ok(sizeOf(`${file}-wal`) < 3 * ROUND_ROWS * (NAME.length + PAGE), `the WAL holds ${sizeOf(`${file}-wal`)} bytes`);
    const [{ n }] = (await store.db
      .selectFrom('orgs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('uuid', 'like', 'CHECKPOINT%')
      .execute()) as [{ n: number }];
    assert.equal(Number(n), 10 * ROUND_ROWS);
  });
});
