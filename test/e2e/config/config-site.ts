import assert from 'node:assert/strict';
import { newRuuid } from '../../../src/ids.js';
import type { CallResult, TestOrg, TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
export { changesDuring } from '../../helpers/changes.js';

/** The site both test organizations get: the same names, different uuids. */
export const CONFIG_SITE = {
  locations: [
    { name: 'HQ', timeZone: 'America/New_York', monitoringPin: '2468' },
    { name: 'Annex', timeZone: 'Europe/Berlin' },
  ],
  users: [{ name: 'Ada Admin' }],
  schedules: [
    { name: 'Business Hours', intervals: [{ start: 1920, stop: 2520 }] },
    { name: 'Spare', intervals: [{ start: 0, stop: 60 }] },
    { name: 'Locked', intervals: [{ start: 60, stop: 120 }], mutable: false },
  ],
  cameras: [
    { name: 'Lobby', location: 'HQ', serialNumber: 'CAM-1', firmwareVersion: '4.2.1', macAddress: '00-1A-2B-3C-4D-5E' },
    { name: 'Dock', location: 'Annex', connectionStatus: 'RED' },
  ],
  doors: [{ name: 'Front Door', location: 'HQ', schedule: 'Business Hours', cameras: ['Lobby'] }],
  elevatorLandings: [
    { name: 'Floor 2', location: 'HQ', floor: 2 },
    { name: 'Floor 3', location: 'Annex', floor: 3 },
  ],
  thirdPartyCameraDiscoveries: [
    { macAddress: '00:11:22:33:44:55', assignments: 0 },
    { macAddress: '00:11:22:33:44:66', assignments: 2 },
  ],
};

export type SeededSite = Record<string, Record<string, string>>;
export interface SiteOrg extends TestOrg {
  site: SeededSite;
}

/** Creates an organization and seeds CONFIG_SITE (or the given site) into it through the control API. */
export async function createSiteOrg(server: TestServer, name: string, site: object = CONFIG_SITE): Promise<SiteOrg> {
  const org = await server.createOrg(name);
  const r = await control(server, `/orgs/${org.orgUuid}/seed`, site);
  assert.equal(r.json?.error, false, r.text);
  return { ...org, site: r.json };
}

/** A well-formed identifier that belongs to nobody. */
export const nobodysUuid = () => newRuuid();

/**
 * Asserts that an identifier of another organization is answered exactly as one that does not exist:
 * the same status and the same body (an answer that names the identifier, with `ids` [foreign, missing], names
 * each in the same words).
 */
export function assertSameAsMissing(foreign: CallResult, missing: CallResult, ids?: [foreignId: string, missingId: string]): void {
  assert.equal(foreign.status, missing.status);
  assert.equal(foreign.json.error, true, foreign.text);
  const named = (json: any, id: string | undefined) => (id ? { ...json, errorMsg: String(json.errorMsg).replaceAll(id, '<id>') } : json);
  assert.deepEqual(named(foreign.json, ids?.[0]), named(missing.json, ids?.[1]));
}
