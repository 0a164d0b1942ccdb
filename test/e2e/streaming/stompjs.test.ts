import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client, IFrame } from '@stomp/stompjs';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { collect, raiseChanges, stompjsClient } from './helpers.js';
import { waitFor } from '../../helpers/wait.js';

forEachDialect('stream with @stomp/stompjs over TLS', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let partnerKey: string;
  const clients: Client[] = [];
  const client = async (auth = { key: org.apiKey, scheme: 'api-token' } as Parameters<typeof stompjsClient>[1]) => {
    const c = await stompjsClient(server.gatehouse.urls.ws, auth);
    clients.push(c);
    return c;
  };
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Org');
    other = await server.createOrg('Other');
    const partner = await server.createOrg('Partner');
    partnerKey = await server.createPartnerKey(partner.orgUuid, [org.orgUuid]);
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.deactivate()));
    await server.close();
  });

  describe('subscribe', () => {
    it('receives the changes of its organization as JSON, in order', async () => {
      const c = await client();
      const sub = await collect(c, `/topic/change/${org.orgUuid}`);
      await raiseChanges(server.gatehouse.deps, org.orgUuid, [
        {
          entity: 'POLICY_ALERT',
          entityUuid: 'alert-1',
          type: 'CREATE',
          deviceUuid: 'cam-1',
          update: { deviceUuid: 'cam-1', durationSec: 5, policyAlertTriggers: ['PEOPLE'], textDescription: 'Person' },
        },
        { entity: 'DOOR', entityUuid: 'door-1', type: 'UPDATE', update: { name: 'Front' } },
        { entity: 'SCHEDULE', entityUuid: 'sch-1', type: 'DELETE', update: {} },
      ]);
      await waitFor('three messages', () => sub.messages.length === 3);
      const bodies = sub.messages.map((m) => JSON.parse(m.body));
      assert.deepEqual(
        bodies.map((b) => [b.entity, b.type]),
        [
          ['POLICY_ALERT', 'CREATE'],
          ['DOOR', 'UPDATE'],
          ['SCHEDULE', 'DELETE'],
        ],
      );
      assert.equal(bodies[0].update.textDescription, 'Person');
      assert.equal(sub.messages[0]!.headers['content-type'], 'application/json');
      assert.equal(sub.messages[0]!.headers.destination, `/topic/change/${org.orgUuid}`);
    });

    it('acts for the client organization with a partner token', async () => {
      const c = await client({ key: partnerKey, scheme: 'partner-api-token', org: org.orgUuid });
      const sub = await collect(c, `/topic/change/${org.orgUuid}`);
      await raiseChanges(server.gatehouse.deps, org.orgUuid, [{ entityUuid: 'partner-visible' }]);
      await waitFor('the client organization change', () => sub.messages.length === 1);
      assert.equal(JSON.parse(sub.messages[0]!.body).entityUuid, 'partner-visible');
    });

    it('is refused with ERROR when subscribing to another organization', async () => {
      const c = await client();
      const error = new Promise<IFrame>((resolve) => (c.onStompError = resolve));
      c.subscribe(`/topic/change/${other.orgUuid}`, () => assert.fail('no message of another organization'));
      const frame = await error;
      assert.equal(frame.headers.message, 'Access denied');
      await waitFor('the connection to close', () => !c.connected);
    });
  });

  describe('acknowledge', () => {
    it('acknowledges in client-individual mode with message.ack() and message.nack()', async () => {
      const c = await client();
      const sub = await collect(c, `/topic/change/${org.orgUuid}`, { ack: 'client-individual' });
      await raiseChanges(server.gatehouse.deps, org.orgUuid, [{}, {}]);
      await waitFor('two messages', () => sub.messages.length === 2);
      assert.ok(sub.messages[0]!.headers.ack);
      const receipts = ['r0', 'r1'].map((id) => new Promise<void>((resolve) => c.watchForReceipt(id, () => resolve())));
      sub.messages[0]!.ack({ receipt: 'r0' });
      sub.messages[1]!.nack({ receipt: 'r1' });
      await Promise.all(receipts);
      assert.equal(c.connected, true);
    });

    it('applies an ACK sent in a transaction when it commits', async () => {
      const c = await client();
      const sub = await collect(c, `/topic/change/${org.orgUuid}`, { ack: 'client' });
      await raiseChanges(server.gatehouse.deps, org.orgUuid, [{}]);
      await waitFor('one message', () => sub.messages.length === 1);
      const message = sub.messages[0]!;
      const tx = c.begin();
      message.ack({ transaction: tx.id });
      tx.commit();
      // Acknowledged by the commit: acknowledging it again is an error.
      const error = new Promise<IFrame>((resolve) => (c.onStompError = resolve));
      c.ack(message.headers['message-id']!, message.headers.subscription!, { id: message.headers.ack! });
      assert.equal((await error).headers.message, 'Unknown message');
    });
  });

  it('unsubscribes, then disconnects with a receipt', async () => {
    const c = await client();
    const sub = await collect(c, `/topic/change/${org.orgUuid}`);
    sub.unsubscribe();
    // A second subscription, confirmed after the UNSUBSCRIBE, shows when the change has been delivered.
    const second = await collect(c, `/topic/change/${org.orgUuid}`);
    await raiseChanges(server.gatehouse.deps, org.orgUuid, [{}]);
    await waitFor('the change on the second subscription', () => second.messages.length === 1);
    assert.equal(sub.messages.length, 0);
    await c.deactivate();
    assert.equal(c.connected, false);
  });
});
