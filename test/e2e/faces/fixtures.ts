import assert from 'node:assert/strict';
import type { TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { seedEventsSite, type EventsSite } from '../events/fixtures.js';

/** The events site with two people known by face. */
export interface FaceSite extends EventsSite {
  ada: string;
  bob: string;
}

/** A new organization with the events site and Ada Lovelace and Bob Stone, seeded through the control API. */
export async function seedFaceSite(server: TestServer, name: string): Promise<FaceSite> {
  const s = await seedEventsSite(server, name);
  const r = await control(server, `/orgs/${s.org.orgUuid}/seed`, { people: [{ name: 'Ada Lovelace' }, { name: 'Bob Stone' }] });
  assert.equal(r.status, 200, r.text);
  return { ...s, ada: r.json.people['Ada Lovelace'], bob: r.json.people['Bob Stone'] };
}
