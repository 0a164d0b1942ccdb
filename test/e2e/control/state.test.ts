import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import type { ChangeEvent } from '../../../src/store/change-event.js';
import { findDoor } from '../../../src/domains/access/service.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { siteRowCounts } from '../sites/site-rows.js';
import { control } from './admin.js';

const SITE = {
  locations: [{ name: 'HQ', timeZone: 'Europe/London' }],
  users: [{ name: 'Ada' }],
  cameras: [{ name: 'Lobby', location: 'HQ' }],
  doors: [{ name: 'Front', location: 'HQ', cameras: ['Lobby'], access: ['Ada'] }],
};

async function maxChangeId(server: TestServer): Promise<number> {
  const row = await server.gatehouse.deps.store.db
    .selectFrom('change_events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

forEachDialect('control API: POST /_gatehouse/state/{reset,snapshot,restore}', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let seeded: Record<string, Record<string, string>>;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Snap Org');
    seeded = (await control(server, `/orgs/${org.orgUuid}/seed`, SITE)).json;
  });
  after(() => server.close());

  it('snapshots the whole store and restores it exactly, undoing everything done since', async () => {
    const snap = await control(server, '/state/snapshot', { name: 'base' });
    assert.equal(snap.json.error, false, snap.json.errorMsg);
    assert.ok(snap.json.rows > 0);
    assert.ok(existsSync(join(server.config.dataDir, 'snapshots', 'base.json')));
    const countsAtSnapshot = await siteRowCounts(server);
    const lastId = await maxChangeId(server);

    const later = await server.createOrg('Created Later');
    await control(server, `/orgs/${org.orgUuid}/seed`, { locations: [{ name: 'Annex' }] });
    assert.notDeepEqual(await siteRowCounts(server), countsAtSnapshot);

    const restored = await control(server, '/state/restore', { name: 'base' });
    assert.equal(restored.json.error, false, restored.json.errorMsg);
    assert.equal(restored.json.rows, snap.json.rows);
    assert.deepEqual(await siteRowCounts(server), countsAtSnapshot);
    assert.equal((await server.call('/api/org/getOrgV2', {}, { key: later.apiKey })).status, 403, 'a key made after the snapshot is gone');
    assert.equal((await server.call('/api/org/getOrgV2', {}, { key: org.apiKey })).json.orgUuid, org.orgUuid);
    const door = await findDoor(server.gatehouse.deps, org.orgUuid, seeded.doors.Front);
    assert.deepEqual(door?.cameraUuids, [seeded.cameras.Lobby]);

    // Serial ids carry on after the restored ones rather than reusing them.
    const events: ChangeEvent[] = [];
    const unsubscribe = server.gatehouse.deps.bus.subscribe('change', (e) => events.push(e));
    await control(server, `/orgs/${org.orgUuid}/seed`, { people: [{ name: 'After Restore' }] });
    unsubscribe();
    assert.equal(events.length, 1);
    assert.equal(events[0].id, lastId + 1);
  });

  it('resets the store to empty, after which it works from scratch', async () => {
    await control(server, '/state/snapshot', { name: 'before-reset' });
    const r = await control(server, '/state/reset');
    assert.equal(r.json.error, false, r.json.errorMsg);
    const counts = await siteRowCounts(server);
    assert.deepEqual(
      Object.values(counts).filter((n) => n > 0),
      [],
      JSON.stringify(counts),
    );
    const orgs = await server.gatehouse.deps.store.db.selectFrom('orgs').select('uuid').execute();
    assert.deepEqual(orgs, []);
    assert.equal((await server.call('/api/org/getOrgV2', {}, { key: org.apiKey })).status, 403);

    const fresh = await control(server, '/orgs', { name: 'Fresh' });
    assert.equal((await server.call('/api/org/getOrgV2', {}, { key: fresh.json.apiKey })).json.orgUuid, fresh.json.orgUuid);
    assert.equal(await maxChangeId(server), 0, 'no change yet: counters start again');
    await control(server, `/orgs/${fresh.json.orgUuid}/seed`, { people: [{ name: 'First' }] });
    assert.equal(await maxChangeId(server), 1);

    const back = await control(server, '/state/restore', { name: 'before-reset' });
    assert.equal(back.json.error, false, back.json.errorMsg);
    assert.equal((await server.call('/api/org/getOrgV2', {}, { key: org.apiKey })).json.orgUuid, org.orgUuid);
    assert.equal((await server.call('/api/org/getOrgV2', {}, { key: fresh.json.apiKey })).status, 403);
  });

  it('refuses snapshot names that could leave the snapshots folder', async () => {
    for (const name of ['../escape', 'a/b', '..', '.hidden', 'a\\b', 'x'.repeat(65), 'name.json']) {
      for (const path of ['/state/snapshot', '/state/restore']) {
        const r = await control(server, path, { name });
        assert.equal(r.json.error, true, `${path} ${name}`);
        assert.match(r.json.errorMsg, /^name: /);
      }
    }
    assert.deepEqual(readdirSync(join(server.config.dataDir, 'snapshots')).sort(), ['base.json', 'before-reset.json']);
  });

  it('answers a snapshot that does not exist as not found, and changes nothing', async () => {
    const before = await siteRowCounts(server);
    const r = await control(server, '/state/restore', { name: 'never-taken' });
    assert.deepEqual([r.json.error, r.json.errorMsg], [true, 'Snapshot "never-taken" not found']);
    assert.deepEqual(await siteRowCounts(server), before);
  });

  it('answers 400 for a body without a name', async () => {
    assert.equal((await control(server, '/state/snapshot', {})).status, 400);
    assert.equal((await control(server, '/state/restore', { name: '' })).status, 400);
  });
});
