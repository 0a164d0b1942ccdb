import assert from 'node:assert/strict';
import { control } from '../control/admin.js';
import type { TestServer } from '../../helpers/server.js';

export interface IntegrationSite {
  locations: Record<'HQ' | 'Annex', string>;
  cameras: Record<'Lobby' | 'Hall', string>;
  sensors: Record<'Front Button', string>;
  people: Record<'Grace Hopper' | 'Alan Turing', string>;
}

/** Seeds the site the integration tests map sensors, doors and cameras onto. */
export async function seedIntegrationSite(server: TestServer, orgUuid: string): Promise<IntegrationSite> {
  const r = await control(server, `/orgs/${orgUuid}/seed`, {
    locations: [{ name: 'HQ', timeZone: 'America/New_York' }, { name: 'Annex' }],
    cameras: [
      { name: 'Lobby', location: 'HQ' },
      { name: 'Hall', location: 'Annex' },
    ],
    sensors: [{ name: 'Front Button', kind: 'button', location: 'HQ' }],
    people: [{ name: 'Grace Hopper' }, { name: 'Alan Turing' }],
  });
  assert.equal(r.json?.error, false, r.text);
  return r.json as IntegrationSite;
}
