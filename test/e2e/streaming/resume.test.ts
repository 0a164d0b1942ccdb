import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pruneChangeLog } from '../../../src/domains/changes/service.js';
import { startStream, type StreamServer } from '../../../src/streaming/server.js';
import { loadOrCreateTls } from '../../../src/tls.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { raiseChanges, startStreamWith, StrictClient, type Frame } from './helpers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const messages = (c: StrictClient): Frame[] => c.frames.filter((f) => f.command === 'MESSAGE');
const uuids = (c: StrictClient) => messages(c).map((f) => JSON.parse(f.body).entityUuid as string);
const positions = (c: StrictClient) => messages(c).map((f) => Number(f.headers.position));
const consecutive = (ps: number[]) => ps.every((p, i) => i === 0 || p === ps[i - 1]! + 1);

forEachDialect('stream resume by position', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let stream: StreamServer;
  let topic: string;
  const connect = (url = server.gatehouse.urls.ws, key = org.apiKey) => StrictClient.connect(url, { key, scheme: 'api-token' });
  async function subscribe(c: StrictClient, extra = '', dest = topic): Promise<void> {
    c.send(`SUBSCRIBE\nid:0\ndestination:${dest}\n${extra}receipt:s\n\n\0`);
    const first = await c.next();
    assert.equal(first.command, 'RECEIPT', JSON.stringify(first));
  }
  /** The position of the change of `entityUuid`, from the change log's REST read. */
  async function positionOf(entityUuid: string): Promise<number> {
    let after = 0;
    for (let page = 0; page < 100; page++) {
      const r = await server.call('/api/gatehouse/listChangesAfter', { afterPosition: after });
      const found = r.json.changes.find((c: { entityUuid: string }) => c.entityUuid === entityUuid);
      if (found) return found.position;
      if (r.json.changes.length === 0) break;
      after = r.json.lastPosition;
    }
    assert.fail(`${entityUuid} is not in the log`);
  }

  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Org');
    other = await server.createOrg('Other');
    topic = `/topic/change/${org.orgUuid}`;
    stream = await startStreamWith(server, { maxFrameBytes: 2048, maxBufferedBytes: 64 * 1024 });
  });
  after(async () => {
    await stream.close();
    await server.close();
  });

  it("puts the organization's position on every MESSAGE; another organization's changes do not move it", async () => {
    const c = await connect();
    await subscribe(c);
    await raiseChanges(server.gatehouse.deps, org.orgUuid, [{ entityUuid: 'p-0' }]);
    await raiseChanges(server.gatehouse.deps, other.orgUuid, [{ entityUuid: 'other-0' }, { entityUuid: 'other-1' }]);
    await raiseChanges(server.gatehouse.deps, org.orgUuid, [{ entityUuid: 'p-1' }, { entityUuid: 'p-2' }]);
    await c.until(() => messages(c).length === 3, 'three messages');
    assert.deepEqual(uuids(c), ['p-0', 'p-1', 'p-2']);
    assert.ok(consecutive(positions(c)), `consecutive: ${positions(c)}`);
    assert.ok(positions(c)[0]! >= 1);
    c.close();
  });

  it('replays the changes after resume-after from the log, then the live ones: no gap, no duplicate at the seam', async () => {
    await raiseChanges(
      server.gatehouse.deps,
      org.orgUuid,
      Array.from({ length: 20 }, (_, i) => ({ entityUuid: `r${i}` })),
    );
    const from = await positionOf('r4');
    // Changes keep coming while the subscription reads the log.
    let writing = true;
    const live: string[] = [];
    const writer = (async () => {
      for (let i = 0; writing && i < 200; i++) {
        live.push(`l${i}`);
        await raiseChanges(server.gatehouse.deps, org.orgUuid, [{ entityUuid: `l${i}` }]);
      }
    })();
    await sleep(20);
    const c = await connect();
    await subscribe(c, `resume-after:${from}\n`);
    await sleep(100);
    writing = false;
    await writer;
    const expected = [...Array.from({ length: 15 }, (_, i) => `r${i + 5}`), ...live];
    await c.until(() => messages(c).length >= expected.length, `${expected.length} messages`, 10_000);
    await sleep(50);
    assert.deepEqual(uuids(c), expected);
    assert.equal(positions(c)[0], from + 1);
    assert.ok(consecutive(positions(c)));
    c.close();
  });

  it('sends a change once when the log is read ahead of its announcement on the bus', async () => {
    // A stream whose bus announces each change a second late, as a busy Redis may: the resuming subscriber
    // reads the changes from the log before the bus announces them.
    const bus = server.gatehouse.deps.bus;
    const lateBus: typeof bus = {
      ...bus,
      name: bus.name,
      publish: (name, payload) => bus.publish(name, payload),
      ping: () => bus.ping(),
      close: () => bus.close(),
      subscribe: (name, handler) => bus.subscribe(name, (payload) => void setTimeout(() => handler(payload), name === 'change' ? 1000 : 0)),
    };
    const late = await startStream({ ...server.gatehouse.deps, bus: lateBus }, await loadOrCreateTls(server.config), { host: '127.0.0.1', port: 0 }, {});
    try {
      const watcher = await connect(late.url);
      await subscribe(watcher);
      await raiseChanges(server.gatehouse.deps, org.orgUuid, [{ entityUuid: 'seam-0' }]);
      await watcher.until(() => uuids(watcher).includes('seam-0'), 'the first change');
      const from = await positionOf('seam-0');
      await raiseChanges(
        server.gatehouse.deps,
        org.orgUuid,
        Array.from({ length: 5 }, (_, i) => ({ entityUuid: `seam-${i + 1}` })),
      );
      const c = await connect(late.url);
      await subscribe(c, `resume-after:${from}\n`);
      await c.until(() => messages(c).length >= 5, 'the five changes from the log');
      await watcher.until(() => uuids(watcher).includes('seam-5'), 'the announcements');
      await sleep(100);
      assert.deepEqual(uuids(c), ['seam-1', 'seam-2', 'seam-3', 'seam-4', 'seam-5']);
      c.close();
      watcher.close();
    } finally {
      await late.close();
    }
  });

  it('resumes from 0: every change the log holds', async () => {
    const c = await connect();
    await subscribe(c, 'resume-after:0\n');
    const latest = (await server.call('/api/gatehouse/listChangesAfter', { afterPosition: 0, limit: 1 })).json.latestPosition;
    await c.until(() => messages(c).length >= latest, `${latest} messages`);
    assert.deepEqual(
      positions(c),
      Array.from({ length: latest }, (_, i) => i + 1),
    );
    c.close();
  });

  it('refuses a resume-after that is not a position, or past the organization’s last one', async () => {
    const bad = await connect();
    bad.send(`SUBSCRIBE\nid:0\ndestination:${topic}\nresume-after:abc\n\n\0`);
    assert.equal((await bad.expectErrorAndClose()).headers.message, 'Invalid resume-after header');
    const ahead = await connect();
    ahead.send(`SUBSCRIBE\nid:0\ndestination:${topic}\nresume-after:999999\n\n\0`);
    const e = await ahead.expectErrorAndClose();
    assert.equal(e.headers.message, 'Unknown position');
    assert.match(e.body, /999999/);
  });

  it('drops a subscriber that stops reading with ERROR Slow consumer ahead of its backlog; it resumes from its last position and catches up', async () => {
    const slow = await connect(stream.url);
    await subscribe(slow);
    const before = stream.sessionCount();
    slow.ws.pause();
    const big = 'x'.repeat(1500);
    const raised: string[] = [];
    for (let batch = 0; batch < 400 && stream.sessionCount() === before; batch++) {
      const names = Array.from({ length: 20 }, (_, i) => `big-${batch}-${i}`);
      raised.push(...names);
      await raiseChanges(
        server.gatehouse.deps,
        org.orgUuid,
        names.map((entityUuid) => ({ entityUuid, update: { big } })),
      );
      await sleep(5);
    }
    assert.equal(stream.sessionCount(), before - 1, 'the slow consumer was dropped');
    // Some more while it is away.
    for (let i = 0; i < 10; i++) raised.push(`away-${i}`);
    await raiseChanges(
      server.gatehouse.deps,
      org.orgUuid,
      raised.slice(-10).map((entityUuid) => ({ entityUuid })),
    );
    slow.ws.resume();
    await slow.until(() => slow.closeCode !== null, 'the close', 10_000);
    const error = slow.frames.find((f) => f.command === 'ERROR');
    assert.ok(error, 'the slow consumer reads its ERROR');
    assert.equal(error.headers.message, 'Slow consumer');
    assert.match(error.body, /resume-after/);
    assert.equal(slow.frames[slow.frames.length - 1], error, 'ERROR is the last frame: the backlog behind it was dropped');
    assert.ok(messages(slow).length < raised.length, 'part of the changes never reached it');
    const last = positions(slow).at(-1)!;
    const seen = uuids(slow);
    const again = await connect(stream.url);
    await subscribe(again, `resume-after:${last}\n`);
    await again.until(() => uuids(again).includes('away-9'), 'the catch-up', 15_000);
    assert.deepEqual([...seen, ...uuids(again)], raised, 'every change once, in order, across the drop');
    again.close();
  });

  it('answers a WebSocket message over the socket limit with ERROR before the 1009 close', async () => {
    const c = await connect(stream.url);
    c.send(`SEND\ndestination:${topic}\n\n${'x'.repeat(10_000)}\0`);
    const e = await c.expectErrorAndClose();
    assert.equal(e.headers.message, 'Frame too large');
    assert.match(e.body, /8192 bytes/);
    assert.equal(c.closeCode, 1009);
  });

  describe('listChangesAfter (Gatehouse extension)', () => {
    it('answers the changes after a position, in pages', async () => {
      await raiseChanges(server.gatehouse.deps, org.orgUuid, [
        { entityUuid: 'rest-0', update: { n: 0 } },
        { entityUuid: 'rest-1', update: { n: 1 } },
        { entityUuid: 'rest-2', update: { n: 2 } },
      ]);
      const from = (await positionOf('rest-0')) - 1;
      const first = await server.call('/api/gatehouse/listChangesAfter', { afterPosition: from, limit: 2 });
      assert.equal(first.status, 200);
      assert.equal(first.json.error, false);
      assert.deepEqual(
        first.json.changes.map((c: { entityUuid: string }) => c.entityUuid),
        ['rest-0', 'rest-1'],
      );
      assert.deepEqual(first.json.changes[0], {
        position: from + 1,
        entity: 'DOOR',
        entityUuid: 'rest-0',
        type: 'UPDATE',
        deviceUuid: null,
        timestampMs: first.json.changes[0].timestampMs,
        update: { n: 0 },
      });
      assert.equal(first.json.lastPosition, from + 2);
      assert.ok(first.json.latestPosition >= from + 3);
      const second = await server.call('/api/gatehouse/listChangesAfter', { afterPosition: first.json.lastPosition, limit: 2 });
      assert.deepEqual(
        second.json.changes.map((c: { entityUuid: string }) => c.entityUuid),
        ['rest-2'],
      );
    });

    it("answers only the caller's organization: another organization's positions are its own", async () => {
      const mine = await server.call('/api/gatehouse/listChangesAfter', { afterPosition: 0 }, { key: other.apiKey });
      assert.deepEqual(
        mine.json.changes.map((c: { entityUuid: string }) => c.entityUuid),
        ['other-0', 'other-1'],
      );
      assert.deepEqual(
        mine.json.changes.map((c: { position: number }) => c.position),
        [1, 2],
      );
    });

    it('needs a key (401) and a well-formed body (400)', async () => {
      assert.equal((await server.call('/api/gatehouse/listChangesAfter', { afterPosition: 0 }, { key: '' })).status, 401);
      for (const body of [
        {},
        { afterPosition: -1 },
        { afterPosition: 'x' },
        { afterPosition: 0, limit: 0 },
        { afterPosition: 0, limit: 5000 },
        { afterPosition: {} },
        '{"afterPosition":',
      ]) {
        const r = await server.call('/api/gatehouse/listChangesAfter', body);
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.equal(r.json.error, true);
      }
    });

    it('refuses a position past the last one', async () => {
      const r = await server.call('/api/gatehouse/listChangesAfter', { afterPosition: 10_000_000 });
      assert.equal(r.status, 200);
      assert.equal(r.json.error, true);
      assert.match(r.json.errorMsg, /^Unknown position/);
    });
  });

  it('refuses, on the stream and over REST, a position older than the log keeps; resumes from the oldest kept', async () => {
    const latest = (await server.call('/api/gatehouse/listChangesAfter', { afterPosition: 0, limit: 1 })).json.latestPosition;
    // The retention removes every change logged before the cutoff: here, all of them.
    assert.ok((await pruneChangeLog(server.gatehouse.deps, Date.now() + 1000)) > 0);
    const old = await connect();
    old.send(`SUBSCRIBE\nid:0\ndestination:${topic}\nresume-after:1\n\n\0`);
    const e = await old.expectErrorAndClose();
    assert.equal(e.headers.message, 'Position too old');
    assert.match(e.body, /no longer holds/);
    const rest = await server.call('/api/gatehouse/listChangesAfter', { afterPosition: 1 });
    assert.equal(rest.json.error, true);
    assert.match(rest.json.errorMsg, /^Position too old/);
    // From the newest position the log still answers, and the live stream goes on after it.
    const c = await connect();
    await subscribe(c, `resume-after:${latest}\n`);
    await raiseChanges(server.gatehouse.deps, org.orgUuid, [{ entityUuid: 'after-prune' }]);
    await c.until(() => messages(c).length === 1, 'the next change');
    assert.deepEqual(positions(c), [latest + 1]);
    c.close();
  });
});

