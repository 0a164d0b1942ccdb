import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { systemActor } from '../../../src/deps.js';
import { expirePolicyAlerts } from '../../../src/domains/events/alerts/alert-feed.service.js';
import { ALERT_RETENTION_MS, createPolicyAlert } from '../../../src/domains/events/alerts/service.js';
import { write } from '../../../src/bus/write.js';
import { apiAs } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { changesDuring, raiseAlerts, seededRandom } from './fixtures.js';

const T0 = Date.UTC(2024, 6, 1, 12);
const DAY = 86_400_000;

/** Two locations with a camera each, and devices in every state of health. */
const FEED_SITE = {
  locations: [{ name: 'HQ', timeZone: 'America/New_York' }, { name: 'Annex' }],
  cameras: [
    { name: 'Lobby', location: 'HQ' },
    { name: 'Yard', location: 'Annex' },
    { name: 'Down', location: 'HQ', connectionStatus: 'RED' },
    { name: 'Sick', location: 'HQ', healthStatus: 'RED' },
    { name: 'Slow', location: 'Annex', connectionStatus: 'ORANGE' },
  ],
  sensors: [{ name: 'Air', kind: 'environmental', location: 'HQ', connectionStatus: 'YELLOW' }],
};

interface FeedSite {
  orgUuid: string;
  apiKey: string;
  hq: string;
  annex: string;
  cams: Record<string, string>;
  air: string;
}

interface Alert {
  uuid: string;
  timestampMs: number;
  deviceUuid: string;
  dismissedAtMs?: number | null;
  expiresAtMs?: number | null;
}
interface Group {
  startTime: number;
  endTime: number;
  policyAlerts: Alert[];
}

