import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { raiseChanges, StrictClient } from './helpers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

forEachDialect('stream: STOMP frames', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let topic: string;
  const connect = (headers?: string) => StrictClient.connect(server.gatehouse.urls.ws, { key: org.apiKey, scheme: 'api-token' }, headers);
  const open = async () => {
    const c = await StrictClient.open(server.gatehouse.urls.ws, { key: org.apiKey, scheme: 'api-token' });
    assert.ok(c instanceof StrictClient);
    return c;
  };
  const raise = (n = 1, entity = 'DOOR') =>
    raiseChanges(
      server.gatehouse.deps,
      org.orgUuid,
      Array.from({ length: n }, (_, i) => ({ entity, entityUuid: `e${i}`, update: { i } })),
    );
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Org');
    other = await server.createOrg('Other');
    topic = `/topic/change/${org.orgUuid}`;
  });
  after(() => server.close());

  describe('CONNECT', () => {
    it('answers CONNECT without host with CONNECTED: version, heart-beat offer 10000,10000, server and session', async () => {
      const c = await connect('accept-version:1.2\n');
      const f = c.frames[0]!;
      assert.equal(f.headers.version, '1.2');
      assert.equal(f.headers['heart-beat'], '10000,10000');
      assert.match(f.headers.server!, /^Gatehouse\/\d+\.\d+\.\d+/);
      assert.ok(f.headers.session);
      c.close();
    });

    it('accepts the STOMP command in place of CONNECT', async () => {
      const c = await open();
      c.send('STOMP\naccept-version:1.2\nhost:localhost\n\n\0');
      assert.equal((await c.next()).command, 'CONNECTED');
      c.close();
    });

    it('negotiates the highest common version: 1.1 when offered 1.0,1.1, and 1.0 without accept-version', async () => {
      const c11 = await connect('accept-version:1.0,1.1\n');
      assert.equal(c11.frames[0]!.headers.version, '1.1');
      const c10 = await connect('login:x\npasscode:y\n');
      assert.equal(c10.frames[0]!.headers.version, '1.0');
      assert.equal(c10.frames[0]!.headers['heart-beat'], '0,0', 'STOMP 1.0 has no heart-beating');
      c11.close();
      c10.close();
    });

    it('accepts CRLF line endings', async () => {
      const c = await open();
      c.send('CONNECT\r\naccept-version:1.2\r\n\r\n\0');
      assert.equal((await c.next()).command, 'CONNECTED');
      c.close();
    });

    it('answers an unsupported version with ERROR listing the supported ones, and no CONNECTED', async () => {
      const c = await open();
      c.send('CONNECT\naccept-version:2.0\n\n\0');
      const e = await c.expectErrorAndClose();
      assert.equal(e.headers.message, 'Unsupported protocol version');
      assert.equal(e.headers.version, '1.0,1.1,1.2');
      assert.equal(c.frames.length, 1);
    });

    for (const [what, text] of [
      ['a header without a colon', 'CONNECT\naccept-version:1.2\nnonsense\n\n\0'],
      ['a malformed heart-beat', 'CONNECT\naccept-version:1.2\nheart-beat:fast\n\n\0'],
      ['a lower-case command', 'connect\naccept-version:1.2\n\n\0'],
      ['a non-STOMP text', '{"hello":"world"}\n\n\0'],
    ] as const) {
      it(`answers a CONNECT with ${what} with ERROR then close, no CONNECTED`, async () => {
        const c = await open();
        c.send(text);
        await c.expectErrorAndClose();
        assert.deepEqual(
          c.frames.map((f) => f.command),
          ['ERROR'],
        );
      });
    }

    it('answers any other frame before CONNECT with ERROR then close', async () => {
      const c = await open();
      c.send(`SUBSCRIBE\nid:0\ndestination:${topic}\n\n\0`);
      assert.equal((await c.expectErrorAndClose()).headers.message, 'Not connected');
    });

    it('answers a second CONNECT with ERROR', async () => {
      const c = await connect();
      c.send('CONNECT\naccept-version:1.2\n\n\0');
      assert.equal((await c.expectErrorAndClose()).headers.message, 'Already connected');
    });
  });

  describe('SUBSCRIBE and MESSAGE', () => {
    it('delivers each change of the organization as a MESSAGE with a JSON body', async () => {
      const c = await connect();
      c.send(`SUBSCRIBE\nid:sub-1\ndestination:${topic}\nreceipt:r1\n\n\0`);
      assert.deepEqual((await c.next()).headers, { 'receipt-id': 'r1' });
      await raiseChanges(server.gatehouse.deps, org.orgUuid, [
        { entity: 'CAMERA', entityUuid: 'cam-1', type: 'CREATE', deviceUuid: 'cam-1', update: { name: 'Lobby' }, timestampMs: 1_700_000_000_000 },
      ]);
      const m = await c.next();
      assert.equal(m.command, 'MESSAGE');
      assert.equal(m.headers.subscription, 'sub-1');
      assert.equal(m.headers.destination, topic);
      assert.equal(m.headers['content-type'], 'application/json');
      assert.ok(m.headers['message-id']);
      assert.equal(m.headers.ack, undefined, 'auto mode carries no ack header');
      assert.deepEqual(JSON.parse(m.body), {
        entity: 'CAMERA',
        entityUuid: 'cam-1',
        type: 'CREATE',
        deviceUuid: 'cam-1',
        timestampMs: 1_700_000_000_000,
        update: { name: 'Lobby' },
      });
      c.close();
    });

    it('delivers the changes of one write in order, and not those of another organization', async () => {
      const c = await connect();
      c.send(`SUBSCRIBE\nid:0\ndestination:${topic}\nreceipt:r\n\n\0`);
      await c.next();
      await raiseChanges(server.gatehouse.deps, other.orgUuid, [{ entityUuid: 'foreign' }]);
      await raise(20);
      await c.until(() => c.frames.length >= 22, '20 messages');
      await sleep(50);
      assert.equal(c.frames.length, 22);
      const bodies = c.frames.slice(2).map((f) => JSON.parse(f.body));
      assert.deepEqual(
        bodies.map((b) => b.update.i),
        [...Array(20).keys()],
      );
      c.close();
    });

    it('accepts several frames in one WebSocket message', async () => {
      const c = await open();
      c.send(`CONNECT\naccept-version:1.2\n\n\0SUBSCRIBE\nid:0\ndestination:${topic}\nreceipt:both\n\n\0`);
      assert.equal((await c.next()).command, 'CONNECTED');
      assert.equal((await c.next()).headers['receipt-id'], 'both');
      c.close();
    });

    it('accepts a frame split over several WebSocket messages', async () => {
      const c = await connect();
      c.send('SUBSCRIBE\nid:0\ndesti');
      c.send(`nation:${topic}\nreceipt:split\n\n`);
      c.send('\0');
      assert.equal((await c.next()).headers['receipt-id'], 'split');
      c.close();
    });

    it('reads a body with NUL octets by its content-length', async () => {
      const c = await connect();
      c.send(Buffer.from(`SUBSCRIBE\nid:0\ndestination:${topic}\nreceipt:nul\ncontent-length:3\n\na\0b\0`));
      assert.equal((await c.next()).headers['receipt-id'], 'nul');
      c.close();
    });

    it('escapes a subscription id in MESSAGE headers as STOMP 1.2 says', async () => {
      const c = await connect();
      c.send(`SUBSCRIBE\nid:a\\cb\\nc\ndestination:${topic}\nreceipt:r\n\n\0`);
      await c.next();
      await raise();
      const m = await c.next();
      assert.equal(m.headers.subscription, 'a\\cb\\nc');
      c.close();
    });

    it('refuses a destination of another organization with ERROR', async () => {
      const c = await connect();
      c.send(`SUBSCRIBE\nid:0\ndestination:/topic/change/${other.orgUuid}\nreceipt:x\n\n\0`);
      const e = await c.expectErrorAndClose();
      assert.equal(e.headers.message, 'Access denied');
      assert.equal(e.headers['receipt-id'], 'x');
    });

    for (const [what, frame, message] of [
      ['an unknown destination', 'SUBSCRIBE\nid:0\ndestination:/queue/x\n\n\0', 'Unknown destination'],
      ['no destination', 'SUBSCRIBE\nid:0\n\n\0', 'Missing destination header'],
      ['no id', 'SUBSCRIBE\ndestination:/topic/change/ORG\n\n\0', 'Missing id header'],
      ['an invalid ack mode', 'SUBSCRIBE\nid:0\nack:sometimes\ndestination:/topic/change/ORG\n\n\0', 'Invalid ack mode'],
      ['an undefined header escape', 'SUBSCRIBE\nid:a\\tb\ndestination:/topic/change/ORG\n\n\0', 'Invalid header escape'],
    ] as const) {
      it(`answers SUBSCRIBE with ${what} with ERROR then close`, async () => {
        const c = await connect();
        c.send(frame.replace('ORG', org.orgUuid));
        assert.equal((await c.expectErrorAndClose()).headers.message, message);
      });
    }

    it('refuses a second subscription with the same id', async () => {
      const c = await connect();
      c.send(`SUBSCRIBE\nid:0\ndestination:${topic}\n\n\0SUBSCRIBE\nid:0\ndestination:${topic}\n\n\0`);
      assert.equal((await c.expectErrorAndClose()).headers.message, 'Duplicate subscription id');
    });
  });

  describe('UNSUBSCRIBE', () => {
    it('stops the delivery of that subscription only', async () => {
      const c = await connect();
      c.send(`SUBSCRIBE\nid:a\ndestination:${topic}\n\n\0SUBSCRIBE\nid:b\ndestination:${topic}\n\n\0UNSUBSCRIBE\nid:a\nreceipt:u\n\n\0`);
      assert.equal((await c.next()).headers['receipt-id'], 'u');
      await raise(2);
      await c.until(() => c.frames.length >= 4, 'two messages');
      await sleep(50);
      assert.deepEqual(
        c.frames.slice(2).map((f) => f.headers.subscription),
        ['b', 'b'],
      );
      c.close();
    });

    it('answers an unknown subscription id with ERROR', async () => {
      const c = await connect();
      c.send('UNSUBSCRIBE\nid:nope\n\n\0');
      assert.equal((await c.expectErrorAndClose()).headers.message, 'Unknown subscription');
    });
  });

  describe('ACK and NACK', () => {
    async function subscribed(ack: string, n: number) {
      const c = await connect();
      c.send(`SUBSCRIBE\nid:0\nack:${ack}\ndestination:${topic}\nreceipt:s\n\n\0`);
      await c.next();
      await raise(n);
      const messages = [];
      for (let i = 0; i < n; i++) messages.push(await c.next());
      return { c, ids: messages.map((m) => m.headers.ack!) };
    }

    it('client-individual: each message carries an ack header and is acknowledged alone', async () => {
      const { c, ids } = await subscribed('client-individual', 3);
      assert.ok(ids.every((id) => id !== undefined));
      c.send(`ACK\nid:${ids[1]}\nreceipt:a1\n\n\0NACK\nid:${ids[0]}\nreceipt:a0\n\n\0ACK\nid:${ids[2]}\nreceipt:a2\n\n\0`);
      assert.deepEqual(
        [(await c.next()).headers['receipt-id'], (await c.next()).headers['receipt-id'], (await c.next()).headers['receipt-id']],
        ['a1', 'a0', 'a2'],
      );
      c.send(`ACK\nid:${ids[1]}\n\n\0`);
      assert.equal((await c.expectErrorAndClose()).headers.message, 'Unknown message');
    });

    it('client: an ACK acknowledges the message and every earlier one (cumulative)', async () => {
      const { c, ids } = await subscribed('client', 3);
      c.send(`ACK\nid:${ids[1]}\nreceipt:a\n\n\0`);
      assert.equal((await c.next()).headers['receipt-id'], 'a');
      c.send(`NACK\nid:${ids[2]}\nreceipt:n\n\n\0`);
      assert.equal((await c.next()).headers['receipt-id'], 'n');
      c.send(`ACK\nid:${ids[0]}\n\n\0`);
      assert.equal((await c.expectErrorAndClose()).headers.message, 'Unknown message', 'already acknowledged by the cumulative ACK');
    });

    it('gives two subscriptions of one session their own message ids, each acknowledged alone', async () => {
      const c = await connect();
      c.send(`SUBSCRIBE\nid:a\nack:client-individual\ndestination:${topic}\n\n\0SUBSCRIBE\nid:b\nack:client-individual\ndestination:${topic}\nreceipt:s\n\n\0`);
      await c.next();
      await raise();
      const [first, second] = [await c.next(), await c.next()];
      assert.deepEqual([first.headers.subscription, second.headers.subscription].sort(), ['a', 'b']);
      assert.notEqual(first.headers['message-id'], second.headers['message-id']);
      assert.equal(first.headers.ack, first.headers['message-id']);
      c.send(`ACK\nid:${first.headers.ack}\nreceipt:a1\n\n\0`);
      assert.equal((await c.next()).headers['receipt-id'], 'a1');
      c.send(`ACK\nid:${second.headers.ack}\nreceipt:a2\n\n\0`);
      assert.equal((await c.next()).headers['receipt-id'], 'a2', 'acknowledging the first left the second waiting');
      c.send(`ACK\nid:${first.headers.ack}\n\n\0`);
      assert.equal((await c.expectErrorAndClose()).headers.message, 'Unknown message');
    });

    it('auto: an ACK names no message waiting for it', async () => {
      const c = await connect();
      c.send(`SUBSCRIBE\nid:0\ndestination:${topic}\nreceipt:s\n\n\0`);
      await c.next();
      await raise();
      const m = await c.next();
      c.send(`ACK\nid:${m.headers['message-id']}\n\n\0`);
      assert.equal((await c.expectErrorAndClose()).headers.message, 'Unknown message');
    });

    it('STOMP 1.1: acknowledges by message-id', async () => {
      const c = await connect('accept-version:1.1\n');
      c.send(`SUBSCRIBE\nid:0\nack:client-individual\ndestination:${topic}\nreceipt:s\n\n\0`);
      await c.next();
      await raise();
      const m = await c.next();
      assert.equal(m.headers.ack, undefined);
      c.send(`ACK\nsubscription:0\nmessage-id:${m.headers['message-id']}\nreceipt:a\n\n\0`);
      assert.equal((await c.next()).headers['receipt-id'], 'a');
      c.close();
    });

    it('applies ACKs of a transaction at COMMIT and discards them at ABORT', async () => {
      const { c, ids } = await subscribed('client-individual', 2);
      c.send(`BEGIN\ntransaction:t1\n\n\0ACK\nid:${ids[0]}\ntransaction:t1\n\n\0ABORT\ntransaction:t1\n\n\0`);
      c.send(`ACK\nid:${ids[0]}\nreceipt:after-abort\n\n\0`);
      assert.equal((await c.next()).headers['receipt-id'], 'after-abort', 'the aborted ACK left the message unacknowledged');
      c.send(`BEGIN\ntransaction:t2\n\n\0ACK\nid:${ids[1]}\ntransaction:t2\n\n\0COMMIT\ntransaction:t2\nreceipt:c\n\n\0`);
      assert.equal((await c.next()).headers['receipt-id'], 'c');
      c.send(`ACK\nid:${ids[1]}\n\n\0`);
      assert.equal((await c.expectErrorAndClose()).headers.message, 'Unknown message');
    });

    it('answers COMMIT of an unknown transaction with ERROR', async () => {
      const c = await connect();
      c.send('COMMIT\ntransaction:nope\n\n\0');
      assert.equal((await c.expectErrorAndClose()).headers.message, 'Unknown transaction');
    });
  });

  describe('other frames', () => {
    it('answers SEND with ERROR: the stream is read-only', async () => {
      const c = await connect();
      c.send(`SEND\ndestination:${topic}\n\nhi\0`);
      const e = await c.expectErrorAndClose();
      assert.equal(e.headers.message, 'SEND is not supported');
      assert.equal(e.headers['content-type'], 'text/plain');
      assert.match(e.body, /read-only/);
    });

    it('answers an unknown command with ERROR', async () => {
      const c = await connect();
      c.send('PUBLISH\n\n\0');
      assert.equal((await c.expectErrorAndClose()).headers.message, 'Unknown command');
    });

    it('answers DISCONNECT with its RECEIPT, then closes normally', async () => {
      const c = await connect();
      c.send('DISCONNECT\nreceipt:bye\n\n\0');
      const r = await c.next();
      assert.equal(r.command, 'RECEIPT');
      assert.equal(r.headers['receipt-id'], 'bye');
      assert.equal(await c.closed, 1000);
    });
  });
});
