import assert from 'node:assert/strict';
import type { CallResult, TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';

/**
 * A site for access tests. Business Hours is Monday 09:00-17:00 on the wall clock of HQ (New York);
 * the doors relock after 300 ms so that relocks can be watched, except the
 * Vault Door, which stays unlocked for ten minutes.
 */
export const ACCESS_SITE = `
locations: [{name: HQ, timeZone: America/New_York}, {name: Annex, timeZone: Europe/Paris}]
users: [{name: Ada}, {name: Bob}]
schedules: [{name: Business Hours, intervals: [{start: 540, stop: 1020}]}]
doors:
  - {name: Front Door, location: HQ, lock: true, schedule: Business Hours, access: [Ada], unlockDurationMs: 300}
  - {name: Back Door, location: HQ, lock: true, access: [Ada, Bob], unlockDurationMs: 300}
  - {name: Side Door, location: Annex, lock: false, access: [Ada]}
  - {name: Vault Door, location: HQ, lock: true, access: [Ada], unlockDurationMs: 600000}
`;

export interface AccessSite {
  locations: Record<'HQ' | 'Annex', string>;
  users: Record<'Ada' | 'Bob', string>;
  schedules: Record<'Business Hours', string>;
  doors: Record<'Front Door' | 'Back Door' | 'Side Door' | 'Vault Door', string>;
  doorControllers: Record<string, string>;
}

export async function seedAccessSite(server: TestServer, orgUuid: string): Promise<AccessSite> {
  const r = await control(server, `/orgs/${orgUuid}/seed`, ACCESS_SITE, { contentType: 'application/yaml' });
  assert.equal(r.json.error, false, r.text);
  return r.json as AccessSite;
}

/** Monday 8 January 2024, 10:00 in New York (inside Business Hours) and 08:00 (outside). */
export const MONDAY_10AM_NY = Date.UTC(2024, 0, 8, 15, 0);
export const MONDAY_8AM_NY = Date.UTC(2024, 0, 8, 13, 0);

/** H10301 facility 10, card 1093 (a reader manual's worked example), and the same card with a parity bit flipped. */
export const H10301_CARD = { hex: '014088b', value: '10:1093' };
export const H10301_BAD_PARITY = '014088a';

export function simulate<T = any>(server: TestServer, event: string, body: unknown): Promise<CallResult<T>> {
  return control<T>(server, `/simulate/${event}`, body);
}

export async function createCredential(server: TestServer, key: string, body: Record<string, unknown>): Promise<any> {
  const r = await server.call('/api/accesscontrol/createAccessControlCredentialByHexValueAndType', body, { key });
  assert.equal(r.json.error, false, r.text);
  return r.json.credential;
}

/** A door's events, newest first, all pages. */
export async function doorEvents(server: TestServer, key: string, doorUuid: string, extra: Record<string, unknown> = {}): Promise<any[]> {
  const events: any[] = [];
  let lastEvaluatedKey: string | undefined;
  for (let page = 0; page < 100; page++) {
    const r = await server.call(
      '/api/component/findPaginatedComponentEventsByAccessControlledDoor',
      { accessControlledDoorUuid: doorUuid, ...extra, lastEvaluatedKey },
      { key },
    );
    assert.equal(r.json.error, false, r.text);
    events.push(...r.json.componentEvents);
    lastEvaluatedKey = r.json.lastEvaluatedKey ?? undefined;
    if (!lastEvaluatedKey) return events;
  }
  throw new Error('more than 100 pages');
}

export { waitFor } from '../../helpers/wait.js';