forEachDialect('policy alert feed', (dialect) => {
  let server: TestServer;
  let site: FeedSite;
  let other: FeedSite;

  const seed = async (name: string): Promise<FeedSite> => {
    const org = await server.createOrg(name);
    const r = await control(server, `/orgs/${org.orgUuid}/seed`, FEED_SITE);
    assert.equal(r.status, 200, r.text);
    return { orgUuid: org.orgUuid, apiKey: org.apiKey, hq: r.json.locations.HQ, annex: r.json.locations.Annex, cams: r.json.cameras, air: r.json.sensors.Air };
  };
  /** The feed as one site's key sees it. */
  const api = (s: FeedSite) => apiAs(() => server, s.apiKey, '/api/event');

  before(async () => {
    server = await startTestServer(dialect);
    site = await seed('Feed Org');
    other = await seed('Other Feed Org');
  });
  after(() => server.close());

  it('every operation of the feed requires authentication', async () => {
    for (const path of [
      'getPolicyAlertGroupsV2',
      'getPolicyAlertGroupsForLocation',
      'getPolicyAlerts',
      'getPolicyAlert',
      'getPolicyAlertV2',
      'getPolicyAlertCount',
      'dismissPolicyAlertV2',
      'dismissPolicyAlertsV2',
      'dismissAllPolicyAlertsV2',
      'dismissAllPolicyAlertsForDevice',
      'getExpiringPolicyAlerts',
      'getUnhealthyDeviceAlerts',
    ]) {
      const r = await server.call(`/api/event/${path}`, {}, { key: '' });
      assert.equal(r.status, 401, path);
    }
  });

  it('refuses malformed bodies with 400', async () => {
    for (const [path, body] of [
      ['getPolicyAlertGroupsV2', { maxResults: 0 }],
      ['getPolicyAlertGroupsForLocation', {}],
      ['getPolicyAlertGroupsForLocation', { locationUuid: 'nope' }],
      ['getPolicyAlerts', { deviceFilter: 'x' }],
      ['getPolicyAlert', {}],
      ['getPolicyAlertCount', { maxResultsSize: -1 }],
      ['dismissPolicyAlertV2', { alertUuid: 7 }],
      ['dismissPolicyAlertsV2', { alertUuids: [] }],
      ['dismissAllPolicyAlertsForDevice', { deviceUuids: ['bad'] }],
      ['getExpiringPolicyAlerts', { withinMs: 0 }],
    ] as const) {
      const r = await server.call(`/api/event/${path}`, body, { key: site.apiKey });
      assert.equal(r.status, 400, `${path} ${JSON.stringify(body)}: ${r.text}`);
      assert.equal(r.json.error, true);
    }
  });

  describe('getPolicyAlertGroupsV2 and getPolicyAlertGroupsForLocation', () => {
    it("group the organization's (or the location's) alerts across devices, and page with no gaps or repeats", async () => {
      const s = await seed('Groups Org');
      const random = seededRandom(2024_07_01);
      const lobbyTimes: number[] = [];
      const yardTimes: number[] = [];
      let t = T0;
      for (let i = 0; i < 600; i++) {
        (random() < 0.5 ? lobbyTimes : yardTimes).push(t);
        t -= [0, 1, 1000, 90_000, 120_001, 600_000][Math.floor(random() * 6)];
      }
      const lobby = await raiseAlerts(server, s.orgUuid, s.cams.Lobby, lobbyTimes);
      const yard = await raiseAlerts(server, s.orgUuid, s.cams.Yard, yardTimes);
      await raiseAlerts(server, other.orgUuid, other.cams.Lobby, [T0, T0 - 1000]);

      const pages = async (path: string, extra: Record<string, unknown>, maxResults: number) => {
        const all: Group[] = [];
        let cursor = {};
        for (let page = 0; page < 1000; page++) {
          const groups = (await api(s).ok(path, { ...extra, ...cursor, maxResults })).policyAlertGroups as Group[];
          if (groups.length === 0) return all;
          all.push(...groups);
          const last = groups.at(-1)!.policyAlerts.at(-1)!;
          cursor = { lastTimestampMs: last.timestampMs, lastUuid: last.uuid };
        }
        throw new Error('too many pages');
      };
      const whole = await pages('getPolicyAlertGroupsV2', {}, 5000);
      const uuids = whole.flatMap((g) => g.policyAlerts.map((a) => a.uuid));
      assert.deepEqual([...uuids].sort(), [...lobby, ...yard].map((a) => a.uuid).sort(), "exactly the organization's alerts");
      for (const g of whole) {
        assert.ok(g.policyAlerts.length <= 50);
        assert.equal(g.startTime, g.policyAlerts[0].timestampMs);
        assert.equal(g.endTime, g.policyAlerts.at(-1)!.timestampMs);
      }
      for (const maxResults of [9, 64]) {
        const paged = await pages('getPolicyAlertGroupsV2', {}, maxResults);
        assert.deepEqual(
          paged.map((g) => g.policyAlerts.map((a) => a.uuid)),
          whole.map((g) => g.policyAlerts.map((a) => a.uuid)),
          `maxResults ${maxResults}`,
        );
      }
      const annex = await pages('getPolicyAlertGroupsForLocation', { locationUuid: s.annex }, 17);
      const annexUuids = annex.flatMap((g) => g.policyAlerts.map((a) => a.uuid));
      assert.equal(new Set(annexUuids).size, annexUuids.length, 'no repeats');
      assert.deepEqual([...annexUuids].sort(), yard.map((a) => a.uuid).sort());
    });

    it("answers another organization's location as a missing one", async () => {
      assert.equal(await api(site).refused('getPolicyAlertGroupsForLocation', { locationUuid: other.hq }), 'Location not found');
    });

    it('marks getPolicyAlertGroupsV2 deprecated', async () => {
      const r = await server.call('/api/event/getPolicyAlertGroupsV2', {}, { key: site.apiKey });
      assert.equal(r.headers.get('deprecation'), 'true');
    });
  });

  describe('getPolicyAlerts (V1)', () => {
    it("lists newest first with filters, pages by the last alert, and never shows another organization's", async () => {
      const s = await seed('V1 Org');
      const times = Array.from({ length: 25 }, (_, i) => T0 - Math.floor(i / 3) * 1000);
      const created = await raiseAlerts(server, s.orgUuid, s.cams.Lobby, times);
      await raiseAlerts(server, s.orgUuid, s.cams.Yard, [T0 + 5000]);
      await raiseAlerts(server, other.orgUuid, other.cams.Lobby, [T0]);
      const seen: string[] = [];
      let cursor = {};
      for (let page = 0; page < 20; page++) {
        const list = (await api(s).ok('getPolicyAlerts', { deviceFilter: [s.cams.Lobby], maxResults: 4, ...cursor })).policyAlerts as Alert[];
        if (list.length === 0) break;
        seen.push(...list.map((a) => a.uuid));
        cursor = { lastTimestampMs: list.at(-1)!.timestampMs, lastUuid: list.at(-1)!.uuid };
      }
      assert.deepEqual([...seen].sort(), created.map((a) => a.uuid).sort());
      assert.equal(new Set(seen).size, seen.length);
      const annex = (await api(s).ok('getPolicyAlerts', { locationFilter: [s.annex] })).policyAlerts as Alert[];
      assert.deepEqual(
        annex.map((a) => a.deviceUuid),
        [s.cams.Yard],
      );
      const range = (await api(s).ok('getPolicyAlerts', { afterTimestampMs: T0, beforeTimestampMs: T0 + 1 })).policyAlerts as Alert[];
      assert.equal(range.length, 3);
      assert.deepEqual((await api(s).ok('getPolicyAlerts', { accessControlledDoorFilter: [s.hq] })).policyAlerts, [], 'no door alerts are raised');
      assert.deepEqual(
        (await api(s).ok('getPolicyAlerts', { deviceFilter: [other.cams.Lobby] })).policyAlerts,
        [],
        "another organization's device matches nothing",
      );
    });
  });

  describe('getPolicyAlert and getPolicyAlertV2', () => {
    it("answer one alert of the organization, and another organization's as a missing one", async () => {
      const [mine] = await raiseAlerts(server, site.orgUuid, site.cams.Lobby, [T0]);
      const [theirs] = await raiseAlerts(server, other.orgUuid, other.cams.Lobby, [T0]);
      for (const path of ['getPolicyAlert', 'getPolicyAlertV2']) {
        const json = await api(site).ok(path, { policyAlertUuid: mine.uuid });
        assert.equal(json.policyAlert.uuid, mine.uuid);
        assert.equal(json.policyAlert.deviceUuid, site.cams.Lobby);
        assert.equal('expiresAtMs' in json.policyAlert, false, 'the catalogue has no expiresAtMs: getExpiringPolicyAlerts answers it');
        assert.equal(await api(site).refused(path, { policyAlertUuid: theirs.uuid }), 'Policy alert not found');
      }
    });
  });

  describe('dismissal', () => {
    it('dismissPolicyAlertV2 takes the alert out of every feed and the count, keeps it readable, and announces it', async () => {
      const s = await seed('Dismiss Org');
      const [a, b] = await raiseAlerts(server, s.orgUuid, s.cams.Lobby, [T0, T0 - 1000]);
      assert.equal((await api(s).ok('getPolicyAlertCount')).count, 2);
      const changes = await changesDuring(server, async () => {
        await api(s).ok('dismissPolicyAlertV2', { alertUuid: a.uuid });
      });
      const change = changes.find((c) => c.entity === 'POLICY_ALERT' && c.entityUuid === a.uuid);
      assert.ok(change, 'a POLICY_ALERT change');
      assert.equal(change.type, 'UPDATE');
      assert.equal(change.orgUuid, s.orgUuid);
      assert.equal(typeof (change.update as Alert).dismissedAtMs, 'number');

      assert.equal((await api(s).ok('getPolicyAlertCount')).count, 1);
      assert.deepEqual(
        ((await api(s).ok('getPolicyAlerts')).policyAlerts as Alert[]).map((x) => x.uuid),
        [b.uuid],
      );
      assert.deepEqual(
        ((await api(s).ok('getPolicyAlertGroupsV2')).policyAlertGroups as Group[]).flatMap((g) => g.policyAlerts.map((x) => x.uuid)),
        [b.uuid],
      );
      const groups = await server.call('/api/event/getPolicyAlertGroupsForDevice', { deviceUuid: s.cams.Lobby }, { key: s.apiKey });
      assert.deepEqual(
        (groups.json.policyAlertGroups as Group[]).flatMap((g) => g.policyAlerts.map((x) => x.uuid)),
        [b.uuid],
      );
      const read = await api(s).ok('getPolicyAlert', { policyAlertUuid: a.uuid });
      assert.equal(read.policyAlert.uuid, a.uuid, 'still readable by uuid');

      const again = await changesDuring(server, async () => {
        await api(s).ok('dismissPolicyAlertV2', { alertUuid: a.uuid });
      });
      assert.equal(again.filter((c) => c.entity === 'POLICY_ALERT').length, 0, 'dismissing twice announces nothing');
    });

    it("dismissPolicyAlertsV2 is all or none: another organization's alert refuses the call and changes nothing", async () => {
      const s = await seed('Dismiss Many Org');
      const mine = await raiseAlerts(server, s.orgUuid, s.cams.Lobby, [T0, T0 - 1, T0 - 2]);
      const [theirs] = await raiseAlerts(server, other.orgUuid, other.cams.Lobby, [T0]);
      assert.equal(await api(s).refused('dismissPolicyAlertsV2', { alertUuids: [mine[0].uuid, theirs.uuid] }), `Policy alert ${theirs.uuid} not found`);
      assert.equal((await api(s).ok('getPolicyAlertCount')).count, 3);
      assert.ok(
        ((await api(other).ok('getPolicyAlerts')).policyAlerts as Alert[]).some((x) => x.uuid === theirs.uuid),
        'theirs is not dismissed',
      );
      await api(s).ok('dismissPolicyAlertsV2', { alertUuids: [mine[0].uuid, mine[1].uuid] });
      assert.equal((await api(s).ok('getPolicyAlertCount')).count, 1);
    });

    it("dismissAllPolicyAlertsForDevice dismisses the devices' alerts only, and refuses another organization's device", async () => {
      const s = await seed('Dismiss Device Org');
      await raiseAlerts(server, s.orgUuid, s.cams.Lobby, [T0, T0 - 1]);
      const [yard] = await raiseAlerts(server, s.orgUuid, s.cams.Yard, [T0]);
      assert.equal(
        await api(s).refused('dismissAllPolicyAlertsForDevice', { deviceUuids: [s.cams.Lobby, other.cams.Lobby] }),
        `Device ${other.cams.Lobby} not found`,
      );
      assert.equal((await api(s).ok('getPolicyAlertCount')).count, 3);
      await api(s).ok('dismissAllPolicyAlertsForDevice', { deviceUuids: [s.cams.Lobby] });
      assert.deepEqual(
        ((await api(s).ok('getPolicyAlerts')).policyAlerts as Alert[]).map((x) => x.uuid),
        [yard.uuid],
      );
    });

    it("dismissAllPolicyAlertsV2 empties the organization's feed and no other", async () => {
      const s = await seed('Dismiss All Org');
      await raiseAlerts(server, s.orgUuid, s.cams.Lobby, [T0, T0 - 1]);
      await raiseAlerts(server, s.orgUuid, s.cams.Yard, [T0]);
      const before = (await api(other).ok('getPolicyAlertCount')).count;
      assert.ok(before > 0);
      await api(s).ok('dismissAllPolicyAlertsV2');
      assert.equal((await api(s).ok('getPolicyAlertCount')).count, 0);
      assert.equal((await api(other).ok('getPolicyAlertCount')).count, before);
    });

    it('getPolicyAlertCount counts at most maxResultsSize', async () => {
      const s = await seed('Count Org');
      await raiseAlerts(
        server,
        s.orgUuid,
        s.cams.Lobby,
        Array.from({ length: 12 }, (_, i) => T0 - i),
      );
      assert.equal((await api(s).ok('getPolicyAlertCount', { maxResultsSize: 5 })).count, 5);
      assert.equal((await api(s).ok('getPolicyAlertCount', {})).count, 12);
    });
  });

  describe('expiry', () => {
    /** Alerts recorded `ageMs` ago (the server's clock moved back for the write). */
    const recordedAgo = (s: FeedSite, ageMs: number, timestamps: number[]) =>
      write({ ...server.gatehouse.deps, clock: { now: () => Date.now() - ageMs } }, systemActor(s.orgUuid, 'test.alerts'), async (w) => {
        const out = [];
        for (const timestampMs of timestamps) out.push(await createPolicyAlert(w, { deviceUuid: s.cams.Lobby, policyAlertTriggers: ['MOTION'], timestampMs }));
        return out;
      });

    it('getExpiringPolicyAlerts answers the alerts expiring within the window, soonest first, a page at a time; saved alerts are kept', async () => {
      const s = await seed('Expiring Org');
      const soon = await recordedAgo(
        s,
        ALERT_RETENTION_MS - DAY / 2,
        Array.from({ length: 7 }, (_, i) => T0 + i),
      );
      const later = await recordedAgo(s, ALERT_RETENTION_MS - 5 * DAY, [T0]);
      const fresh = await raiseAlerts(server, s.orgUuid, s.cams.Lobby, [T0]);
      await recordedAgo(other, ALERT_RETENTION_MS - DAY / 2, [T0]);
      for (const a of [...soon, ...later, ...fresh]) assert.equal(a.expiresAtMs! - a.timestampMs > 0, true);

      const seen: Alert[] = [];
      let cursor = {};
      for (let page = 0; page < 10; page++) {
        const list = (await api(s).ok('getExpiringPolicyAlerts', { maxResults: 3, ...cursor })).policyAlerts as Alert[];
        if (list.length === 0) break;
        seen.push(...list);
        cursor = { lastExpiresAtMs: list.at(-1)!.expiresAtMs, lastUuid: list.at(-1)!.uuid };
      }
      assert.deepEqual(seen.map((a) => a.uuid).sort(), soon.map((a) => a.uuid).sort());
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i - 1].expiresAtMs! <= seen[i].expiresAtMs!, 'soonest first');
      const week = (await api(s).ok('getExpiringPolicyAlerts', { withinMs: 7 * DAY, maxResults: 100 })).policyAlerts as Alert[];
      assert.deepEqual(week.map((a) => a.uuid).sort(), [...soon, ...later].map((a) => a.uuid).sort());

      await api(s).ok('savePolicyAlertV2', { alertUuid: soon[0].uuid });
      const after = (await api(s).ok('getExpiringPolicyAlerts', { maxResults: 100 })).policyAlerts as Alert[];
      assert.equal(after.length, soon.length - 1);
      assert.ok(!after.some((a) => a.uuid === soon[0].uuid));
      assert.equal((await api(s).ok('getPolicyAlert', { policyAlertUuid: soon[0].uuid })).policyAlert.saved, true);

      assert.match(await api(s).refused('getExpiringPolicyAlerts', { lastUuid: soon[1].uuid }), /lastExpiresAtMs and lastUuid form the pagination cursor/);
    });

    it('the sweep deletes expired unsaved alerts, announcing each deletion, and keeps saved ones', async () => {
      const s = await seed('Sweep Org');
      const old = await recordedAgo(s, ALERT_RETENTION_MS + DAY, [T0, T0 + 1, T0 + 2]);
      const [keep] = await raiseAlerts(server, s.orgUuid, s.cams.Lobby, [T0]);
      await api(s).ok('savePolicyAlertV2', { alertUuid: old[2].uuid });
      let deleted = 0;
      const changes = await changesDuring(server, async () => {
        deleted = await expirePolicyAlerts(server.gatehouse.deps, Date.now());
      });
      assert.ok(deleted >= 2);
      const deletions = changes.filter((c) => c.entity === 'POLICY_ALERT' && c.type === 'DELETE' && c.orgUuid === s.orgUuid);
      assert.deepEqual(deletions.map((c) => c.entityUuid).sort(), [old[0].uuid, old[1].uuid].sort());
      for (const a of old.slice(0, 2)) assert.equal(await api(s).refused('getPolicyAlert', { policyAlertUuid: a.uuid }), 'Policy alert not found');
      assert.equal((await api(s).ok('getPolicyAlert', { policyAlertUuid: old[2].uuid })).policyAlert.saved, true);
      assert.equal((await api(s).ok('getPolicyAlert', { policyAlertUuid: keep.uuid })).policyAlert.uuid, keep.uuid);
      assert.equal(await expirePolicyAlerts(server.gatehouse.deps, Date.now()), 0, 'nothing left to expire');
    });
  });

  describe('getUnhealthyDeviceAlerts', () => {
    it("answers one alert per unhealthy device from its status, for the organization's devices only", async () => {
      const json = await api(site).ok('getUnhealthyDeviceAlerts');
      const bySymptom = (json.unhealthyDeviceAlerts as Array<{ uuid: string; deviceUuid: string; orgUuid: string; symptom: string; timestamp: number }>)
        .map((a) => ({ deviceUuid: a.deviceUuid, symptom: a.symptom, uuid: a.uuid, orgUuid: a.orgUuid, hasTime: typeof a.timestamp === 'number' }))
        .sort((x, y) => x.deviceUuid.localeCompare(y.deviceUuid));
      const expected = [
        { deviceUuid: site.cams.Down, symptom: 'DOWN' },
        { deviceUuid: site.cams.Sick, symptom: 'DOWN' },
        { deviceUuid: site.cams.Slow, symptom: 'SLOW_INTERNET' },
        { deviceUuid: site.air, symptom: 'SLOW_INTERNET' },
      ]
        .map((e) => ({ ...e, uuid: `${e.deviceUuid}.${e.symptom}`, orgUuid: site.orgUuid, hasTime: true }))
        .sort((x, y) => x.deviceUuid.localeCompare(y.deviceUuid));
      assert.deepEqual(bySymptom, expected);
    });
  });
});
