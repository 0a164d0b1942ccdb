import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import SQLite from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { openStore } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { REPO_ROOT } from '../../scripts/lib/repo-root.js';

export type TestDialect = 'sqlite' | 'postgres';
/** Both dialects, or those GATEHOUSE_TEST_DIALECTS names (CI's run on the newest Node.js release runs SQLite's alone). */
export const DIALECTS: TestDialect[] = (process.env.GATEHOUSE_TEST_DIALECTS?.split(',') ?? ['sqlite', 'postgres']).filter(
  (d): d is TestDialect => d === 'sqlite' || d === 'postgres',
);

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

async function withAdmin<T>(fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The migrations' sources, hashed: a template database is reused exactly as long as they are unchanged. */
function migrationsDigest(): string {
  const hash = createHash('sha256');
  const add = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) add(path);
      else hash.update(entry.name).update(readFileSync(path));
    }
  };
  add(join(REPO_ROOT, 'src/store/migrations'));
  return hash.digest('hex').slice(0, 16);
}

let template: Promise<string> | null = null;
/**
 * A migrated PostgreSQL database that test databases are copied from (`create database ... template`), so
 * that each test server skips the migrations (about 0.5 s each). Made once per migration set, by whichever
 * test process gets there first (an advisory lock keeps the others waiting); in CI older templates are dropped.
 */
function migratedTemplate(): Promise<string> {
  template ??= withAdmin(async (admin) => {
    const name = `gh_template_${migrationsDigest()}`;
    await admin.query('select pg_advisory_lock(4242)');
    try {
      const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (exists.rowCount === 0) {
        const building = `${name}_building`;
        await admin.query(`drop database if exists ${building} with (force)`);
        await admin.query(`create database ${building}`);
        const store = openStore(databaseUrl(building));
        try {
          await migrateToLatest(store);
        } finally {
          await store.close();
        }
        // Renamed only once whole, so that a process killed mid-migration never leaves a half-made template.
        await admin.query(`alter database ${building} rename to ${name}`);
        // In CI one checkout uses the server, so older templates go; on a developer's machine several checkouts
        // (worktrees) may run their suites at once, each with its own migrations, and each keeps its template.
        if (process.env.CI) {
          const stale = await admin.query<{ datname: string }>("select datname from pg_database where datname like 'gh\\_template\\_%' and datname <> $1", [
            name,
          ]);
          for (const { datname } of stale.rows) await admin.query(`drop database if exists ${datname}`).catch(() => {});
        }
      }
    } finally {
      await admin.query('select pg_advisory_unlock(4242)');
    }
    return name;
  });
  return template;
}

/** A copy of the migrated template; remade when another checkout (other migrations) has dropped it meanwhile. */
async function copyTemplate(name: string): Promise<void> {
  try {
    const source = await migratedTemplate();
    await withAdmin((admin) => admin.query(`create database ${name} template ${source}`));
  } catch (e) {
    if (!/does not exist/.test((e as Error).message)) throw e;
    template = null;
    const source = await migratedTemplate();
    await withAdmin((admin) => admin.query(`create database ${name} template ${source}`));
  }
}

let sqliteTemplate: Promise<string> | null = null;
/**
 * The SQLite counterpart of the migrated template: a migrated database file under .gatehouse/, per migration
 * set, that test databases are copies of (a copy takes a millisecond; the migrations about 0.2 s of CPU per test
 * server). Made by the first test process that needs it, under a temporary name renamed into place whole.
 */
function migratedSqliteTemplate(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const dir = join(REPO_ROOT, '.gatehouse', 'sqlite-templates');
    const file = join(dir, `${migrationsDigest()}.db`);
    if (existsSync(file)) return file;
    mkdirSync(dir, { recursive: true });
    const building = mkdtempSync(join(tmpdir(), 'gh-template-'));
    try {
      const store = openStore(`sqlite:${join(building, 'template.db')}`);
      try {
        await migrateToLatest(store);
      } finally {
        await store.close();
      }
      // Whole in one file: the write-ahead log folded in and gone (the file stays in WAL mode, as the store sets it).
      const database = new SQLite(join(building, 'template.db'));
      database.pragma('wal_checkpoint(TRUNCATE)');
      database.close();
      const staged = `${file}.${process.pid}`;
      copyFileSync(join(building, 'template.db'), staged);
      renameSync(staged, file);
    } finally {
      rmSync(building, { recursive: true, force: true });
    }
    return file;
  })();
  return sqliteTemplate;
}

/**
 * A fresh database of the dialect, already migrated: a copy of the migrated template (a file in a temp dir, or
 * a PostgreSQL database); empty with `{ empty: true }`, for tests that run the migrations themselves.
 */
export async function createTestDatabase(dialect: TestDialect, options: { empty?: boolean } = {}): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'gh-db-'));
    const file = join(dir, 'gatehouse.db');
    if (!options.empty) {
      copyFileSync(await migratedSqliteTemplate(), file);
      // Its own store identity, as with PostgreSQL's copies below.
      const copy = new SQLite(file);
      copy.prepare('update store_identity set id = ?').run(randomBytes(8).toString('hex'));
      copy.close();
    }
    return { url: `sqlite:${file}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `gh_test_${randomBytes(6).toString('hex')}`;
  if (options.empty) {
    await withAdmin((admin) => admin.query(`create database ${name}`));
  } else {
    await copyTemplate(name);
    // A copy also copies the template's store identity (migration 0015), from which the bus namespace comes:
    // each test database gets its own, as a freshly migrated store would.
    const copy = new pg.Client({ connectionString: databaseUrl(name) });
    await copy.connect();
    await copy.query('update store_identity set id = $1', [randomBytes(8).toString('hex')]).finally(() => copy.end());
  }
  return {
    url: databaseUrl(name),
    drop: () => withAdmin((admin) => admin.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}
