import { describe, it } from 'node:test';
import { DIALECTS, PG_ADMIN_URL, postgresProblem, type TestDialect } from './databases.js';

const pgProblem = await postgresProblem();
if (pgProblem && !process.env.CI) {
  process.stderr.write(`\n*** PostgreSQL is not reachable at ${PG_ADMIN_URL} (${pgProblem}): the PostgreSQL half of this file is SKIPPED ***\n\n`);
}

/**
 * Runs the same suite once per store dialect, as Kysely's own tests do. Without PostgreSQL its half is
 * skipped loudly; in CI (CI=true) a missing PostgreSQL is a failure, never a skip.
 */
export function forEachDialect(title: string, suite: (dialect: TestDialect) => void): void {
  for (const dialect of DIALECTS) {
    const name = `${title} [${dialect}]`;
    if (dialect === 'postgres' && pgProblem) {
      if (process.env.CI) {
        describe(name, () =>
          it('needs PostgreSQL, which CI must provide', () => {
            throw new Error(`PostgreSQL unreachable: ${pgProblem}`);
          }),
        );
      } else {
        describe(name, { skip: `PostgreSQL unreachable at ${PG_ADMIN_URL}: ${pgProblem}` }, () => {});
      }
      continue;
    }
    describe(name, () => suite(dialect));
  }
}
