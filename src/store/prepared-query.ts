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
export function preparedQuery<P extends string[], R>(arity: P['length'], build: (db: Db, ...params: P) => Compilable<R>) {
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
