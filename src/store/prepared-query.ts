import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { DB } from './schema.js';
import { pointReaderOf } from './point-reads.js';

type Db = Kysely<DB>;

interface Template<R> {
  query: CompiledQuery<R>;
  /** For each compiled parameter: the index of the caller's parameter it stands for, or -1 for a constant. */
  slots: number[];
}

// Stand-ins for the caller's parameters while a query is compiled; no real value looks like them.
const marker = (i: number) => `\u0000gatehouse-parameter-${i}\u0000`;

/**
 * A query that is built and compiled once per dialect, then run with fresh parameters. Kysely builds and
 * compiles every query anew, which costs more than SQLite takes to answer a point lookup; this is for the
 * lookups that every request makes (a key by digest, an organization by uuid), which outside a transaction run
 * through the store's point reader (point-reads.ts). `build` must use each
 * parameter as a value only (not as a column name or a list), so that it lands in the compiled parameters.
 */
export function preparedQuery<P extends unknown[], R>(arity: P['length'], build: (db: Db, ...params: P) => Compilable<R>) {
  const templates = new WeakMap<object, Template<R>>();
  const markers = Array.from({ length: arity }, (_, i) => marker(i)) as P;

  function templateFor(db: Db): Template<R> {
    const adapter = db.getExecutor().adapter;
    let template = templates.get(adapter);
    if (!template) {
      const query = build(db, ...markers).compile();
      const slots = query.parameters.map((value) => markers.indexOf(value as string));
      if (new Set(slots.filter((s) => s >= 0)).size !== arity) throw new Error('preparedQuery: every parameter must be used as a value');
      template = { query, slots };
      templates.set(adapter, template);
    }
    return template;
  }

  return (db: Db, ...params: P): Promise<R[]> => {
    let template: Template<R>;
    try {
      template = templateFor(db);
    } catch (e) {
      // A promise-returning function fails through its promise, never by throwing at its caller.
      return Promise.reject(e as Error);
    }
    const { query, slots } = template;
    const parameters = slots.map((slot, i) => (slot >= 0 ? params[slot] : query.parameters[i]));
    // Outside a transaction, beside Kysely's executor and shared by the identical reads of a loop turn (point-reads.ts).
    const reader = pointReaderOf(db);
    if (reader) return reader.read<R>(query.sql, parameters);
    return db.executeQuery<R>({ ...query, parameters }).then((result) => result.rows);
  };
}

/** Inserts of up to this many rows are compiled once per row count; bigger ones are built each time. */
const MAX_PREPARED_ROWS = 16;

/**
 * A multi-row insert of fixed columns (and optionally `returning` one column), compiled once per dialect and
 * row count, then run with each call's values: the statements every write makes (its audit rows and
 * change-log rows, store/write.ts) cost Kysely more to build and compile than SQLite takes to run them. Rows
 * give every column (a missing one is null); past MAX_PREPARED_ROWS rows the insert is built as usual.
 */
export function preparedInsert<T extends keyof DB & string>(table: T, columns: readonly string[], returning?: string) {
  const templates = new WeakMap<object, Map<number, Template<Record<string, unknown>>>>();

  function build(db: Db, rows: ReadonlyArray<Record<string, unknown>>) {
    const insert = db.insertInto(table).values(rows as never);
    return returning ? insert.returning(returning as never) : insert;
  }

  function templateFor(db: Db, count: number): Template<Record<string, unknown>> {
    const adapter = db.getExecutor().adapter;
    let byCount = templates.get(adapter);
    if (!byCount) templates.set(adapter, (byCount = new Map()));
    let template = byCount.get(count);
    if (!template) {
      const markers = Array.from({ length: count * columns.length }, (_, i) => marker(i));
      const rows = Array.from({ length: count }, (_, r) => Object.fromEntries(columns.map((c, i) => [c, markers[r * columns.length + i]])));
      const query = build(db, rows).compile() as CompiledQuery<Record<string, unknown>>;
      const index = new Map(markers.map((m, i) => [m, i]));
      template = { query, slots: query.parameters.map((value) => index.get(value as string) ?? -1) };
      byCount.set(count, template);
    }
    return template;
  }

  return async (db: Db, rows: ReadonlyArray<Record<string, unknown>>): Promise<Array<Record<string, unknown>>> => {
    if (rows.length === 0) return [];
    if (rows.length > MAX_PREPARED_ROWS) return (await build(db, rows).execute()) as Array<Record<string, unknown>>;
    const { query, slots } = templateFor(db, rows.length);
    const width = columns.length;
    const parameters = slots.map((slot, i) => (slot >= 0 ? (rows[Math.floor(slot / width)]![columns[slot % width]!] ?? null) : query.parameters[i]));
    return (await db.executeQuery<Record<string, unknown>>({ ...query, parameters })).rows;
  };
}
