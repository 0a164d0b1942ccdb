import assert from 'node:assert/strict';
import type { TestOrg, TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';

/** A site for the events tests: two cameras and an air sensor with thresholds, in New York. */
export const EVENTS_SITE = {
  locations: [{ name: 'HQ', timeZone: 'America/New_York' }],
  cameras: [
    { name: 'Lobby', location: 'HQ' },
    { name: 'Dock', location: 'HQ' },
  ],
  sensors: [
    { name: 'Air', kind: 'environmental', location: 'HQ', thresholds: { co2Ppm: 1500, tempC: 30, pm25: 35.5, humidityPermyriad: 6000 } },
    { name: 'Button', kind: 'button', location: 'HQ' },
  ],
};

export interface EventsSite {
  org: TestOrg;
  lobby: string;
  dock: string;
  air: string;
  button: string;
}

/** A new organization with the events site seeded through the control API. */
export async function seedEventsSite(server: TestServer, name = 'Events Org'): Promise<EventsSite> {
  const org = await server.createOrg(name);
  const seeded = await control(server, `/orgs/${org.orgUuid}/seed`, EVENTS_SITE);
  assert.equal(seeded.status, 200, seeded.text);
  return { org, lobby: seeded.json.cameras.Lobby, dock: seeded.json.cameras.Dock, air: seeded.json.sensors.Air, button: seeded.json.sensors.Button };
}

/** Raises a simulator event (`gatehouse simulate <event>`) through the control API and answers its JSON. */
export async function simulate<T = any>(server: TestServer, event: string, flags: Record<string, unknown>): Promise<T> {
  const r = await control<T>(server, `/simulate/${event}`, flags);
  assert.equal(r.status, 200, r.text);
  return r.json;
}
