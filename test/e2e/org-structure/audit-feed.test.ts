import { assertFails, assertOk } from '../../helpers/api.js';
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { keyForUser } from '../../helpers/org-structure.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

forEachDialect('POST /api/report/getAuditFeed*', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  const locations: string[] = [];
  let grace: string;
  before(async () => {
    // Loopback is the proxy, so that a test can send a public client address (X-Forwarded-For).
    server = await startTestServer(dialect, { env: { GATEHOUSE_TRUST_PROXY: '127.0.0.1' } });
    org = await server.createOrg('Audited Inc');
    other = await server.createOrg('Other Org');
    for (const name of ['A', 'B', 'C'])
      locations.push((await server.call('/api/location/createLocation', { location: { name } }, { key: org.apiKey })).json.uuid);
    await server.call('/api/location/selectiveUpdateLocation', { locationUuid: locations[0], name: 'A2' }, { key: org.apiKey });
    grace = (await server.call('/api/user/createUser', { name: 'Grace' }, { key: org.apiKey })).json.userUuid;
    const graceKey = await keyForUser(server, org.orgUuid, grace);
    await server.call('/api/location/deleteLocation', { uuid: locations[2] }, { key: graceKey });
  });
  after(() => server.close());
  const call = (op: string, body: unknown, key = org.apiKey) => server.call(`/api/report/${op}`, body, { key });

  it('requires authentication', async () => {
    assert.equal((await server.call('/api/report/getAuditFeed', {}, { key: '' })).status, 401);
  });

  it('pages the trail newest first by cursor', async () => {
    const seen: any[] = [];
    let lastEvaluatedKey: string | undefined;
    for (let page = 0; page < 20; page++) {
      const r = await call('getAuditFeed', { includeActions: ['LOCATION_CREATE', 'LOCATION_UPDATE', 'LOCATION_DELETE'], maxPageSize: 2, lastEvaluatedKey });
      assertOk(r);
      assert.ok(r.json.auditEvents.length <= 2);
      seen.push(...r.json.auditEvents);
      lastEvaluatedKey = r.json.lastEvaluatedKey ?? undefined;
      if (!lastEvaluatedKey) break;
    }
    // The catalogue's names of the actions (it has none for a location's creation); displayText keeps the trail's.
    assert.deepEqual(
      seen.map((e) => e.action),
      ['DELETE_LOCATION', 'LOCATION_UPDATED', 'UNKNOWN', 'UNKNOWN', 'UNKNOWN'],
    );
    assert.deepEqual(
      seen.map((e) => e.displayText.split(' ').slice(0, 3).join(' ')),
      ['deleteLocation: DELETE LOCATION', 'selectiveUpdateLocation: UPDATE LOCATION', ...Array(3).fill('createlocation: CREATE LOCATION')],
    );
    assert.deepEqual(
      seen.map((e) => e.targetUuid),
      [locations[2], locations[0], locations[2], locations[1], locations[0]],
    );
    assert.equal(new Set(seen.map((e) => e.uuid)).size, 5);
    const first = seen[4];
    assert.equal(first.principalType, 'USER');
    assert.equal(first.principalUuid, org.userUuid);
    assert.equal(typeof first.displayText, 'string');
    assert.ok(Date.parse(first.timestamp) > 0);
  });

  it('filters by action, time, principal and target', async () => {
    const excluded = (await call('getAuditFeed', { excludeActions: ['LOCATION_CREATE'] })).json.auditEvents;
    assert.ok(!excluded.some((e: any) => e.displayText.includes('CREATE LOCATION')));
    assert.ok(excluded.some((e: any) => e.action === 'USER_CREATE'));
    // The catalogue's names filter too: UNKNOWN is every action it has no name for.
    const named = (await call('getAuditFeed', { includeActions: ['DELETE_LOCATION', 'LOCATION_UPDATED'] })).json.auditEvents;
    assert.deepEqual(
      named.map((e: any) => [e.action, e.targetUuid]),
      [
        ['DELETE_LOCATION', locations[2]],
        ['LOCATION_UPDATED', locations[0]],
      ],
    );
    const unknown = (await call('getAuditFeed', { includeActions: ['UNKNOWN'] })).json.auditEvents;
    assert.ok(unknown.length > 0 && unknown.every((e: any) => e.action === 'UNKNOWN'));
    const known = (await call('getAuditFeed', { excludeActions: ['UNKNOWN'] })).json.auditEvents;
    assert.ok(known.length > 0 && !known.some((e: any) => e.action === 'UNKNOWN'));
    const future = await call('getAuditFeed', { timestampMsAfter: Date.now() + 60_000 });
    assert.deepEqual(future.json.auditEvents, []);
    const byGrace = (await call('getAuditFeedForPrincipal', { principalUuid: grace })).json.auditEvents;
    assert.deepEqual(
      byGrace.map((e: any) => [e.action, e.targetUuid, e.principalName]),
      [['DELETE_LOCATION', locations[2], 'Grace']],
    );
    const ofA = (await call('getAuditFeedForTarget', { targetUuid: locations[0] })).json.auditEvents;
    assert.deepEqual(
      ofA.map((e: any) => e.action),
      ['LOCATION_UPDATED', 'UNKNOWN'],
    );
  });

  it('answers every event with the same keys in the same order, the source fields never null', async () => {
    // The platform's audit example makes CSV rows of the first event's keys, drops these and joins the source fields.
    const source = { 'x-forwarded-for': '81.2.69.142', 'user-agent': 'audit-example/1.0' };
    assertOk(await server.call('/api/location/createLocation', { location: { name: 'From afar' } }, { key: org.apiKey, headers: source }));
    const events = (await call('getAuditFeed', {})).json.auditEvents;
    const keys = Object.keys(events[0]);
    for (const e of events) assert.deepEqual(Object.keys(e), keys);
    const read = ['sourceCity', 'sourceState', 'sourceCountry', 'timestamp', 'principalName', 'principalUuid'];
    const dropped = ['displayText', 'failure', 'orgUuid', 'targetUuid', 'userAgent', 'targetName', 'principalType', 'clientType'];
    for (const key of [...read, ...dropped, 'sourceIp']) assert.ok(keys.includes(key), key);
    for (const e of events)
      for (const key of ['sourceIp', 'sourceCity', 'sourceState', 'sourceCountry', 'userAgent', 'principalName']) assert.equal(typeof e[key], 'string');
    // A public address is placed from the GeoLite2 data shipped in geoip-lite; loopback answers empty strings.
    const [afar, ...rest] = events;
    assert.deepEqual(
      [afar.displayText.split(' ')[0], afar.sourceIp, afar.sourceCountry, afar.sourceState, afar.userAgent],
      ['createlocation:', '81.2.69.142', 'GB', 'ENG', 'audit-example/1.0'],
    );
    assert.ok(afar.sourceCity.length > 0);
    const local = rest.find((e: any) => e.action === 'DELETE_LOCATION');
    assert.deepEqual([local.sourceIp, local.sourceCity, local.sourceState, local.sourceCountry], ['127.0.0.1', '', '', '']);
  });

  it('refuses a bad action name, a foreign cursor, and a malformed body', async () => {
    assertFails(await call('getAuditFeed', { includeActions: ['CREATE'] }), /nor <ENTITY>_<ACTION>/);
    assertFails(await call('getAuditFeed', { lastEvaluatedKey: 'garbage' }), /lastEvaluatedKey/);
    assert.equal((await call('getAuditFeed', { maxPageSize: 0 })).status, 400);
  });

  it("never shows another organization's trail", async () => {
    const theirs = (await call('getAuditFeed', {}, other.apiKey)).json.auditEvents;
    assert.ok(theirs.every((e: any) => e.orgUuid === other.orgUuid));
    assert.ok(!theirs.some((e: any) => locations.includes(e.targetUuid)));
    assert.deepEqual((await call('getAuditFeedForTarget', { targetUuid: locations[0] }, other.apiKey)).json.auditEvents, []);
  });
});
