import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { runCli } from '../../helpers/cli.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { seedEventsSite, type EventsSite } from './fixtures.js';

const AT = Date.UTC(2024, 8, 1, 8);

forEachDialect('gatehouse simulate (events)', (dialect) => {
  let server: TestServer;
  let site: EventsSite;
  before(async () => {
    server = await startTestServer(dialect);
    site = await seedEventsSite(server);
  });
  after(() => server.close());

  /** Runs `gatehouse simulate <event> ...` against the test server, as a user would, and parses its JSON. */
  async function simulate(event: string, flags: string[]): Promise<any> {
    const r = await runCli(['simulate', event, ...flags, '--server', server.rest, '--data-dir', server.config.dataDir], { GATEHOUSE_ADMIN_TOKEN: '' });
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  }

  it('alert: raises a policy alert on the device, visible in its groups', async () => {
    const out = await simulate('alert', ['--device', site.lobby, '--trigger', 'MOTION_HUMAN', '--people', '4', '--at', String(AT)]);
    assert.deepEqual([out.policyAlert.numHumans, out.policyAlert.timestampMs, out.policyAlert.policyAlertTriggers], [4, AT, ['MOTION_HUMAN']]);
    const groups = await server.call('/api/event/getPolicyAlertGroupsForDevice', { deviceUuid: site.lobby }, { key: site.org.apiKey });
    assert.equal(groups.json.policyAlertGroups[0].policyAlerts[0].uuid, out.policyAlert.uuid);
  });

  it("reading: a CO2 reading over the sensor's threshold raises an alert with reading and threshold", async () => {
    const out = await simulate('reading', ['--sensor', site.air, '--co2-ppm', '1800']);
    assert.deepEqual([out.policyAlert.co2Ppm, out.policyAlert.co2PpmThreshold], [1800, 1500]);
  });

  it('clip: saves a clip of the camera whose video reaches the media host', async () => {
    const out = await simulate('clip', ['--camera', site.dock, '--bytes', '1024']);
    assert.deepEqual([out.savedClip.status, out.savedClip.byteCount], ['COMPLETE', 1024]);
    const video = await fetch(server.gatehouse.urls.media + out.savedClip.clipLocationV2, {
      headers: { 'x-auth-apikey': site.org.apiKey, range: 'bytes=0-9' },
    });
    assert.equal(video.status, 206);
    assert.equal((await video.arrayBuffer()).byteLength, 10);
  });

  it('crossing: records a line crossing that the reports count, where in the image it was seen (default the centre)', async () => {
    const out = await simulate('crossing', ['--camera', site.lobby, '--in', '3', '--out', '1', '--object', 'HUMAN', '--at', String(AT)]);
    assert.deepEqual([out.crossing.ingressCount, out.crossing.egressCount, out.crossing.position], [3, 1, { x: 0.5, y: 0.5 }]);
    const placed = await simulate('crossing', ['--camera', site.dock, '--in', '1', '--out', '0', '--object', 'FACE', '--x', '0.25', '--y', '0.75']);
    assert.deepEqual(placed.crossing.position, { x: 0.25, y: 0.75 });
    const report = await server.call(
      '/api/report/getThresholdCrossingCountReportForOrg',
      { startTimeMs: AT, endTimeMs: AT + 3_600_000, bucketSize: 'HOUR' },
      { key: site.org.apiKey },
    );
    assert.deepEqual(report.json.crossingCounts, [{ timestampMs: AT, ingressCount: 3, egressCount: 1 }]);
  });

  it('reports a refusal on stderr with exit code 1', async () => {
    const r = await runCli(['simulate', 'alert', '--device', site.air, '--trigger', 'NOPE', '--server', server.rest, '--data-dir', server.config.dataDir], {
      GATEHOUSE_ADMIN_TOKEN: '',
    });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /trigger/);
  });
});
