import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { runCli } from '../../helpers/cli.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { createRule, seedRulesSite, type RulesSite } from './fixtures.js';

forEachDialect('gatehouse simulate press', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let site: RulesSite;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('CLI Org');
    site = await seedRulesSite(server, org.orgUuid);
  });
  after(() => server.close());

  it("records the press and fires the matching rule, visible in the button's press events", async () => {
    const ruleUuid = await createRule(server, org.apiKey, { sensorUuid: site.sensors.Spare, triggerPress: 'DOUBLE', action: { liveNotificationAction: true } });
    const r = await runCli(
      [
        'simulate',
        'press',
        '--button',
        site.sensors.Spare,
        '--press',
        'DOUBLE',
        '--duration-ms',
        '120',
        '--server',
        server.rest,
        '--data-dir',
        server.config.dataDir,
      ],
      { GATEHOUSE_ADMIN_TOKEN: '' },
    );
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(
      [out.event.buttonPress, out.event.pressDurationMillis, out.firings[0].ruleUuid, out.firings[0].outcomes[0].status],
      ['DOUBLE', 120, ruleUuid, 'SUCCESS'],
    );
    const events = await server.call('/api/button/getButtonPressEventsForSensor', { sensorUuid: site.sensors.Spare }, { key: org.apiKey });
    assert.equal(events.json.events[0].uuid, out.event.uuid);
  });

  it('refuses an unknown press type', async () => {
    const r = await runCli(
      ['simulate', 'press', '--button', site.sensors.Spare, '--press', 'TRIPLE', '--server', server.rest, '--data-dir', server.config.dataDir],
      { GATEHOUSE_ADMIN_TOKEN: '' },
    );
    assert.notEqual(r.code, 0);
  });
});
