import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { reportDoorPosition } from '../../../src/domains/access/door-events/door-devices.service.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { createCredential, doorEvents, seedAccessSite, simulate, waitFor, type AccessSite } from './fixtures.js';

const PATH = '/api/component/findPaginatedComponentEventsByAccessControlledDoor';
const T = 1_700_000_000_000;
const SAME_INSTANT = 1000;

forEachDialect(`POST ${PATH}`, (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: AccessSite;
  let door: string;
  /** Every event of the door, by uuid, as the simulator answered it. */
  const recorded = new Map<string, number>();

  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('History Org');
    other = await server.createOrg('Other Org');
    site = await seedAccessSite(server, org.orgUuid);
    door = site.doors['Back Door'];
    // The bulk of the history through the simulator's service (its HTTP route is tested elsewhere).
    const position = async (at: number, i: number) => {
      const { event } = await reportDoorPosition(server.gatehouse.deps, { doorUuid: door, position: i % 2 ? 'CLOSED' : 'OPEN', atMs: at });
      recorded.set(event.uuid, at);
    };
    // 1,000 events at one instant, in parallel batches, plus a few before and after it.
    for (let batch = 0; batch < SAME_INSTANT / 50; batch++) {
      await Promise.all(Array.from({ length: 50 }, (_, i) => position(T, batch * 50 + i)));
    }
    for (let i = 0; i < 5; i++) {
      await position(T - 1000, i);
      await position(T + 1000, i);
    }
    // Two granted badge-ins: a CredentialReceivedEvent and relay UNLOCKED (both the holder's), then LOCKED. The
    // second waits for the first relock, else it would find the door still unlocked (no second UNLOCKED).
    const relocked = async (count: number) =>
      waitFor(`relock ${count}`, async () => {
        const locked = (await doorEvents(server, org.apiKey, door, { typeFilter: ['DoorRelayStateChangeEvent'] })).filter((e) => e.newState === 'LOCKED');
        return locked.length === count && locked;
      });
    for (const [i, [who, hex, at]] of (
      [
        ['Ada', 'a1a1a1a1', T + 5000],
        ['Bob', 'b0b0b0b0', T + 6000],
      ] as const
    ).entries()) {
      await createCredential(server, org.apiKey, { credentialType: 'STANDARD_CSN', hexValue: hex, userUuid: site.users[who] });
      const r = await simulate(server, 'badge', { door, hex, at });
      assert.equal(r.json.granted, true, r.text);
      for (const e of [r.json.credentialReceivedEvent, ...r.json.relayEvents]) recorded.set(e.uuid, e.timestampMs);
      for (const e of await relocked(i + 1)) recorded.set(e.uuid, e.timestampMs);
    }
  });
  after(() => server.close());

  const page = (body: Record<string, unknown>, key = org.apiKey) => server.call(PATH, { accessControlledDoorUuid: door, ...body }, { key });

  async function walk(body: Record<string, unknown>): Promise<{ events: any[]; pages: number }> {
    const events: any[] = [];
    let lastEvaluatedKey: string | undefined;
    for (let pages = 1; pages <= 200; pages++) {
      const r = await page({ ...body, lastEvaluatedKey });
      assert.equal(r.json.error, false, r.text);
      events.push(...r.json.componentEvents);
      lastEvaluatedKey = r.json.lastEvaluatedKey ?? undefined;
      if (!lastEvaluatedKey) return { events, pages };
    }
    throw new Error('more than 200 pages');
  }

  it('requires authentication', async () => {
    assert.equal((await server.call(PATH, { accessControlledDoorUuid: door }, { key: '' })).status, 401);
  });

  it('pages newest first through 1,000 events of one instant, never skipping or repeating one', async () => {
    assert.equal(recorded.size, SAME_INSTANT + 10 + 6);
    const { events, pages } = await walk({ maxPageSize: 37 });
    assert.equal(pages, Math.ceil(recorded.size / 37));
    const uuids = events.map((e) => e.uuid);
    assert.equal(new Set(uuids).size, uuids.length, 'no event repeated');
    assert.deepEqual(new Set(uuids), new Set(recorded.keys()), 'no event skipped');
    for (let i = 1; i < events.length; i++) assert.ok(events[i - 1].timestampMs >= events[i].timestampMs, `newest first at ${i}`);
    assert.equal(events.filter((e) => e.timestampMs === T).length, SAME_INSTANT);
    for (const e of events) assert.equal(e.timestampMs, recorded.get(e.uuid));
  });

  it('pages oldest first with reverseSearch, in exactly the reverse order', async () => {
    const newest = (await walk({ maxPageSize: 250 })).events.map((e) => e.uuid);
    const oldest = (await walk({ maxPageSize: 99, reverseSearch: true })).events.map((e) => e.uuid);
    assert.deepEqual(oldest, [...newest].reverse());
  });

  it('answers 100 events a page by default, with a lastEvaluatedKey while more follow', async () => {
    const first = await page({});
    assert.equal(first.json.componentEvents.length, 100);
    assert.equal(typeof first.json.lastEvaluatedKey, 'string');
    const last = await page({ createdAfterMs: T + 4000 });
    assert.equal(last.json.componentEvents.length, 6);
    assert.equal(last.json.lastEvaluatedKey, null);
  });

  it('bounds by createdAfterMs and createdBeforeMs, both exclusive', async () => {
    const before = (await walk({ createdBeforeMs: T })).events;
    assert.deepEqual(
      before.map((e) => e.timestampMs),
      Array(5).fill(T - 1000),
    );
    const after = (await walk({ createdAfterMs: T })).events;
    assert.equal(after.length, 11);
    assert.ok(after.every((e) => e.timestampMs > T));
    const none = (await walk({ createdAfterMs: T - 1, createdBeforeMs: T })).events;
    assert.deepEqual(none, []);
    const instant = (await walk({ createdAfterMs: T - 1, createdBeforeMs: T + 1, maxPageSize: 1000 })).events;
    assert.equal(instant.length, SAME_INSTANT);
  });

  it('filters by event type and by user', async () => {
    const received = (await walk({ typeFilter: ['CredentialReceivedEvent'] })).events;
    assert.deepEqual(
      received.map((e) => e.originator?.userUuid),
      [site.users.Bob, site.users.Ada],
    );
    const relay = (await walk({ typeFilter: ['DoorRelayStateChangeEvent'] })).events;
    assert.deepEqual(
      relay.map((e) => e.newState),
      ['LOCKED', 'UNLOCKED', 'LOCKED', 'UNLOCKED'],
    );
    const both = (await walk({ typeFilter: ['DoorRelayStateChangeEvent', 'CredentialReceivedEvent'] })).events;
    assert.equal(both.length, 6);
    const ada = (await walk({ userFilter: [site.users.Ada] })).events;
    assert.deepEqual(
      ada.map((e) => e.type),
      ['DoorRelayStateChangeEvent', 'CredentialReceivedEvent'],
    );
    const bobsPositions = (await walk({ userFilter: [site.users.Bob], typeFilter: ['DoorPositionIndicatorStateChangeEvent'] })).events;
    assert.deepEqual(bobsPositions, []);
  });

  it('refuses a lastEvaluatedKey it did not make', async () => {
    for (const lastEvaluatedKey of ['garbage', Buffer.from('["a",1]').toString('base64url'), Buffer.from('[1]').toString('base64url')]) {
      const r = await page({ lastEvaluatedKey });
      assert.deepEqual({ error: r.json.error, errorMsg: r.json.errorMsg }, { error: true, errorMsg: 'lastEvaluatedKey: not a key this operation returned' });
    }
  });

  it("answers another organization's door exactly as a missing one", async () => {
    const foreign = await page({}, other.apiKey);
    const missing = await server.call(PATH, { accessControlledDoorUuid: 'AAAAAAAAAAAAAAAAAAAAAA' }, { key: other.apiKey });
    assert.deepEqual(foreign.json, missing.json);
    assert.equal(foreign.json.errorMsg, 'Door not found');
  });

  it('answers 400 to a malformed body', async () => {
    for (const body of [
      {},
      { accessControlledDoorUuid: door, maxPageSize: 0 },
      { accessControlledDoorUuid: door, maxPageSize: 1001 },
      { accessControlledDoorUuid: door, typeFilter: 'CredentialReceivedEvent' },
      { accessControlledDoorUuid: door, userFilter: ['x'] },
    ]) {
      assert.equal((await server.call(PATH, body, { key: org.apiKey })).status, 400, JSON.stringify(body));
    }
  });
});
