import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ensureDemoOrg } from '../../../src/demo.js';
import { findDoor } from '../../../src/domains/access/service.js';
import { listDevices, listLocations } from '../../../src/domains/devices/service.js';
import type { DeviceKind } from '../../../src/domains/devices/tables.js';
import { listSchedules } from '../../../src/domains/schedules/service.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { siteRowCounts } from './site-rows.js';

forEachDialect('the demo site (examples/demo-site.yaml)', (dialect) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(dialect);
  });
  after(() => server.close());

  it('is loaded into the demo organization on first start', async () => {
    const demo = await ensureDemoOrg(server.gatehouse.deps);
    assert.ok(demo);
    const deps = server.gatehouse.deps;
    const org = demo.orgUuid;
    const kinds = async (kind: DeviceKind) => (await listDevices(deps, org, [kind])).length;
    assert.ok((await listLocations(deps, org)).length >= 2);
    assert.ok((await kinds('CAMERA')) >= 4);
    assert.ok((await kinds('BUTTON')) >= 2);
    assert.ok((await kinds('AUDIO_GATEWAY')) >= 1);
    assert.ok((await kinds('ELEVATOR_LANDING')) >= 1);
    const [air] = await listDevices(deps, org, ['ENVIRONMENTAL_SENSOR']);
    assert.ok(air.attributes.thresholds, 'the environmental sensor has thresholds');
    assert.ok((await listSchedules(deps, org)).length >= 1);

    const db = deps.store.db;
    const doors = await db.selectFrom('doors').select('uuid').where('org_uuid', '=', org).execute();
    assert.ok(doors.length >= 3);
    for (const { uuid } of doors) assert.ok((await findDoor(deps, org, uuid))?.controllerUuid, 'every door has a controller');
    const users = await db.selectFrom('users').select('name').where('org_uuid', '=', org).execute();
    assert.ok(users.length >= 3 + 1, 'three users besides the demo admin');
    const people = await db.selectFrom('people').select('name').where('org_uuid', '=', org).execute();
    assert.ok(people.length >= 2 && people.every((p) => p.name.length > 0));
    assert.equal((await db.selectFrom('shipments').select('uuid').where('org_uuid', '=', org).execute()).length, 1);

    // The demo key reads the seeded organization.
    assert.equal((await server.call('/api/org/getOrgV2', {}, { key: demo.apiKey })).json.orgUuid, org);
  });

  it('is not loaded again on a later start', async () => {
    const counts = await siteRowCounts(server);
    await ensureDemoOrg(server.gatehouse.deps);
    assert.deepEqual(await siteRowCounts(server), counts);
  });
});
