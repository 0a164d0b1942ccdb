// The floor a server that reads its answers from the store can reach: a bare Fastify route per path that runs,
// for each request body, exactly the SQL statements Gatehouse ran for it (recorded by bench/lib/sql-capture.ts),
// over the same database, and answers the rows with JSON.stringify. No authentication, no validation, no change
// log, no audit, no objects of its own. Statements are prepared once (SQLite) or named (PostgreSQL, so the server
// plans them once). A request whose statements write runs them in a transaction that it rolls back, so that the
// same body can be sent again (a write's floor is therefore a little low: it never commits).
import { createHash } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { CapturedStatement } from './sql-capture.js';

export interface FloorRequest {
  path: string;
  body: string;
  statements: CapturedStatement[];
}

const key = (path: string, body: unknown) => `${path} ${JSON.stringify(body)}`;
const isWrite = (statements: CapturedStatement[]) => statements.some((s) => !/^\s*(select|with)\b/i.test(s.sql));

type Runner = (statements: CapturedStatement[]) => Promise<unknown[][]>;

function sqliteRunner(file: string): { run: Runner; close(): void } {
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  const prepared = new Map<string, SQLite.Statement>();
  const statement = (sql: string) => {
    let s = prepared.get(sql);
    if (!s) prepared.set(sql, (s = database.prepare(sql)));
    return s;
  };
  // A column read as bytes (Gatehouse reads the camera list's JSON as a blob) is answered as its text, as a bare
  // server reading text would: JSON.stringify would write a Buffer as an array of numbers.
  const textOfBlobs = (rows: Record<string, unknown>[]) => {
    for (const row of rows) for (const column in row) if (Buffer.isBuffer(row[column])) row[column] = row[column].toString('utf8');
    return rows;
  };
  const runAll = (statements: CapturedStatement[]) =>
    statements.map((s) => {
      const prepared = statement(s.sql);
      if (prepared.reader) return textOfBlobs(prepared.all(s.parameters) as Record<string, unknown>[]);
      prepared.run(s.parameters);
      return [];
    });
  return {
    async run(statements) {
      if (!isWrite(statements)) return runAll(statements);
      database.exec('begin immediate');
      try {
        return runAll(statements);
      } catch {
        return []; // a replayed insert meets the row it made the first time: the floor stops there
      } finally {
        database.exec('rollback');
      }
    },
    close: () => database.close(),
  };
}

function postgresRunner(url: string): { run: Runner; close(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const named = (s: CapturedStatement) => ({ name: `floor_${createHash('sha1').update(s.sql).digest('hex').slice(0, 20)}`, text: s.sql, values: s.parameters });
  return {
    async run(statements) {
      const client = await pool.connect();
      try {
        const write = isWrite(statements);
        if (write) await client.query('begin');
        const rows: unknown[][] = [];
        try {
          for (const s of statements) rows.push((await client.query(named(s))).rows as unknown[]);
        } catch {
          // As on SQLite: a replayed insert stops the replay.
        } finally {
          if (write) await client.query('rollback');
        }
        return rows;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** Starts the floor server for `requests` over the database at `databaseUrl` (sqlite:<file> or postgres://). */
export async function startFloorServer(databaseUrl: string, requests: FloorRequest[]): Promise<{ port: number; close(): Promise<void> }> {
  // A build whose drivers are other module instances (BENCH_DIST with a node_modules of its own) runs statements the
  // capture does not hear, and the floor would answer without running any.
  if (requests.every((r) => r.statements.length === 0))
    throw new Error("the floor heard none of the server's SQL statements: with BENCH_DIST, link the build's node_modules to this checkout's");
  const byRequest = new Map(requests.map((r) => [key(r.path, JSON.parse(r.body)), r.statements]));
  const runner = databaseUrl.startsWith('sqlite:') ? sqliteRunner(databaseUrl.slice('sqlite:'.length)) : postgresRunner(databaseUrl);
  const app: FastifyInstance = Fastify();
  for (const path of new Set(requests.map((r) => r.path))) {
    app.post(path, async (request, reply) => {
      const statements = byRequest.get(key(path, request.body));
      if (!statements) return reply.code(404).send({ error: true, errorMsg: 'no recorded statements for this body' });
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(await runner.run(statements)));
    });
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    port: (app.server.address() as { port: number }).port,
    async close() {
      await app.close();
      await runner.close();
    },
  };
}
