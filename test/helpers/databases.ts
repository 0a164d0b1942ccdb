import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { randomBytes } from 'node:crypto';

export type TestDialect = 'sqlite' | 'postgres';
export const DIALECTS: TestDialect[] = ['sqlite', 'postgres'];

/** The PostgreSQL server the tests use (trust auth on this machine; CI starts it). */
export const PG_ADMIN_URL = process.env.GATEHOUSE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_TEST_URL = process.env.GATEHOUSE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function reachableOnce(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (e) {
    return (e as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A busy machine can be slow to accept a connection: try a few times before calling the server absent. */
async function reachable(url: string): Promise<string | null> {
  let problem: string | null = null;
  for (let attempt = 0; attempt < 3; attempt++) {
    problem = await reachableOnce(url);
    if (problem === null || /ECONNREFUSED|ENOTFOUND|does not exist|authentication/.test(problem)) return problem;
  }
  return problem;
}

let pgProblem: Promise<string | null> | null = null;
/** Null when PostgreSQL answers, else why not. */
export function postgresProblem(): Promise<string | null> {
  pgProblem ??= reachable(PG_ADMIN_URL);
  return pgProblem;
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database of the dialect: a file in a temp dir, or a new PostgreSQL database. */
export async function createTestDatabase(dialect: TestDialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'gh-db-'));
    return { url: `sqlite:${join(dir, 'gatehouse.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `gh_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
