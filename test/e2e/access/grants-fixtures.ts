import assert from 'node:assert/strict';
import type { TestDialect } from '../../helpers/databases.js';
import { startTestServer, type CallResult, type TestOrg, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
export { changesDuring } from '../../helpers/changes.js';

/**
 * A site for the groups and grants tests: HQ in New York with two doors and an elevator landing, the Annex in
 * Paris with one door, three users and three schedules (minutes of the week from Monday 00:00).
 */
export const GRANTS_SITE = `
locations: [{name: HQ, timeZone: America/New_York}, {name: Annex, timeZone: Europe/Paris}]
users: [{name: Ada}, {name: Bob}, {name: Cy}]
schedules:
  - {name: Weekdays 9-17, intervals: [{start: 540, stop: 1020}, {start: 1980, stop: 2460}, {start: 3420, stop: 3900}, {start: 4860, stop: 5340}, {start: 6300, stop: 6780}]}
  - {name: Sundays, intervals: [{start: 8640, stop: 10080}]}
  - {name: "Sunday 01:00-02:00", intervals: [{start: 8700, stop: 8760}]}
doors:
  - {name: Front Door, location: HQ, lock: true, unlockDurationMs: 300, labels: [lobby]}
  - {name: Lab Door, location: HQ, lock: true, unlockDurationMs: 300, labels: [lab, secure]}
  - {name: Annex Door, location: Annex, lock: false}
elevatorLandings: [{name: Floor 2, location: HQ, floor: 2}]
`;

export interface GrantsSite {
  locations: Record<'HQ' | 'Annex', string>;
  users: Record<'Ada' | 'Bob' | 'Cy', string>;
  schedules: Record<'Weekdays 9-17' | 'Sundays' | 'Sunday 01:00-02:00', string>;
  doors: Record<'Front Door' | 'Lab Door' | 'Annex Door', string>;
  elevatorLandings: Record<'Floor 2', string>;
}

export async function seedGrantsSite(server: TestServer, orgUuid: string, extra = ''): Promise<GrantsSite> {
  const r = await control(server, `/orgs/${orgUuid}/seed`, GRANTS_SITE + extra, { contentType: 'application/yaml' });
  assert.equal(r.json.error, false, r.text);
  return r.json as GrantsSite;
}

/** Calls an access control operation and expects success. */
export async function ok(server: TestServer, org: TestOrg, operation: string, body: unknown): Promise<any> {
  const r = await server.call(`/api/accesscontrol/${operation}`, body, { key: org.apiKey });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.error, false, `${operation}: ${r.text}`);
  return r.json;
}

/** Calls an operation and expects a domain failure whose message matches. */
export async function refused(server: TestServer, org: TestOrg, operation: string, body: unknown, pattern: RegExp): Promise<CallResult> {
  const r = await server.call(operation.startsWith('/') ? operation : `/api/accesscontrol/${operation}`, body, { key: org.apiKey });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.error, true, r.text);
  assert.match(r.json.errorMsg, pattern);
  return r;
}

/** The audit rows of an entity, oldest first: what the audit feed reads. */
export function auditOf(server: TestServer, entityUuid: string) {
  return server.gatehouse.deps.store.db
    .selectFrom('audit_log')
    .select(['entity', 'action', 'operation'])
    .where('entity_uuid', '=', entityUuid)
    .orderBy('id')
    .execute();
}

/** What the groups and grants tests share: one server per file and dialect, an organization and another, both seeded. */
export interface GrantsBed {
  server: TestServer;
  org: TestOrg;
  other: TestOrg;
  site: GrantsSite;
  otherSite: GrantsSite;
}

export async function startGrantsBed(dialect: TestDialect, name: string): Promise<GrantsBed> {
  const server = await startTestServer(dialect);
  const org = await server.createOrg(name);
  const other = await server.createOrg('Other Org');
  return { server, org, other, site: await seedGrantsSite(server, org.orgUuid), otherSite: await seedGrantsSite(server, other.orgUuid) };
}
