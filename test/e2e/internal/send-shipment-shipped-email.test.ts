import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ChangeEvent } from '../../../src/store/change-event.js';
import { createApiKey } from '../../../src/domains/orgs/service.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { closedSmtpUrl, startSmtpSink, type SmtpSink } from './smtp-sink.js';

const SEND = '/api/internal/sendShipmentShippedEmail';

async function seedShipments(server: TestServer, orgUuid: string, shipments: unknown[]) {
  const r = await control(server, `/orgs/${orgUuid}/seed`, { shipments });
  assert.equal(r.json.error, false, r.text);
}

async function internalKey(server: TestServer, orgUuid: string) {
  return (await createApiKey(server.gatehouse.deps, { orgUuid, kind: 'internal' })).apiKey;
}

forEachDialect(`POST ${SEND}`, (dialect) => {
  let smtp: SmtpSink;
  let server: TestServer;
  let org: TestOrg;
  let key: string;
  const send = (body: unknown, k = key) => server.call(SEND, body, { key: k });

  before(async () => {
    smtp = await startSmtpSink({ refuse: (address) => address.startsWith('refuse@') });
    server = await startTestServer(dialect, { env: { GATEHOUSE_SMTP_URL: smtp.url } });
    org = await server.createOrg('Customer Org');
    key = await internalKey(server, org.orgUuid);
    await seedShipments(server, org.orgUuid, [
      {
        crmOppId: 'OPP-1',
        email: 'buyer@example.com',
        trackingIdentifier: '1Z999',
        items: [
          { name: 'Dome Camera', quantity: 2 },
          { name: 'Door Controller', quantity: 1 },
        ],
      },
      { crmOppId: 'OPP-RACE', email: 'race@example.com', trackingIdentifier: '1ZRACE' },
      { crmOppId: 'OPP-SF', email: 'sf@example.com' },
      { crmOppId: 'OPP-REFUSED', email: 'refuse@example.com', trackingIdentifier: '1ZNO' },
    ]);
  });
  after(async () => {
    await server.close();
    await smtp.close();
  });

  it('requires authentication', async () => {
    const r = await send({ crmOppId: 'OPP-1' }, '');
    assert.equal(r.status, 401);
  });

  it('refuses customer and partner keys', async () => {
    const standard = await send({ crmOppId: 'OPP-1' }, org.apiKey);
    assert.deepEqual([standard.status, standard.json.errorMsg], [403, 'Access Denied']);
    const partnerOrg = await server.createOrg('Partner Org');
    const partnerKey = await server.createPartnerKey(partnerOrg.orgUuid, [org.orgUuid]);
    const partner = await server.call(SEND, { crmOppId: 'OPP-1' }, { key: partnerKey, scheme: 'partner-api-token', org: org.orgUuid });
    assert.deepEqual([partner.status, partner.json.errorMsg], [403, 'Access Denied']);
    assert.equal(smtp.stats.connections, 0, 'nothing was sent');
  });

  it('sends the shipped e-mail through the SMTP server and answers SHIPPING_SHIPPED_SUCCESS', async () => {
    const events: ChangeEvent[] = [];
    const unsubscribe = server.gatehouse.deps.bus.subscribe('change', (e) => events.push(e));
    const r = await send({ crmOppId: 'OPP-1' });
    unsubscribe();
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json, {
      error: false,
      customerShipmentEmailState: 'SHIPPING_SHIPPED_SUCCESS',
      legacyMsg: 'Shipped e-mail sent to buyer@example.com',
      trackingIdentifier: '1Z999',
    });
    assert.equal(smtp.messages.length, 1);
    const mail = smtp.messages[0];
    assert.deepEqual(mail.to, ['buyer@example.com']);
    assert.match(mail.raw, /^To: buyer@example\.com\r?$/m);
    assert.match(mail.raw, /^Subject: Your order OPP-1 has shipped\r?$/m);
    assert.match(mail.raw, /Tracking number: 1Z999/);
    assert.match(mail.raw, /2 x Dome Camera/);
    assert.match(mail.raw, /1 x Door Controller/);
    const update = events.find((e) => e.entity === 'SHIPMENT');
    assert.equal(update?.orgUuid, org.orgUuid);
    assert.equal(update?.type, 'UPDATE');
    assert.equal((update?.update as any).customerShipmentEmailState, 'SHIPPING_SHIPPED_SUCCESS');
  });

  it('answers a second call from the recorded outcome without sending again', async () => {
    const before = { ...smtp.stats, messages: smtp.messages.length };
    const r = await send({ crmOppId: 'OPP-1' });
    assert.equal(r.json.customerShipmentEmailState, 'SHIPPING_SHIPPED_SUCCESS');
    assert.equal(r.json.trackingIdentifier, '1Z999');
    assert.match(r.json.warningMsg, /already attempted .* it was not sent again/);
    assert.deepEqual({ ...smtp.stats, messages: smtp.messages.length }, before);
  });

  it('sends one e-mail when several calls for the same shipment race', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => send({ crmOppId: 'OPP-RACE' })));
    assert.deepEqual(
      answers.map((a) => a.json.customerShipmentEmailState),
      new Array(5).fill('SHIPPING_SHIPPED_SUCCESS'),
    );
    assert.equal(smtp.messages.filter((m) => m.to.includes('race@example.com')).length, 1);
  });

  it("takes the reference catalogue's salesforceOppId", async () => {
    const r = await send({ salesforceOppId: 'OPP-SF' });
    assert.equal(r.json.customerShipmentEmailState, 'SHIPPING_SHIPPED_SUCCESS');
    assert.equal(r.json.trackingIdentifier, null);
    const mail = smtp.messages.find((m) => m.to.includes('sf@example.com'));
    assert.match(mail!.raw, /Tracking number: not available yet/);
  });

  it('answers UNKNOWN for an opportunity without a shipment, sending nothing', async () => {
    const connections = smtp.stats.connections;
    const r = await send({ crmOppId: 'OPP-NONE' });
    assert.deepEqual(r.json, {
      error: false,
      customerShipmentEmailState: 'UNKNOWN',
      legacyMsg: 'No shipment is known for sales opportunity OPP-NONE',
      trackingIdentifier: null,
    });
    assert.equal(smtp.stats.connections, connections);
  });

  it('answers SHIPPING_SHIPPED_FAILURE when the SMTP server refuses, and does not try again', async () => {
    const r = await send({ crmOppId: 'OPP-REFUSED' });
    assert.equal(r.json.error, false);
    assert.equal(r.json.customerShipmentEmailState, 'SHIPPING_SHIPPED_FAILURE');
    assert.equal(r.json.trackingIdentifier, '1ZNO');
    assert.match(r.json.legacyMsg, /^Shipped e-mail to refuse@example\.com failed: the mail server refused the message: 550/);
    const recipients = smtp.stats.recipients;
    const again = await send({ crmOppId: 'OPP-REFUSED' });
    assert.equal(again.json.customerShipmentEmailState, 'SHIPPING_SHIPPED_FAILURE');
    assert.equal(again.json.legacyMsg, r.json.legacyMsg);
    assert.equal(smtp.stats.recipients, recipients);
    assert.equal(
      smtp.messages.some((m) => m.to.includes('refuse@example.com')),
      false,
    );
  });

  it('reaches a shipment of another organization: internal keys serve the whole platform', async () => {
    const staff = await server.createOrg('Staff Org');
    const staffKey = await internalKey(server, staff.orgUuid);
    const customer = await server.createOrg('Second Customer');
    await seedShipments(server, customer.orgUuid, [{ crmOppId: 'OPP-ELSEWHERE', email: 'elsewhere@example.com' }]);
    const r = await send({ crmOppId: 'OPP-ELSEWHERE' }, staffKey);
    assert.equal(r.json.customerShipmentEmailState, 'SHIPPING_SHIPPED_SUCCESS');
    assert.ok(smtp.messages.some((m) => m.to.includes('elsewhere@example.com')));
  });

  it('refuses an opportunity that several other organizations use, rather than guess', async () => {
    const staff = await server.createOrg('Staff Org 2');
    for (const name of ['Twin A', 'Twin B']) {
      const twin = await server.createOrg(name);
      await seedShipments(server, twin.orgUuid, [{ crmOppId: 'OPP-TWIN', email: `${name.replace(' ', '')}@example.com` }]);
    }
    const r = await send({ crmOppId: 'OPP-TWIN' }, await internalKey(server, staff.orgUuid));
    assert.equal(r.json.error, true);
    assert.match(r.json.errorMsg, /Several organizations have a shipment for sales opportunity OPP-TWIN/);
  });

  it('refuses a call without an opportunity, or naming two', async () => {
    assert.deepEqual([(await send({})).json.error, (await send({})).json.errorMsg], [true, 'crmOppId is required']);
    const two = await send({ crmOppId: 'OPP-1', salesforceOppId: 'OPP-2' });
    assert.deepEqual([two.json.error, two.json.errorMsg], [true, 'crmOppId and salesforceOppId name different opportunities']);
  });

  it('answers 400 to a malformed body', async () => {
    assert.equal((await send({ crmOppId: 5 })).status, 400);
    assert.equal((await send('{"crmOppId":')).status, 400);
  });
});

