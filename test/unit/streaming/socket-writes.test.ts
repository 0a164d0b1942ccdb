import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable, type Duplex } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import WebSocket, { WebSocketServer } from 'ws';
import { SocketWriter, textFrame, TurnWrites, WRITES_PER_TURN } from '../../../src/streaming/socket-writes.js';

/** A WebSocket server whose upgraded sockets are handed to the test, and `ws` clients reading what they are sent. */
describe('stream socket writes (frames written straight to the socket, one write per turn)', () => {
  let server: Server;
  let url: string;
  const upgraded: Array<(socket: Duplex, ws: WebSocket) => void> = [];
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });

  before(async () => {
    server = createServer();
    server.on('upgrade', (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => upgraded.shift()!(socket, ws)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const ws of wss.clients) ws.terminate();
    wss.close();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Opens a client; answers it, the server side's socket, and the messages the client has read. */
  async function connect() {
    const serverSide = new Promise<{ socket: Duplex; ws: WebSocket }>((resolve) => upgraded.push((socket, ws) => resolve({ socket, ws })));
    const client = new WebSocket(url);
    const messages: Array<{ text: string; binary: boolean }> = [];
    client.on('message', (data: Buffer, binary: boolean) => messages.push({ text: data.toString('utf8'), binary }));
    await new Promise((resolve, reject) => (client.once('open', resolve), client.once('error', reject)));
    const { socket, ws } = await serverSide;
    /** Counts the socket's writes and keeps what each was handed. */
    const writes: Buffer[] = [];
    const write = socket.write.bind(socket) as (chunk: Buffer, done?: (e?: Error | null) => void) => boolean;
    socket.write = ((chunk: Buffer, done?: (e?: Error | null) => void) => (writes.push(chunk), write(chunk, done))) as typeof socket.write;
    const waitFor = async (n: number) => {
      for (let i = 0; i < 500 && messages.length < n; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(messages.length, n);
    };
    return { client, socket, ws, messages, writes, waitFor };
  }

  it('frames text of every length class as WebSocket text messages that a client reads intact', async () => {
    const c = await connect();
    const turn = new TurnWrites();
    const writer = new SocketWriter(
      c.socket,
      turn,
      () => c.ws.readyState === WebSocket.OPEN,
      () => {},
    );
    // 7-bit, 16-bit and 64-bit lengths, at their edges, and text that is not ASCII.
    const texts = [0, 1, 125, 126, 65_535, 65_536, 70_001].map((n, i) => 'é'.repeat(i) + 'x'.repeat(n));
    for (const text of texts) writer.send(textFrame(text));
    await c.waitFor(texts.length);
    assert.deepEqual(
      c.messages.map((m) => [m.text, m.binary]),
      texts.map((t) => [t, false]),
    );
    c.client.close();
  });

  it('writes what one turn queued in one socket write, and hands equal queues one joined buffer', async () => {
    const [a, b] = [await connect(), await connect()];
    const turn = new TurnWrites();
    const writers = [a, b].map(
      (c) =>
        new SocketWriter(
          c.socket,
          turn,
          () => c.ws.readyState === WebSocket.OPEN,
          () => {},
        ),
    );
    const frames = ['MESSAGE 1', 'MESSAGE 2', 'MESSAGE 3'].map((t) => textFrame(t));
    for (const frame of frames) for (const w of writers) w.send(frame);
    assert.equal(a.writes.length, 0, 'nothing is written before the end of the turn');
    assert.equal(writers[0]!.pendingBytes(), Buffer.concat(frames).length);
    await a.waitFor(3);
    await b.waitFor(3);
    assert.equal(a.writes.length, 1);
    assert.equal(b.writes.length, 1);
    assert.equal(a.writes[0], b.writes[0], 'the same joined buffer');
    assert.deepEqual(
      b.messages.map((m) => m.text),
      ['MESSAGE 1', 'MESSAGE 2', 'MESSAGE 3'],
    );
    // A single frame goes out as it is, without a copy.
    writers[0]!.send(frames[0]!);
    await a.waitFor(4);
    assert.equal(a.writes[1], frames[0]);
    a.client.close();
    b.client.close();
  });

  it('tells when each write has left the socket buffer, a write below the high-water mark too (no drain event comes)', async () => {
    const c = await connect();
    let written = 0;
    const writer = new SocketWriter(
      c.socket,
      new TurnWrites(),
      () => c.ws.readyState === WebSocket.OPEN,
      () => written++,
    );
    writer.send(textFrame('x'.repeat(20_000)));
    await c.waitFor(1);
    writer.send(textFrame('small'));
    await c.waitFor(2);
    for (let i = 0; i < 100 && written < 2; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(written, 2);
    assert.equal(writer.pendingBytes(), 0);
    c.client.close();
  });

  it('writes at once on flush, and nothing once the WebSocket has begun to close', async () => {
    const c = await connect();
    const writer = new SocketWriter(
      c.socket,
      new TurnWrites(),
      () => c.ws.readyState === WebSocket.OPEN,
      () => {},
    );
    writer.send(textFrame('ERROR'));
    writer.flush();
    assert.equal(c.writes.length, 1);
    await c.waitFor(1);
    c.ws.close(1000, 'bye');
    writer.send(textFrame('late'));
    writer.flush();
    await new Promise((resolve) => c.client.once('close', resolve));
    assert.deepEqual(
      c.messages.map((m) => m.text),
      ['ERROR'],
    );
  });

  /** More connections than one turn writes, on sockets that keep the buffer each write was handed. */
  function sweepOfConnections() {
    const turn = new TurnWrites();
    return Array.from({ length: WRITES_PER_TURN + 72 }, () => {
      const writes: Buffer[] = [];
      const socket = new Writable({ write: (chunk: Buffer, _encoding, done) => (writes.push(chunk), done()) });
      const writer = new SocketWriter(
        socket as unknown as Duplex,
        turn,
        () => true,
        () => {},
      );
      return { writer, writes };
    });
  }
  const texts = (writes: Buffer[]) => writes.map((b) => b.toString());

  it('writes many connections in sweeps over several turns: a frame for one not written yet joins its write', async () => {
    const connections = sweepOfConnections();
    const [first, second] = [textFrame('change 1'), textFrame('change 2')];
    for (const c of connections) c.writer.send(first);
    await new Promise(setImmediate); // the sweep's first turn has run
    assert.equal(connections.filter((c) => c.writes.length === 1).length, WRITES_PER_TURN);
    connections[0]!.writer.send(second); // written already in this sweep: waits for the next one
    connections.at(-1)!.writer.send(second); // not written yet: takes both changes in one write
    for (let i = 0; i < 100 && connections[0]!.writes.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(texts(connections[0]!.writes), texts([first, second]));
    assert.deepEqual(texts(connections.at(-1)!.writes), texts([Buffer.concat([first, second])]));
    assert.ok(connections.slice(1, -1).every((c) => c.writes.length === 1 && c.writes[0]!.equals(first)));
  });

  it('hands equal queues one joined buffer across the turns of a sweep', async () => {
    const connections = sweepOfConnections();
    const frames = [textFrame('change 1'), textFrame('change 2')];
    for (const frame of frames) for (const c of connections) c.writer.send(frame);
    for (let i = 0; i < 100 && connections.at(-1)!.writes.length < 1; i++) await new Promise((r) => setTimeout(r, 5));
    const joined = connections[0]!.writes[0]!;
    assert.ok(joined.equals(Buffer.concat(frames)));
    assert.ok(
      connections.every((c) => c.writes.length === 1 && c.writes[0] === joined),
      'the first turn and the second were handed the same buffer',
    );
  });
});
