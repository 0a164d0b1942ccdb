import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { StreamServer } from '../../../src/streaming/server.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { raiseChanges, startStreamWith, stompjsClient, StrictClient } from './helpers.js';
import { waitFor } from '../../helpers/wait.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

forEachDialect('stream: limits, heart-beats and slow consumers', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let stream: StreamServer;
  let topic: string;
  const connect = (headers?: string) => StrictClient.connect(stream.url, { key: org.apiKey, scheme: 'api-token' }, headers);
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Org');
    topic = `/topic/change/${org.orgUuid}`;
    stream = await startStreamWith(server, {
      maxFrameBytes: 2048,
      maxHeaders: 10,
      maxSubscriptions: 3,
      maxPendingAcks: 3,
      maxBufferedBytes: 256 * 1024,
      heartbeat: [50, 50],
      // Generous, so that a loaded machine's stalled event loop is not taken for a silent client.
      heartbeatGrace: 4,
      connectTimeoutMs: 300,
    });
  });
  after(async () => {
    await stream.close();
    await server.close();
  });

  describe('limits, each answered with ERROR then close', () => {
    it('refuses a frame larger than maxFrameBytes', async () => {
      const c = await connect();
      c.send(`SUBSCRIBE\nid:0\ndestination:${topic}\nx:${'a'.repeat(3000)}\n\n\0`);
      const e = await c.expectErrorAndClose();
      assert.equal(e.headers.message, 'Frame too large');
      assert.match(e.body, /2048 bytes/);
      assert.equal(c.closeCode, 1008);
    });

    it('refuses a frame with more headers than maxHeaders', async () => {
      const c = await connect();
      const headers = Array.from({ length: 11 }, (_, i) => `h${i}:v\n`).join('');
      c.send(`SUBSCRIBE\nid:0\ndestination:${topic}\n${headers}\n\0`);
      assert.equal((await c.expectErrorAndClose()).headers.message, 'Too many headers');
    });

    it('refuses a subscription beyond maxSubscriptions', async () => {
      const c = await connect();
      for (let i = 0; i < 3; i++) c.send(`SUBSCRIBE\nid:${i}\ndestination:${topic}\nreceipt:${i}\n\n\0`);
      for (let i = 0; i < 3; i++) assert.equal((await c.next()).command, 'RECEIPT');
      c.send(`SUBSCRIBE\nid:3\ndestination:${topic}\n\n\0`);
      assert.equal((await c.expectErrorAndClose()).headers.message, 'Too many subscriptions');
    });

    it('drops a connection with more than maxPendingAcks unacknowledged messages', async () => {
      const c = await connect();
      c.send(`SUBSCRIBE\nid:0\nack:client\ndestination:${topic}\nreceipt:s\n\n\0`);
      await c.next();
      await raiseChanges(server.gatehouse.deps, org.orgUuid, [{}, {}, {}, {}]);
      for (let i = 0; i < 3; i++) assert.equal((await c.next()).command, 'MESSAGE');
      assert.equal((await c.expectErrorAndClose()).headers.message, 'Too many unacknowledged messages');
    });

    it('drops a connection that sends no CONNECT within connectTimeoutMs', async () => {
      const c = await StrictClient.open(stream.url, { key: org.apiKey, scheme: 'api-token' });
      assert.ok(c instanceof StrictClient);
      assert.equal((await c.expectErrorAndClose()).headers.message, 'Connect timeout');
    });
  });

  describe('heart-beats', () => {
    it('sends a bare EOL at the negotiated interval, never before CONNECTED', async () => {
      const c = await connect('accept-version:1.2\nheart-beat:0,50\n');
      assert.equal(c.frames[0]!.headers['heart-beat'], '50,50');
      await sleep(500);
      assert.ok(c.heartbeats >= 2 && c.heartbeats <= 20, `got ${c.heartbeats} heart-beats in 500 ms at 50 ms`);
      c.close();
    });

    it('sends none when the client asks for none', async () => {
      const c = await connect('accept-version:1.2\nheart-beat:0,0\n');
      await sleep(200);
      assert.equal(c.heartbeats, 0);
      c.close();
    });

    it('keeps a client that heart-beats, and drops it with ERROR once its heart-beats stop', async () => {
      const c = await connect('accept-version:1.2\nheart-beat:100,0\n');
      const beat = setInterval(() => c.send('\n'), 30);
      await sleep(1000);
      clearInterval(beat);
      assert.equal(c.closeCode, null, 'still connected while heart-beating (for 2.5 times the 400 ms limit)');
      const started = Date.now();
      const e = await c.expectErrorAndClose(3000);
      assert.equal(e.headers.message, 'Heart-beat timeout');
      assert.ok(Date.now() - started >= 350, 'not before the limit');
    });

    it('keeps @stomp/stompjs connected with heart-beats both ways', async () => {
      const client = await stompjsClient(stream.url, { key: org.apiKey, scheme: 'api-token' }, { heartbeatIncoming: 200, heartbeatOutgoing: 100 });
      let closed = false;
      client.onWebSocketClose = () => (closed = true);
      // Past the server's limit (4 x 100 ms) and stompjs's own (2 x 200 ms), several times over.
      await sleep(1500);
      assert.equal(closed, false);
      assert.equal(client.connected, true);
      await client.deactivate();
    });
  });

  describe('slow consumers', () => {
    it('drops a client that stops reading, with ERROR saying why, without stalling the others', async () => {
      const fast = await connect();
      const slow = await connect();
      for (const c of [fast, slow]) {
        c.send(`SUBSCRIBE\nid:0\ndestination:${topic}\nreceipt:s\n\n\0`);
        await c.next();
      }
      const before = stream.sessionCount();
      slow.ws.pause();
      // Bursts of 192 KiB, under the 256 KiB limit, so that only a client that does not read falls behind;
      // the slow client's kernel buffers fill first, then the server's.
      const big = 'x'.repeat(32 * 1024);
      let raised = 0;
      for (let batch = 0; batch < 200 && stream.sessionCount() === before; batch++) {
        await raiseChanges(
          server.gatehouse.deps,
          org.orgUuid,
          Array.from({ length: 6 }, () => ({ update: { big } })),
        );
        raised += 6;
        await waitFor(`the fast client to receive ${raised} messages`, () => fast.frames.length - 2 >= raised, 10_000);
      }
      assert.equal(stream.sessionCount(), before - 1, 'the slow consumer was dropped');
      assert.equal(fast.closeCode, null, 'the fast client is still connected');
      slow.ws.resume();
      await slow.until(() => slow.closeCode !== null, 'the slow client to be closed', 10_000);
      const error = slow.frames.find((f) => f.command === 'ERROR');
      assert.ok(error, 'the slow client reads ERROR once it reads again');
      assert.equal(error.headers.message, 'Slow consumer');
      assert.match(error.body, /bytes are waiting/);
      fast.close();
    });
  });

  describe('shutdown', () => {
    it('ends every session with ERROR and closes the listener', async () => {
      const other = await startStreamWith(server, {});
      const c = await StrictClient.connect(other.url, { key: org.apiKey, scheme: 'api-token' });
      await other.close();
      const e = await c.expectErrorAndClose();
      assert.equal(e.headers.message, 'Server shutting down');
      assert.equal(c.closeCode, 1001);
      await assert.rejects(StrictClient.open(other.url, { key: org.apiKey, scheme: 'api-token' }));
    });
  });
});
