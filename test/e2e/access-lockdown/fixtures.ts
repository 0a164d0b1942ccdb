import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { TestDialect } from '../../helpers/databases.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
export { recordChanges } from '../../helpers/changes.js';

/**
 * A site for lockdown, exception and guest tests. HQ is in New York (daylight saving starts Sunday
 * 9 March 2025); Annex in Paris. The Lobby Door stands unlocked during Business Hours (Monday to Friday,
 * 09:00-17:00 local); the Exit Door has no lock. The Standard plan of HQ locks every door down but keeps the
 * Stair Door UNLOCKED, and Gus the guard keeps his access.
 */
export const LOCKDOWN_SITE = `
locations: [{name: HQ, timeZone: America/New_York}, {name: Annex, timeZone: Europe/Paris}]
users: [{name: Ada}, {name: Bob}, {name: Gus}]
schedules: [{name: Business Hours, intervals: [{start: 540, stop: 1020}, {start: 1980, stop: 2460}, {start: 3420, stop: 3900}, {start: 4860, stop: 5340}, {start: 6300, stop: 6780}]}]
doors:
  - {name: Front Door, location: HQ, access: [Ada, Bob, Gus], unlockDurationMs: 300}
  - {name: Lobby Door, location: HQ, access: [Ada], unlockedSchedule: Business Hours, unlockDurationMs: 300}
  - {name: Stair Door, location: HQ, access: [Ada], unlockDurationMs: 300}
  - {name: Vault Door, location: HQ, access: [Ada], unlockDurationMs: 600000}
  - {name: Annex Door, location: Annex, access: [Ada], unlockDurationMs: 300}
lockdownPlans:
  - {name: Standard, location: HQ, exemptUsers: [Gus], doors: {Stair Door: UNLOCKED}}
  - {name: Drill, location: HQ, testPlan: {doorStateOverrideEnabled: false, userAccessOverrideEnabled: false}}
guests:
  - {email: Grace@Example.com, location: HQ, firstName: Grace, lastName: Hopper, host: Ada}
`;

export interface LockdownSite {
  locations: Record<'HQ' | 'Annex', string>;
  users: Record<'Ada' | 'Bob' | 'Gus', string>;
  schedules: Record<'Business Hours', string>;
  doors: Record<'Front Door' | 'Lobby Door' | 'Stair Door' | 'Vault Door' | 'Annex Door', string>;
  doorControllers: Record<string, string>;
  lockdownPlans: Record<'Standard' | 'Drill', string>;
  guests: Record<string, string>;
}

export async function seedLockdownSite(server: TestServer, orgUuid: string, extra = ''): Promise<LockdownSite> {
  const r = await control(server, `/orgs/${orgUuid}/seed`, LOCKDOWN_SITE + extra, { contentType: 'application/yaml' });
  assert.equal(r.json.error, false, r.text);
  return r.json as LockdownSite;
}

/** Calls an operation and expects success: its answer. */
export async function ok(server: TestServer, key: string, path: string, body: unknown = {}): Promise<any> {
  const r = await server.call(path, body, { key });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.error, false, `${path}: ${r.text}`);
  return r.json;
}

/** Calls an operation and expects a domain failure: its errorMsg. */
export async function refused(server: TestServer, key: string, path: string, body: unknown = {}): Promise<string> {
  const r = await server.call(path, body, { key });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.error, true, `${path} should fail: ${r.text}`);
  return r.json.errorMsg;
}

/** A badge presented at a door (at an instant when given) through the simulator. */
export async function badge(server: TestServer, door: string, hex: string, at?: number): Promise<any> {
  const r = await control(server, '/simulate/badge', { door, hex, ...(at === undefined ? {} : { at }) });
  assert.equal(r.json.error, false, r.text);
  return r.json;
}

export async function card(server: TestServer, key: string, userUuid: string, hex: string): Promise<string> {
  const r = await ok(server, key, '/api/accesscontrol/createAccessControlCredentialByHexValueAndType', {
    credentialType: 'STANDARD_CSN',
    hexValue: hex,
    userUuid,
  });
  return r.credential.uuid;
}

/** A door's events, newest first (one page of up to 1000). */
export async function eventsOf(server: TestServer, key: string, door: string, types?: string[]): Promise<any[]> {
  const r = await ok(server, key, '/api/component/findComponentEventsByAccessControlledDoor', {
    accessControlledDoorUuid: door,
    limit: 1000,
    typeFilter: types,
  });
  return r.componentEvents;
}

export const FOREIGN = 'AAAAAAAAAAAAAAAAAAAAAA';
export { waitFor } from '../../helpers/wait.js';

/** What a test file of this folder shares: one server, an organization with the site, another organization with its own. */
export interface LockdownSuite<S extends LockdownSite = LockdownSite> {
  server: TestServer;
  org: TestOrg;
  other: TestOrg;
  site: S;
  otherSite: LockdownSite;
  /** Calls an operation as the organization and expects success. */
  call(path: string, body?: unknown): Promise<any>;
  /** Calls an operation (as the organization, or with the key given) and expects a domain failure: its errorMsg. */
  fails(path: string, body?: unknown, key?: string): Promise<string>;
}

/** Starts the file's server (one per dialect) and seeds both organizations, before the file's cases; closes it after. */
export function lockdownSuite<S extends LockdownSite = LockdownSite>(dialect: TestDialect, extra = ''): LockdownSuite<S> {
  const t = {
    call: (path: string, body: unknown = {}) => ok(t.server, t.org.apiKey, path, body),
    fails: (path: string, body: unknown = {}, key?: string) => refused(t.server, key ?? t.org.apiKey, path, body),
  } as LockdownSuite<S>;
  before(async () => {
    t.server = await startTestServer(dialect);
    t.org = await t.server.createOrg('Lockdown Org');
    t.other = await t.server.createOrg('Other Org');
    t.site = (await seedLockdownSite(t.server, t.org.orgUuid, extra)) as S;
    t.otherSite = await seedLockdownSite(t.server, t.other.orgUuid);
  });
  after(() => t.server.close());
  return t;
}
