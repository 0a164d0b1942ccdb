import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, it } from 'node:test';
import { REPO_ROOT } from '../../../scripts/lib/repo-root.js';
import { useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import type { TestOrg } from '../../helpers/server.js';

/**
 * Every REST route the platform's official clients call (client-calls.md, section 1: its route table) answers:
 * none is a 404. The route names are kept in test/fixtures/client-routes.json (names only), which must match
 * the table wherever the shared reference is at hand.
 */
const FIXTURE = join(REPO_ROOT, 'test/fixtures/client-routes.json');
const REFERENCE = join(REPO_ROOT, '../shared/reference/client-calls.md');
const ROUTES: string[] = JSON.parse(readFileSync(FIXTURE, 'utf8'));

/** The routes of the table, read from the markdown: the first cell of each row, a path in backquotes. */
function tableRoutes(markdown: string): string[] {
  const routes = new Set<string>();
  for (const line of markdown.split('\n')) {
    const m = /^\| `(\/api\/[^`]+)` \|/.exec(line);
    if (m) routes.add(m[1]!);
  }
  return [...routes].sort();
}

/**
 * Routes of the table still to serve (issue 33). Each is asserted to be a 404 still, so that serving one fails
 * this test until it leaves the list; the list only shrinks.
 */
const NOT_YET = new Set<string>([]);

it(
  'keeps test/fixtures/client-routes.json the route table of client-calls.md',
  { skip: !existsSync(REFERENCE) && 'the shared reference is not at hand' },
  () => {
    assert.deepEqual(ROUTES, tableRoutes(readFileSync(REFERENCE, 'utf8')));
  },
);

forEachDialect('every route the official clients call answers (no 404)', (dialect) => {
  const server = useTestServer(dialect);
  let org: TestOrg;
  before(async () => {
    org = await server().createOrg('Client Routes');
  });

  it('reads the whole table', () => {
    assert.ok(ROUTES.length >= 230, `only ${ROUTES.length} routes`);
  });

  it('answers every route of the table, with an empty body, other than 404 (and never a 5xx)', async () => {
    const missing: string[] = [];
    const served: string[] = [];
    const failed: string[] = [];
    for (const route of ROUTES) {
      const r = await server().call(route, {}, { key: org.apiKey });
      if (r.status >= 500) failed.push(`${route}: ${r.status} ${r.text.slice(0, 200)}`);
      if (r.status === 404 && !NOT_YET.has(route)) missing.push(route);
      if (r.status !== 404 && NOT_YET.has(route)) served.push(route);
    }
    assert.deepEqual(missing, [], 'routes of the table that answer 404');
    assert.deepEqual(failed, [], 'routes that answer 5xx to an empty body');
    assert.deepEqual(served, [], 'routes now served: take them out of NOT_YET');
  });
});
