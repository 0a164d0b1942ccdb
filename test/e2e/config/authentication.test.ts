import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

/** Every configuration operation of issue 3. */
const OPERATIONS = [
  '/api/camera/getMinimalCameraStateList',
  '/api/policy/createSchedule',
  '/api/policy/updateSchedule',
  '/api/policy/findSchedules',
  '/api/policy/deleteSchedule',
  '/api/camera/createVideoWall',
  '/api/camera/updateVideoWalls',
  '/api/camera/getVideoWalls',
  '/api/camera/deleteVideoWall',
  '/api/relay/deleteThirdPartyCameraDiscovery',
  '/api/camera/createFootageBoundingBoxes',
  '/api/camera/getFootageBoundingBoxes',
  '/api/alertmonitoring/enableMonitoringForLocation',
  '/api/alertmonitoring/disableMonitoringForLocation',
  '/api/alertmonitoring/createPinForLocation',
  '/api/alertmonitoring/locationStatus',
  '/api/component/elevator/addAccessControlledElevatorLandingLabel',
  '/api/component/elevator/removeAccessControlledElevatorLandingLabel',
  '/api/component/elevator/getAccessControlledElevatorLandingLabelsForOrg',
  '/api/component/elevator/findAccessControlledElevatorLandingShadows',
  '/api/component/elevator/findAccessControlledElevatorLandingShadowsByLocation',
];

forEachDialect('configuration operations: authentication and body structure', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Config Org');
  });
  after(() => server.close());

  it('requires authentication on every operation', async () => {
    for (const path of OPERATIONS) {
      const r = await server.call(path, {}, { key: '' });
      assert.equal(r.status, 401, path);
      assert.deepEqual({ error: r.json.error, errorMsg: r.json.errorMsg }, { error: true, errorMsg: 'Unauthenticated' }, path);
    }
  });

  it('refuses an unknown key on every operation with 403', async () => {
    for (const path of OPERATIONS) {
      const r = await server.call(path, {}, { key: 'us_not-a-key' });
      assert.equal(r.status, 403, path);
      assert.equal(r.json.errorMsg, 'Invalid api key', path);
    }
  });

  it('answers a body that is not a JSON object with 400 on every operation', async () => {
    for (const path of OPERATIONS) {
      const r = await server.call(path, '[1]', { key: org.apiKey });
      assert.equal(r.status, 400, path);
      assert.equal(r.json.error, true, path);
    }
  });

  it('lists every operation in the OpenAPI document', async () => {
    const doc = await (await fetch(server.rest + '/openapi.json')).json();
    for (const path of OPERATIONS) assert.ok(doc.paths[path]?.post, path);
  });
});
