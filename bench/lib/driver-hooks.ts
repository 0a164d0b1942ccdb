// Hears every SQL statement the database drivers run in this process: better-sqlite3's statements and `exec`, and
// pg's Client.query. Bench-only instrumentation for what counts or records statements (sql-capture.ts,
// raise-cost.ts); the drivers are wrapped once, however many listeners there are.
import SQLite from 'better-sqlite3';
import pg from 'pg';

/** A statement's text, its parameters and whether it answers rows (pg's are taken to). */
export type StatementListener = (sql: string, parameters: unknown[], reader: boolean) => void;

const listeners: StatementListener[] = [];
const notify: StatementListener = (sql, parameters, reader) => {
  for (const listener of listeners) listener(sql, parameters, reader);
};

/** The drivers' own methods, put back once no listener is left. */
let restore: (() => void) | null = null;

/** Hears every statement from now on; answers a function that stops it (the drivers unwrapped with the last one). */
export function onEveryStatement(listener: StatementListener): () => void {
  listeners.push(listener);
  const stop = () => {
    const i = listeners.indexOf(listener);
    if (i >= 0) listeners.splice(i, 1);
    if (listeners.length === 0) restore?.();
  };
  if (listeners.length > 1) return stop;
  const probe = new SQLite(':memory:');
  const statementProto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (...a: unknown[]) => unknown>;
  probe.close();
  const methods = ['all', 'get', 'run', 'iterate'];
  const originals = { statement: methods.map((m) => statementProto[m]!), exec: SQLite.prototype.exec, query: pg.Client.prototype.query };
  restore = () => {
    methods.forEach((m, i) => (statementProto[m] = originals.statement[i]!));
    SQLite.prototype.exec = originals.exec;
    pg.Client.prototype.query = originals.query;
    restore = null;
  };
  for (const method of methods) {
    const original = statementProto[method]!;
    statementProto[method] = function (this: SQLite.Statement, ...args: unknown[]) {
      notify(this.source, args.length === 1 && Array.isArray(args[0]) ? (args[0] as unknown[]) : args, this.reader);
      return original.apply(this, args);
    };
  }
  const exec = SQLite.prototype.exec;
  SQLite.prototype.exec = function (this: SQLite.Database, source: string) {
    notify(source, [], false);
    return exec.call(this, source);
  };
  const query = pg.Client.prototype.query as (...a: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [first, second] = args;
    if (typeof first === 'string') notify(first, Array.isArray(second) ? second : [], true);
    else if (first && typeof first === 'object' && 'text' in first) {
      const config = first as { text: string; values?: unknown[] };
      notify(config.text, config.values ?? [], true);
    }
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
  return stop;
}
