import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { raiseAlerts, seedEventsSite, seededRandom, type EventsSite } from './fixtures.js';

const PATH = '/api/event/getPolicyAlertGroupsForDevice';
const T0 = Date.UTC(2024, 4, 1, 12);

interface Group {
  startTime: number;
  endTime: number;
  policyAlerts: Array<{ uuid: string; timestampMs: number }>;
}

/** Checks the grouping rules on groups in page order, independently of how the server cut them. */
function assertGroupingRules(groups: Group[]): void {
  groups.forEach((g, i) => {
    const times = g.policyAlerts.map((a) => a.timestampMs);
    assert.ok(times.length >= 1 && times.length <= 50, `group ${i} has ${times.length} alerts`);
    assert.equal(g.startTime, times[0]);
    assert.equal(g.endTime, times.at(-1));
    for (let k = 1; k < times.length; k++) {
      assert.ok(times[k] <= times[k - 1], `group ${i} is newest first`);
      assert.ok(times[k - 1] - times[k] <= 120_000, `group ${i} has a gap over 2 minutes`);
    }
    const next = groups[i + 1];
    if (next) {
      assert.ok(next.startTime <= g.endTime, 'groups run newest first');
      assert.ok(g.endTime - next.startTime > 120_000 || g.policyAlerts.length === 50, `group ${i + 1} should have continued group ${i}`);
    }
  });
}

