import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { createRule, press, seedRulesSite, waitFor, type RulesSite } from './fixtures.js';

/** With private outbound traffic refused (production), as the integrations' URLs. */
forEachDialect('button rules: webhook and OAuth URLs under the outbound address policy', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let site: RulesSite;
  before(async () => {
    server = await startTestServer(dialect, { env: { GATEHOUSE_ALLOW_PRIVATE_OUTBOUND: 'false', GATEHOUSE_OUTBOX_POLL_MS: '50' } });
    org = await server.createOrg('Outbound Org');
    site = await seedRulesSite(server, org.orgUuid);
  });
  after(() => server.close());
  const create = (webhook: Record<string, unknown>) =>
    server.call(
      '/api/button/createRuleForButton',
      { rule: { triggerPress: 'SINGLE', sensorUuid: site.sensors.Panic, action: { webhookActions: [webhook] } } },
      { key: org.apiKey },
    );

  it('refuses a webhookUrl or oauthUrl of a loopback, private or link-local address, literal or by name, at creation', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ webhookUrl: 'http://127.0.0.1:9/hook' }, 'webhookActions[0].webhookUrl: 127.0.0.1 is a private'],
      [{ webhookUrl: 'http://localhost/hook' }, 'webhookActions[0].webhookUrl:'],
      [{ webhookUrl: 'http://[fe80::1]/hook' }, 'webhookActions[0].webhookUrl: fe80::1 is a private'],
      [
        { webhookUrl: 'http://93.184.216.34/hook', oauthUrl: 'http://169.254.169.254/token', oauthClientId: 'c', oauthClientSecret: 's' },
        'webhookActions[0].oauthUrl: 169.254.169.254 is a private',
      ],
    ];
    for (const [webhook, message] of cases) {
      const r = await create(webhook);
      assert.equal(r.json.error, true, `${JSON.stringify(webhook)} was accepted`);
      assert.ok(r.json.errorMsg.includes(message), r.json.errorMsg);
    }
    const accepted = await create({ webhookUrl: 'http://93.184.216.34/hook' });
    assert.equal(accepted.json.error, false, accepted.text);
  });

  it('checks again at delivery: a URL accepted while private traffic was allowed fails for good once it is not', async () => {
    server.config.allowPrivateOutbound = true;
    await createRule(server, org.apiKey, { sensorUuid: site.sensors.Spare, action: { webhookActions: [{ webhookUrl: 'http://127.0.0.1:9/hook' }] } });
    server.config.allowPrivateOutbound = false;
    const pressed = await press(server, site.sensors.Spare);
    assert.equal(pressed.firings[0].outcomes[0].status, 'QUEUED');
    const delivery = await waitFor('the refused delivery', async () => {
      const d = (await server.call('/api/integrations/getDeliveryLog', { kind: 'BUTTON_RULE_WEBHOOK' }, { key: org.apiKey })).json.deliveries[0];
      return d?.status === 'FAILED' && d;
    });
    assert.equal(delivery.attempts, 1, 'a refused address is not retried');
    assert.match(delivery.lastError, /127\.0\.0\.1 is a private/);
  });
});
