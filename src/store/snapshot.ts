import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql, type Kysely, type Transaction } from 'kysely';
import { fail } from '../errors.js';
import type { Store } from './database.js';

/**
 * Whole-store reset, snapshot and restore, for tests and tools (the control API). Portable across the two
 * dialects: a snapshot is every table's rows as JSON, read in one transaction; a restore empties every
 * table and inserts the rows back in one transaction, parents before children, then moves the serial
 * counters past the restored ids. The migrations' own bookkeeping tables are left alone.
 */
/** Tables are named at run time: every table is a string, every row a record of columns. */
type AnyDb = Kysely<Record<string, Row>>;
type Row = Record<string, unknown>;

interface SnapshotFile {
  format: 'gatehouse-snapshot';
  version: 1;
  takenAtMs: number;
  tables: Record<string, Row[]>;
}

// The store's identity (the bus namespace, migration 0015) names the store, not its state: kept through reset and restore.
const isBookkeeping = (table: string) => table.startsWith('kysely_migration') || table.startsWith('sqlite_') || table === 'store_identity';

/** Tables in an order where every table comes after the tables its foreign keys point to. */
async function tablesInDependencyOrder(store: Store, db: AnyDb): Promise<string[]> {
  const parents = new Map<string, Set<string>>();
  if (store.dialect === 'sqlite') {
    const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
    for (const { name } of tables.rows.filter((t) => !isBookkeeping(t.name))) {
      const keys = await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${name})`.execute(db);
      parents.set(name, new Set(keys.rows.map((k) => k.table)));
    }
  } else {
    const tables = await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(db);
    for (const { name } of tables.rows.filter((t) => !isBookkeeping(t.name))) parents.set(name, new Set());
    const keys = await sql<{ child: string; parent: string }>`
      select c.relname as child, p.relname as parent
      from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
      where k.contype = 'f' and k.connamespace = current_schema()::regnamespace`.execute(db);
    for (const k of keys.rows) parents.get(k.child)?.add(k.parent);
  }
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visit = (table: string, path: Set<string>) => {
    if (placed.has(table) || path.has(table)) return;
    path.add(table);
    for (const parent of [...(parents.get(table) ?? [])].sort()) if (parent !== table) visit(parent, path);
    placed.add(table);
    ordered.push(table);
  };
  for (const table of [...parents.keys()].sort()) visit(table, new Set());
  return ordered;
}

/** Buffers (binary columns) survive the JSON file as `{"$base64": ...}`. */
const encode = (row: Row): Row => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Buffer.isBuffer(v) ? { $base64: v.toString('base64') } : v]));
const decode = (row: Row): Row =>
  Object.fromEntries(
    Object.entries(row).map(([k, v]) => [
      k,
      v && typeof v === 'object' && '$base64' in v ? Buffer.from(String((v as { $base64: string }).$base64), 'base64') : v,
    ]),
  );

async function emptyAll(store: Store, tx: Transaction<Record<string, Row>>, tables: string[]): Promise<void> {
  if (store.dialect === 'postgres') {
    if (tables.length > 0) await sql`truncate table ${sql.join(tables.map((t) => sql.table(t)))} restart identity cascade`.execute(tx);
    return;
  }
  for (const table of [...tables].reverse()) await tx.deleteFrom(table).execute();
  // AUTOINCREMENT counters live in sqlite_sequence, which exists once a table uses one.
  const counters = await sql<{ n: number }>`select count(*) as n from sqlite_master where name = 'sqlite_sequence'`.execute(tx);
  if (Number(counters.rows[0]?.n) > 0) await sql`delete from sqlite_sequence`.execute(tx);
}

/** Moves each PostgreSQL serial sequence past the largest id restored (SQLite's counters follow inserted ids). */
async function resetSequences(store: Store, tx: Transaction<Record<string, Row>>): Promise<void> {
  if (store.dialect !== 'postgres') return;
  const serials = await sql<{ table: string; column: string }>`
    select table_name as "table", column_name as "column" from information_schema.columns
    where table_schema = current_schema() and column_default like 'nextval(%'`.execute(tx);
  for (const { table, column } of serials.rows) {
    await sql`select setval(pg_get_serial_sequence(${table}, ${column}), coalesce((select max(${sql.ref(column)}) from ${sql.table(table)}), 0) + 1, false)`.execute(
      tx,
    );
  }
}

/** Empties every table of the store, on both dialects. */
export async function resetStore(store: Store): Promise<void> {
  const db = store.db as unknown as AnyDb;
  const tables = await tablesInDependencyOrder(store, db);
  await db.transaction().execute((tx) => emptyAll(store, tx, tables));
}

const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

function snapshotPath(dataDir: string, name: string): string {
  // A name is a single safe path segment: no separators, no dots, so never outside snapshots/.
  if (!SNAPSHOT_NAME.test(name)) throw fail('INVALID_VALUE', 'name: 1 to 64 letters, digits, "-" or "_", starting with a letter or digit');
  return join(dataDir, 'snapshots', `${name}.json`);
}

/** Writes every table's rows, read in one transaction, to `<dataDir>/snapshots/<name>.json`. */
export async function saveSnapshot(store: Store, dataDir: string, name: string, nowMs: number): Promise<{ name: string; tables: number; rows: number }> {
  const file = snapshotPath(dataDir, name);
  const db = store.db as unknown as AnyDb;
  const tables = await tablesInDependencyOrder(store, db);
  const read = store.dialect === 'postgres' ? db.transaction().setIsolationLevel('repeatable read') : db.transaction();
  const content = await read.execute(async (tx) => {
    const out: Record<string, Row[]> = {};
    for (const table of tables) out[table] = (await tx.selectFrom(table).selectAll().execute()).map(encode);
    return out;
  });
  const snapshot: SnapshotFile = { format: 'gatehouse-snapshot', version: 1, takenAtMs: nowMs, tables: content };
  mkdirSync(join(dataDir, 'snapshots'), { recursive: true });
  // Written aside and renamed, so a crash never leaves half a snapshot under the name.
  writeFileSync(`${file}.tmp`, JSON.stringify(snapshot), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
  return { name, tables: tables.length, rows: Object.values(content).reduce((n, rows) => n + rows.length, 0) };
}

const INSERT_BATCH = 200;

/** Replaces the whole store with a snapshot, in one transaction. */
export async function restoreSnapshot(store: Store, dataDir: string, name: string): Promise<{ name: string; tables: number; rows: number }> {
  const file = snapshotPath(dataDir, name);
  if (!existsSync(file)) throw fail('NOT_FOUND', `Snapshot "${name}"`);
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as SnapshotFile;
  if (snapshot.format !== 'gatehouse-snapshot' || snapshot.version !== 1) throw fail('INVALID_VALUE', `Snapshot "${name}" is not a Gatehouse snapshot`);
  const db = store.db as unknown as AnyDb;
  const tables = await tablesInDependencyOrder(store, db);
  const unknown = Object.keys(snapshot.tables).filter((t) => !tables.includes(t));
  if (unknown.length > 0) throw fail('INVALID_VALUE', `Snapshot "${name}" has tables this store lacks: ${unknown.join(', ')}`);
  let rows = 0;
  await db.transaction().execute(async (tx) => {
    await emptyAll(store, tx, tables);
    for (const table of tables) {
      const all = (snapshot.tables[table] ?? []).map(decode);
      for (let i = 0; i < all.length; i += INSERT_BATCH)
        await tx
          .insertInto(table)
          .values(all.slice(i, i + INSERT_BATCH))
          .execute();
      rows += all.length;
    }
    await resetSequences(store, tx);
  });
  return { name, tables: tables.length, rows };
}