forEachDialect(`POST ${PATH}`, (dialect) => {
  let server: TestServer;
  let site: EventsSite;
  before(async () => {
    server = await startTestServer(dialect);
    site = await seedEventsSite(server);
  });
  after(() => server.close());

  const groupsOf = async (deviceUuid: string, extra: Record<string, unknown> = {}) => {
    const r = await server.call(PATH, { deviceUuid, ...extra }, { key: site.org.apiKey });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.error, false, r.text);
    return r.json.policyAlertGroups as Group[];
  };

  it('requires authentication', async () => {
    const r = await server.call(PATH, { deviceUuid: site.lobby }, { key: '' });
    assert.equal(r.status, 401);
    assert.equal(r.json.errorMsg, 'Unauthenticated');
  });

  it('answers an empty list for a device without alerts', async () => {
    assert.deepEqual(await groupsOf(site.dock), []);
  });

  describe('the 2-minute window', () => {
    it('joins an alert exactly 120,000 ms older than the previous one, and starts a new group at 120,001 ms', async () => {
      const fresh = await seedEventsSite(server, 'Window Org');
      const [a, b, c] = await raiseAlerts(server, fresh.org.orgUuid, fresh.lobby, [T0, T0 - 120_000, T0 - 240_001]);
      const r = await server.call(PATH, { deviceUuid: fresh.lobby }, { key: fresh.org.apiKey });
      const groups = r.json.policyAlertGroups as Group[];
      assert.deepEqual(
        groups.map((g) => ({ startTime: g.startTime, endTime: g.endTime, uuids: g.policyAlerts.map((x) => x.uuid) })),
        [
          { startTime: T0, endTime: T0 - 120_000, uuids: [a.uuid, b.uuid] },
          { startTime: T0 - 240_001, endTime: T0 - 240_001, uuids: [c.uuid] },
        ],
      );
    });

    it('measures the window from the previous alert, not from the start of the group', async () => {
      const fresh = await seedEventsSite(server, 'Chain Org');
      await raiseAlerts(
        server,
        fresh.org.orgUuid,
        fresh.lobby,
        [0, 1, 2, 3, 4].map((k) => T0 - k * 100_000),
      );
      const r = await server.call(PATH, { deviceUuid: fresh.lobby }, { key: fresh.org.apiKey });
      assert.equal(r.json.policyAlertGroups.length, 1);
      assert.equal(r.json.policyAlertGroups[0].policyAlerts.length, 5);
    });
  });

  it('caps a group at 50 alerts, cutting from the newest', async () => {
    const fresh = await seedEventsSite(server, 'Cap Org');
    await raiseAlerts(
      server,
      fresh.org.orgUuid,
      fresh.lobby,
      Array.from({ length: 120 }, (_, k) => T0 - k * 1000),
    );
    const r = await server.call(PATH, { deviceUuid: fresh.lobby, maxResults: 500 }, { key: fresh.org.apiKey });
    const groups = r.json.policyAlertGroups as Group[];
    assert.deepEqual(
      groups.map((g) => g.policyAlerts.length),
      [50, 50, 20],
    );
    assert.deepEqual(
      groups.map((g) => g.startTime),
      [T0, T0 - 50_000, T0 - 100_000],
    );
    assertGroupingRules(groups);
  });

  it('carries the whole policy alert record in each group', async () => {
    const fresh = await seedEventsSite(server, 'Record Org');
    const [alert] = await raiseAlerts(server, fresh.org.orgUuid, fresh.lobby, [T0]);
    const r = await server.call(PATH, { deviceUuid: fresh.lobby }, { key: fresh.org.apiKey });
    const got = r.json.policyAlertGroups[0].policyAlerts[0];
    assert.equal(got.uuid, alert.uuid);
    assert.equal(got.type, 'POLICY_ALERT_V2');
    assert.equal(got.deviceType, 'CAMERA');
    assert.equal(got.deviceUuid, fresh.lobby);
    assert.equal(got.orgUuid, fresh.org.orgUuid);
    assert.deepEqual(got.policyAlertTriggers, ['MOTION']);
    assert.equal(got.timestampMs, T0);
  });

  describe('the cursor', () => {
    it('refuses lastUuid without lastTimestampMs, with a clear errorMsg', async () => {
      for (const cursor of [{ lastUuid: site.lobby }, { lastTimestampMs: null, lastUuid: site.lobby }]) {
        const r = await server.call(PATH, { deviceUuid: site.lobby, ...cursor }, { key: site.org.apiKey });
        assert.equal(r.status, 200);
        assert.equal(r.json.error, true);
        assert.match(r.json.errorMsg, /lastTimestampMs and lastUuid form the pagination cursor: give both/);
      }
    });

    it('pages through over a thousand alerts with shared timestamps: every alert exactly once, and the same groups as one big page', async () => {
      const fresh = await seedEventsSite(server, 'Paging Org');
      const random = seededRandom(20240501);
      const timestamps: number[] = [];
      let t = T0;
      while (timestamps.length < 1200) {
        const run = 1 + Math.floor(random() * 8); // up to 8 alerts at one timestamp
        for (let k = 0; k < run; k++) timestamps.push(t);
        const gap = [0, 1, 1000, 60_000, 119_999, 120_000, 120_001, 600_000][Math.floor(random() * 8)];
        t -= gap === 0 ? 1 : gap;
      }
      const created = await raiseAlerts(server, fresh.org.orgUuid, fresh.lobby, timestamps);
      const call = async (extra: Record<string, unknown>) => {
        const r = await server.call(PATH, { deviceUuid: fresh.lobby, ...extra }, { key: fresh.org.apiKey });
        assert.equal(r.json.error, false, r.text);
        return r.json.policyAlertGroups as Group[];
      };
      const whole = await call({ maxResults: 5000 });
      assertGroupingRules(whole);
      assert.deepEqual(whole.flatMap((g) => g.policyAlerts.map((a) => a.uuid)).sort(), created.map((a) => a.uuid).sort());

      for (const maxResults of [7, 50, 173]) {
        const paged: Group[] = [];
        let cursor: Record<string, unknown> = {};
        for (let page = 0; page < 4000; page++) {
          const groups = await call({ maxResults, ...cursor });
          if (groups.length === 0) break;
          const count = groups.reduce((n, g) => n + g.policyAlerts.length, 0);
          assert.ok(count <= Math.max(maxResults, groups[0].policyAlerts.length), `page of ${count} alerts for maxResults ${maxResults}`);
          paged.push(...groups);
          const last = groups.at(-1)!.policyAlerts.at(-1)!;
          cursor = { lastTimestampMs: last.timestampMs, lastUuid: last.uuid };
        }
        assert.deepEqual(
          paged.map((g) => g.policyAlerts.map((a) => a.uuid)),
          whole.map((g) => g.policyAlerts.map((a) => a.uuid)),
          `maxResults ${maxResults}: paged groups differ from one big page`,
        );
      }
    });
  });

  it('defaults maxResults, and refuses one above the maximum (400) as the OpenAPI document states', async () => {
    const doc = await (await fetch(server.rest + '/openapi.json')).json();
    const schema = doc.paths[PATH].post.requestBody.content['application/json'].schema;
    const maxResults = schema.properties.maxResults;
    assert.equal(maxResults.maximum, 5000);
    assert.match(maxResults.description, /default 100, maximum 5000/);
    const r = await server.call(PATH, { deviceUuid: site.lobby, maxResults: 5001 }, { key: site.org.apiKey });
    assert.equal(r.status, 400);
  });

  it('refuses a malformed body with 400', async () => {
    for (const body of [
      {},
      { deviceUuid: 42 },
      { deviceUuid: 'not-a-ruuid' },
      { deviceUuid: site.lobby, maxResults: 0 },
      { deviceUuid: site.lobby, lastTimestampMs: 'soon' },
    ]) {
      const r = await server.call(PATH, body, { key: site.org.apiKey });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.json.error, true);
    }
  });

  it("answers another organization's device as a missing one", async () => {
    const other = await seedEventsSite(server, 'Other Org');
    await raiseAlerts(server, other.org.orgUuid, other.lobby, [T0]);
    const r = await server.call(PATH, { deviceUuid: other.lobby }, { key: site.org.apiKey });
    assert.equal(r.status, 200);
    assert.deepEqual({ error: r.json.error, errorMsg: r.json.errorMsg }, { error: true, errorMsg: 'Device not found' });
  });
});
