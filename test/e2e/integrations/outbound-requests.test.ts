import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checkOutboundUrl, OutboundRefused, sendOutbound } from '../../../src/net/outbound.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';

describe('sendOutbound', () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver((req) => (req.path === '/slow' ? 'hang' : { status: 201, body: { got: req.json } }));
  });
  after(() => receiver.close());

  const port = () => new URL(receiver.url).port;

  it('posts JSON and answers the status and body when private addresses are allowed', async () => {
    const r = await sendOutbound({ method: 'POST', url: `${receiver.url}/hook`, json: { a: 1 }, timeoutMs: 2000 }, { allowPrivate: true });
    assert.equal(r.status, 201);
    assert.deepEqual(JSON.parse(r.body), { got: { a: 1 } });
    assert.equal(receiver.requests.at(-1)?.headers['content-type'], 'application/json');
  });

  it('refuses a loopback address, literal or resolved from a name, before connecting', async () => {
    const before = receiver.requests.length;
    for (const url of [`http://127.0.0.1:${port()}/x`, `http://localhost:${port()}/x`]) {
      await assert.rejects(sendOutbound({ method: 'POST', url, json: {}, timeoutMs: 2000 }, { allowPrivate: false }), OutboundRefused, url);
    }
    assert.equal(receiver.requests.length, before, 'nothing reached the receiver');
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    await assert.rejects(
      sendOutbound({ method: 'POST', url: `${receiver.url}/slow`, json: {}, timeoutMs: 200 }, { allowPrivate: true }),
      /timed out after 200 ms/,
    );
  });
});

describe('checkOutboundUrl', () => {
  it('refuses what is not an http(s) URL', async () => {
    for (const url of ['ftp://example.com/x', 'not a url', 'javascript:alert(1)']) {
      await assert.rejects(checkOutboundUrl(url, { allowPrivate: true }), OutboundRefused, url);
    }
  });

  it('refuses a name that resolves to loopback, and takes it when private addresses are allowed', async () => {
    await assert.rejects(checkOutboundUrl('http://localhost:9/x', { allowPrivate: false }), /private, loopback or link-local/);
    assert.equal((await checkOutboundUrl('http://localhost:9/x', { allowPrivate: true })).hostname, 'localhost');
  });
});