forEachDialect('stream positions after a reset or restore of the store', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Restored');
  });
  after(() => server.close());

  it('a subscriber connected across state/restore receives every change made after it', async () => {
    const topic = `/topic/change/${org.orgUuid}`;
    await raiseChanges(
      server.gatehouse.deps,
      org.orgUuid,
      Array.from({ length: 5 }, (_, i) => ({ entityUuid: `s${i}` })),
    );
    assert.equal((await control(server, '/state/snapshot', { name: 'five' })).json.error, false);
    const c = await StrictClient.connect(server.gatehouse.urls.ws, { key: org.apiKey, scheme: 'api-token' });
    c.send(`SUBSCRIBE\nid:0\ndestination:${topic}\nreceipt:s\n\n\0`);
    await c.next();
    await raiseChanges(
      server.gatehouse.deps,
      org.orgUuid,
      Array.from({ length: 10 }, (_, i) => ({ entityUuid: `before-${i}` })),
    );
    await c.until(() => messages(c).length === 10, 'ten changes');
    assert.equal((await control(server, '/state/restore', { name: 'five' })).json.error, false);
    for (let i = 0; i < 5; i++) await raiseChanges(server.gatehouse.deps, org.orgUuid, [{ entityUuid: `after-${i}` }]);
    await c.until(() => messages(c).length === 15, 'the five changes made after the restore', 5000);
    assert.deepEqual(uuids(c).slice(10), ['after-0', 'after-1', 'after-2', 'after-3', 'after-4']);
    assert.deepEqual(positions(c).slice(10), [6, 7, 8, 9, 10], 'positions follow the restored log');
    c.close();
  });

  it('after state/reset the stream delivers the new store’s changes from position 1', async () => {
    assert.equal((await control(server, '/state/reset')).json.error, false);
    const fresh = (await control(server, '/orgs', { name: 'Fresh' })).json;
    const c = await StrictClient.connect(server.gatehouse.urls.ws, { key: fresh.apiKey, scheme: 'api-token' });
    c.send(`SUBSCRIBE\nid:0\ndestination:/topic/change/${fresh.orgUuid}\nreceipt:s\n\n\0`);
    await c.next();
    for (let i = 0; i < 5; i++) await raiseChanges(server.gatehouse.deps, fresh.orgUuid, [{ entityUuid: `fresh-${i}` }]);
    await c.until(() => messages(c).length === 5, 'five changes after the reset');
    assert.deepEqual(positions(c), [1, 2, 3, 4, 5]);
    c.close();
  });
});
