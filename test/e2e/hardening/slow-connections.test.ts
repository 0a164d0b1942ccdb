import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { connect as tlsConnect, TLSSocket } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../src/config.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

const LIMIT_MS = 800;

/** Opens a connection, lets `start` write to it, and answers how long the server took to close it (null: not within 10 s). */
function closedAfter(open: () => Socket, start: (s: Socket) => void = () => {}): Promise<number | null> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const socket = open();
    socket.on('error', () => {});
    socket.resume(); // read (and drop) whatever the server answers, so that its close is seen
    let started = false;
    const begin = () => {
      if (!started) start(socket);
      started = true;
    };
    socket.once(socket instanceof TLSSocket ? 'secureConnect' : 'connect', begin);
    const giveUp = setTimeout(() => {
      socket.destroy();
      resolve(null);
    }, 10_000);
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve(Date.now() - t0);
    });
  });
}

describe('connections that do not finish their HTTP request in time are closed (REST and WebSocket ports)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite', { env: { GATEHOUSE_REQUEST_TIMEOUT_MS: String(LIMIT_MS) } });
  });
  after(() => server.close());

  it('defaults to 10 s', () => {
    assert.equal(loadConfig({}, {}).requestTimeoutMs, 10_000);
  });

  it('closes idle, half-sent and slow-body connections on the REST port', async () => {
    const url = new URL(server.rest);
    const open = () => connect(Number(url.port), url.hostname);
    const results = await Promise.all([
      closedAfter(open),
      closedAfter(open, (s) => s.write('POST /api/org/getOrgV2 HTTP/1.1\r\nHost: x\r\n')),
      closedAfter(open, (s) => s.write('POST /api/org/getOrgV2 HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{')),
    ]);
    for (const [i, ms] of results.entries()) assert.ok(ms !== null && ms >= LIMIT_MS * 0.9, `case ${i}: closed after ${ms} ms`);
  });

  it('closes idle, handshake-only and half-sent upgrade connections on the WebSocket port', async () => {
    const url = new URL(server.gatehouse.urls.ws.replace(/^wss:/, 'https:'));
    const port = Number(url.port);
    const results = await Promise.all([
      closedAfter(() => connect(port, url.hostname)),
      closedAfter(() => tlsConnect({ port, host: url.hostname, rejectUnauthorized: false })),
      closedAfter(
        () => tlsConnect({ port, host: url.hostname, rejectUnauthorized: false }),
        (s) => s.write('GET /stream HTTP/1.1\r\nHost: x\r\n'),
      ),
    ]);
    for (const [i, ms] of results.entries()) assert.ok(ms !== null && ms >= LIMIT_MS * 0.9, `case ${i}: closed after ${ms} ms`);
  });

  it('leaves a complete request alone', async () => {
    const r = await fetch(server.rest + '/healthz');
    assert.equal(r.status, 200);
  });
});
