// Records the SQL statements the server in this process runs for one request, with their parameters, so that a
// floor server can run exactly the same statements (bench/lib/floor-server.ts). Bench-only instrumentation: it
// hears the drivers' statements (driver-hooks.ts) and tags each HTTP request
// with an AsyncLocalStorage context named by a header, so that only the statements run on a request's behalf
// (and not a timer's or another request's) are counted for it.
import { AsyncLocalStorage } from 'node:async_hooks';
import { Server, type IncomingMessage } from 'node:http';
import { onEveryStatement } from './driver-hooks.js';

export interface CapturedStatement {
  sql: string;
  parameters: unknown[];
  /** The statement answers rows (a SELECT, or a write with RETURNING). */
  reader: boolean;
}

export const CAPTURE_HEADER = 'x-bench-capture';

const requests = new AsyncLocalStorage<CapturedStatement[]>();
const captured = new Map<string, CapturedStatement[]>();
/** Unwraps what installSqlCapture wrapped (null: not installed). */
let uninstall: (() => void) | null = null;

/**
 * Transaction control: the floor server runs its own (or none). On PostgreSQL that includes a transaction's
 * `start transaction; set local synchronous_commit = off` and the flush its commit waits for
 * (src/store/durable-commits.ts): the floor rolls its writes back, so it never commits or flushes.
 */
export const isTransactionControl = (sql: string) =>
  /^\s*(begin|start transaction|commit|rollback|savepoint|release|end)\b/i.test(sql) || /^select pg_logical_emit_message\(true, 'gatehouse'/.test(sql);

function note(sql: string, parameters: unknown[], reader: boolean): void {
  const statements = requests.getStore();
  if (statements && !isTransactionControl(sql)) statements.push({ sql, parameters, reader });
}

/** Wraps the drivers once; afterwards a request with the capture header records its statements under its value. */
export function installSqlCapture(): void {
  if (uninstall) return;
  const emit = Server.prototype.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
  Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]) {
    const id = event === 'request' ? (args[0] as IncomingMessage).headers[CAPTURE_HEADER] : undefined;
    if (typeof id !== 'string') return emit.apply(this, [event, ...args]);
    const statements: CapturedStatement[] = [];
    captured.set(id, statements);
    return requests.run(statements, () => emit.apply(this, [event, ...args]));
  } as typeof Server.prototype.emit;

  const stopHearing = onEveryStatement(note);
  uninstall = () => {
    Server.prototype.emit = emit;
    stopHearing();
    uninstall = null;
  };
}

/**
 * Puts the drivers and the HTTP server back as they were. Measure only after it: the wrappers cost every statement
 * a call, and an AsyncLocalStorage once run keeps Node's promise hooks on (every promise of the process pays for
 * them) until it is disabled.
 */
export function uninstallSqlCapture(): void {
  uninstall?.();
  requests.disable();
}

/** The statements recorded for the request sent with `CAPTURE_HEADER: id` (removed from the record). */
export function takeCaptured(id: string): CapturedStatement[] {
  const statements = captured.get(id) ?? [];
  captured.delete(id);
  return statements;
}
