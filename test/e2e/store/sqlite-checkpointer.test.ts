import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../../helpers/databases.js';
import { openStore, type Store } from '../../../src/store/database.js';
import { migrateToLatest } from '../../../src/store/migrate.js';
import { startCheckpointer } from '../../../src/store/sqlite-checkpointer.js';

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

  it('reports a failing checkpoint once, where the server logs it, instead of dropping it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gh-checkpointer-'));
    const notADatabase = join(dir, 'broken.sqlite');
    writeFileSync(notADatabase, 'this is not a SQLite database file, and no checkpoint can run on it'.repeat(100));
    const failures: Error[] = [];
    const checkpointer = startCheckpointer(notADatabase, (e) => failures.push(e));
    try {
      // Bounded: the checkpointer tries every 20 ms.
      for (let waited = 0; waited < 2000 && failures.length === 0; waited += 20) await sleep(20);
      assert.match(failures[0]?.message ?? 'none', /SQLite checkpoint failed: .*not a database/);
      // Ten more tries fail the same way, and are not reported again.
      await sleep(200);
      assert.equal(failures.length, 1);
    } finally {
      await checkpointer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never holds the process open: a process that leaves its store open still exits', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gh-checkpointer-'));
    try {
      const storeModule = new URL('../../../src/store/database.js', import.meta.url).href;
      const script = `const { openStore } = await import(${JSON.stringify(storeModule)});
        const store = openStore(${JSON.stringify(`sqlite:${join(dir, 'left-open.sqlite')}`)});
        await store.db.selectNoFrom((eb) => eb.val(1).as('one')).execute();`;
      // A file, not -e: run from -e, the script exited even with the worker holding it open (Node.js 20).
      const scriptFile = join(dir, 'leave-open.mjs');
      writeFileSync(scriptFile, script);
      const child = spawnSync(process.execPath, [scriptFile], { timeout: 15_000, encoding: 'utf8' });
      assert.equal(child.error, undefined, 'the process ended by itself');
      assert.equal(child.status, 0, child.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
