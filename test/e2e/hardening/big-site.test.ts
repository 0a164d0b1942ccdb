import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { siteRowCounts } from '../sites/site-rows.js';

// Each kind's rows (and their audit and change-log rows) run past both dialects' bind-parameter limits many times
// over; 100,000 entries proved no more and took three minutes of every CI run.
const ENTRIES = 30_000;

/** A site of ENTRIES entries: cameras, people, users and buttons (the kinds a big site has most of), and a few doors. */
function bigSite() {
  const n = (ENTRIES - 3) / 4;
  const names = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix} ${i}`);
  return {
    locations: [{ name: 'Campus', timeZone: 'Europe/Paris' }],
    cameras: names('Camera', Math.ceil(n)).map((name) => ({ name, location: 'Campus' })),
    people: names('Person', Math.floor(n)).map((name) => ({ name })),
    users: names('User', Math.floor(n)).map((name, i) => ({ name, email: `user${i}@example.com` })),
    sensors: names('Button', Math.floor(n)).map((name) => ({ name, kind: 'button', location: 'Campus' })),
    doors: [{ name: 'Gate', location: 'Campus', cameras: ['Camera 0', 'Camera 1'], access: ['User 0'] }],
  };
}

const entriesOf = (site: ReturnType<typeof bigSite>) => Object.values(site).reduce((sum, list) => sum + list.length, 0);

forEachDialect('a site file of 30,000 entries seeds through the control API, in chunks, in one transaction', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Campus Org');
  });
  after(() => server.close());

  it('creates every entry, answers every UUID by name, and logs one change per record', { timeout: 300_000 }, async () => {
    const site = bigSite();
    assert.ok(entriesOf(site) >= ENTRIES - 1, `the file has ${entriesOf(site)} entries`);
    const before = await siteRowCounts(server);
    const r = await control(server, `/orgs/${org.orgUuid}/seed`, site);
    assert.equal(r.status, 200, r.text.slice(0, 300));
    assert.equal(r.json.error, false, r.text.slice(0, 300));
    for (const kind of ['cameras', 'people', 'users', 'sensors', 'doors'] as const) {
      assert.equal(Object.keys(r.json[kind]).length, site[kind].length, kind);
    }
    assert.match(r.json.cameras[`Camera ${site.cameras.length - 1}`], /^[A-Za-z0-9_-]{22}$/);
    const after = await siteRowCounts(server);
    // Devices: cameras, buttons and the door's own controller.
    assert.equal(after.devices - before.devices, site.cameras.length + site.sensors.length + 1);
    assert.equal(after.people - before.people, site.people.length);
    assert.equal(after.users - before.users, site.users.length);
    // Besides the entries: the door's own controller, and the grant its access list is seeded as.
    const records = entriesOf(site) + 2;
    assert.equal(after.change_events - before.change_events, records);
    assert.equal(after.audit_log - before.audit_log, records);
    // The change log's ids follow the order of the records.
    const db = server.gatehouse.deps.store.db;
    const last = await db
      .selectFrom('change_events')
      .select(['entity_uuid', 'entity'])
      .where('org_uuid', '=', org.orgUuid)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    assert.equal(last.entity_uuid, r.json.accessGrants['Gate access']);
  });

  it('a refused big file changes nothing', { timeout: 120_000 }, async () => {
    const site = bigSite();
    site.cameras.push({ name: 'Stray', location: 'Nowhere' });
    const before = await siteRowCounts(server);
    const r = await control(server, `/orgs/${org.orgUuid}/seed`, site);
    assert.equal(r.json.error, true, r.text.slice(0, 300));
    assert.match(r.json.errorMsg, /Nowhere/);
    assert.deepEqual(await siteRowCounts(server), before);
  });
});
