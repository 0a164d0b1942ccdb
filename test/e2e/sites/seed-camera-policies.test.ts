import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { MONDAY_10AM_NY, MONDAY_8AM_NY } from '../rules/fixtures.js';
import { siteRowCounts } from './site-rows.js';

const SITE = `
locations: [{name: HQ, timeZone: America/New_York}]
schedules: [{name: Business Hours, intervals: [{start: 540, stop: 1020}]}]
cameraPolicies: [{name: Office motion, schedules: [{schedule: Business Hours, activities: [MOTION]}]}]
cameras: [{name: Lobby, location: HQ, policy: Office motion}, {name: Yard, location: HQ}]
`;

forEachDialect('site files: camera policies', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let site: Record<string, Record<string, string>>;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Policy Site Org');
    const r = await control(server, `/orgs/${org.orgUuid}/seed`, SITE, { contentType: 'application/yaml' });
    assert.equal(r.json.error, false, r.text);
    site = r.json;
  });
  after(() => server.close());

  const alert = async (device: string, at: number) => {
    const r = await control(server, '/simulate/alert', { device, trigger: 'MOTION', at });
    assert.equal(r.json.error, false, r.text);
    return r.json.policyAlert;
  };

  it('seeds the policy with its schedules, and the cameras that name it follow it', async () => {
    const policies = (await server.call('/api/policy/getCameraPolicies', {}, { key: org.apiKey })).json.policies;
    assert.deepEqual(
      policies.map((p: any) => [p.uuid, p.name, p.scheduledTriggers.map((t: any) => [t.schedule.uuid, t.triggerSet.map((x: any) => x.activity)])]),
      [[site.cameraPolicies!['Office motion'], 'Office motion', [[site.schedules!['Business Hours'], ['MOTION']]]]],
    );
    const lobby = (await server.call('/api/camera/getDetailsV2', { cameraUuid: site.cameras!.Lobby }, { key: org.apiKey })).json;
    assert.equal(lobby.camera.policyUuid, site.cameraPolicies!['Office motion']);
    // Inside Business Hours the policy lets motion through; outside it raises nothing. A camera without a policy always raises.
    assert.notEqual(await alert(site.cameras!.Lobby!, MONDAY_10AM_NY), null);
    assert.equal(await alert(site.cameras!.Lobby!, MONDAY_8AM_NY), null);
    assert.notEqual(await alert(site.cameras!.Yard!, MONDAY_8AM_NY), null);
  });

  it('keeps the policy by name when the file is seeded again', async () => {
    const before = await siteRowCounts(server);
    const again = await control(server, `/orgs/${org.orgUuid}/seed`, SITE, { contentType: 'application/yaml' });
    assert.deepEqual(again.json, site);
    assert.deepEqual(await siteRowCounts(server), before);
  });

  it('refuses a policy of an unknown schedule, an unknown activity, and a camera naming an unknown policy', async () => {
    const r = await control(server, `/orgs/${org.orgUuid}/seed`, {
      locations: [{ name: 'Depot' }],
      cameraPolicies: [
        { name: 'P', schedules: [{ schedule: 'Nights', activities: ['MOTION'] }] },
        { name: 'Q', schedules: [{ schedule: 'Business Hours', activities: ['DANCING'] }] },
      ],
      cameras: [{ name: 'Gate', location: 'Depot', policy: 'Nobody' }],
    });
    assert.equal(r.json.error, true);
    for (const problem of [
      'cameraPolicies[0].schedules[0].schedule (P): no schedule named "Nights"',
      'cameraPolicies[1].schedules[0].activities[0] (Q): must be one of',
      'cameras[0].policy (Gate): no camera policy named "Nobody"',
    ])
      assert.ok(r.json.errorMsg.includes(problem), `${problem} in ${r.json.errorMsg}`);
  });
});