forEachDialect(`POST ${SEND} without a reachable SMTP server`, (dialect) => {
  describe('when the SMTP server is down', () => {
    let server: TestServer;
    let key: string;
    before(async () => {
      server = await startTestServer(dialect, { env: { GATEHOUSE_SMTP_URL: await closedSmtpUrl() } });
      const org = await server.createOrg('Customer Org');
      key = await internalKey(server, org.orgUuid);
      await seedShipments(server, org.orgUuid, [{ crmOppId: 'OPP-DOWN', email: 'buyer@example.com', trackingIdentifier: '1ZDOWN' }]);
    });
    after(() => server.close());

    it('answers SHIPPING_SHIPPED_FAILURE saying the server could not be reached', async () => {
      const r = await server.call(SEND, { crmOppId: 'OPP-DOWN' }, { key });
      assert.equal(r.json.customerShipmentEmailState, 'SHIPPING_SHIPPED_FAILURE');
      assert.equal(r.json.trackingIdentifier, '1ZDOWN');
      assert.match(r.json.legacyMsg, /failed: the mail server could not be reached: .*ECONNREFUSED/);
    });
  });

  describe('when no SMTP server is configured', () => {
    let server: TestServer;
    let key: string;
    before(async () => {
      server = await startTestServer(dialect);
      const org = await server.createOrg('Customer Org');
      key = await internalKey(server, org.orgUuid);
      await seedShipments(server, org.orgUuid, [{ crmOppId: 'OPP-NOSMTP', email: 'buyer@example.com' }]);
    });
    after(() => server.close());

    it('answers SHIPPING_SHIPPED_FAILURE and records no outcome for later calls to repeat', async () => {
      for (let i = 0; i < 2; i++) {
        const r = await server.call(SEND, { crmOppId: 'OPP-NOSMTP' }, { key });
        assert.deepEqual(
          [r.json.customerShipmentEmailState, r.json.legacyMsg, r.json.warningMsg],
          ['SHIPPING_SHIPPED_FAILURE', 'No SMTP server is configured (GATEHOUSE_SMTP_URL)', undefined],
        );
      }
    });
  });
});
