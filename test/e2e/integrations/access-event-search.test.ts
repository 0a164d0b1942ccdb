import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { signBadgePost, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../../src/domains/integrations/badge-signature.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, nobodysUuid } from '../config/config-site.js';
import { seedEventsSite } from '../events/fixtures.js';
import { seedIntegrationSite, type IntegrationSite } from './site.js';
import { assertFails, assertOk } from '../../helpers/api.js';

const SEARCH = '/api/eventSearchV2/searchIntegrationAccessEvents';
const SECRET = 'badge-search-secret-7';
const T0 = 1_710_000_000_000;

/** What a test event is made of, and what the search should read of it. */
interface Posted {
  eventType: string;
  doorId: 'door-1' | 'door-2' | 'door-3';
  timestampMs: number;
  holder: string;
  badgeStatus?: string;
  badgeType?: string;
  areaEntering?: string;
  entryMade?: boolean;
}

/** A varied, deterministic set: every filter keeps some events and drops others; some share a timestamp. */
function events(): Posted[] {
  const holders = ['Grace Hopper', 'Alan Turing', 'Ada Lovelace'];
  const statuses = ['Active', 'Active', 'Lost', undefined];
  const types = ['Employee', 'Contractor', undefined];
  const areas = ['Back Office', 'Lobby', 'Server Room', undefined];
  const doors = ['door-1', 'door-2', 'door-3'] as const;
  return Array.from({ length: 24 }, (_, i) => ({
    eventType: i % 5 === 0 ? 'ACCESS_DENIED' : 'ACCESS_GRANTED',
    doorId: doors[i % 3],
    timestampMs: T0 + Math.floor(i / 2) * 60_000,
    holder: holders[i % 3],
    badgeStatus: statuses[i % 4],
    badgeType: types[i % 3],
    areaEntering: areas[(i + 1) % 4],
    entryMade: i % 7 === 3 ? false : undefined,
  }));
}

forEachDialect('eventSearchV2/searchIntegrationAccessEvents: badge-system events, every filter, paged', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let site: IntegrationSite;
  let other: TestOrg;
  let otherSite: IntegrationSite;
  /** Every search row the posted events should make: an event per camera of its door (or one without). */
  const expected: Array<{ badgeEventUuid: string; deviceUuid: string | null; locationUuid: string; posted: Posted }> = [];

  async function enableBadge(o: TestOrg, s: IntegrationSite): Promise<string> {
    const doorInfoMap = {
      'door-1': { doorName: 'Front Door', locationUuid: s.locations.HQ, assignedCameraList: [s.cameras.Lobby, s.cameras.Hall] },
      'door-2': { doorName: 'Back Door', locationUuid: s.locations.Annex, assignedCameraList: [s.cameras.Hall] },
      'door-3': { doorName: 'Side Door', locationUuid: s.locations.HQ, assignedCameraList: [] },
    };
    const r = await server.call(
      '/api/integrations/accessControl/updateBadgeIntegration',
      { geneaSettings: { enabled: true, apiToken: 'badge-api-token', webhookSignatureSecret: SECRET, doorInfoMap } },
      { key: o.apiKey },
    );
    assertOk(r);
    return (await server.call('/api/integrations/accessControl/getGeneaIntegration', {}, { key: o.apiKey })).json.orgIntegrationV2.webhookUuid;
  }
  async function post(webhookUuid: string, e: Posted): Promise<string> {
    const body = JSON.stringify({
      eventId: `evt-${Math.random()}`,
      eventType: e.eventType,
      doorId: e.doorId,
      timestampMs: e.timestampMs,
      badgeHolder: { name: e.holder },
      badgeStatus: e.badgeStatus,
      badgeType: e.badgeType,
      areaEntering: e.areaEntering,
      areaExiting: e.areaEntering ? 'Street' : undefined,
      entryMade: e.entryMade,
    });
    const at = Math.floor(Date.now() / 1000);
    const response = await fetch(`${server.rest}/webhooks/badge/${webhookUuid}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [TIMESTAMP_HEADER]: String(at), [SIGNATURE_HEADER]: signBadgePost(SECRET, at, body) },
      body,
    });
    const json = (await response.json()) as any;
    assert.equal(json.error, false, JSON.stringify(json));
    return json.badgeEventUuid;
  }

  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Access Org');
    other = await server.createOrg('Other Access Org');
    site = await seedIntegrationSite(server, org.orgUuid);
    otherSite = await seedIntegrationSite(server, other.orgUuid);
    const [mine, theirs] = [await enableBadge(org, site), await enableBadge(other, otherSite)];
    const cameras = { 'door-1': [site.cameras.Lobby, site.cameras.Hall], 'door-2': [site.cameras.Hall], 'door-3': [] as string[] };
    const locations = { 'door-1': site.locations.HQ, 'door-2': site.locations.Annex, 'door-3': site.locations.HQ };
    for (const e of events()) {
      const uuid = await post(mine, e);
      const seen = cameras[e.doorId];
      for (const camera of seen.length > 0 ? seen : [null])
        expected.push({ badgeEventUuid: uuid, deviceUuid: camera, locationUuid: locations[e.doorId], posted: e });
      await post(theirs, e);
    }
  });
  after(() => server.close());

  const search = async (body: object, o = org) => {
    const r = await server.call(SEARCH, body, { key: o.apiKey });
    assertOk(r);
    return r.json.events as any[];
  };
  const key = (row: { badgeEventUuid: string; deviceUuid: string | null }) => `${row.badgeEventUuid}/${row.deviceUuid}`;
  /** Asserts the search answers exactly the expected rows that pass `keep`, newest first. */
  async function answers(body: object, keep: (row: (typeof expected)[number]) => boolean) {
    const got = await search({ ...body, limit: 1000 });
    assert.deepEqual(got.map(key).sort(), expected.filter(keep).map(key).sort(), JSON.stringify(body));
    for (let i = 1; i < got.length; i++) assert.ok(got[i - 1].timestampMs >= got[i].timestampMs, 'newest first');
    return got;
  }
  const refused = (p: Posted) => p.eventType === 'ACCESS_DENIED';
  const entered = (p: Posted) => p.entryMade ?? !refused(p);
  const anomaly = (p: Posted) => (p.badgeStatus !== undefined && p.badgeStatus !== 'Active') || (!refused(p) && !entered(p));

  describe('filters', () => {
    it('answers every event of the organization, one per camera, with what the badge system told', async () => {
      const all = await answers({}, () => true);
      const sample = all.find((e) => e.badgeEventUuid === expected[1].badgeEventUuid && e.deviceUuid === expected[1].deviceUuid)!;
      const posted = expected[1].posted;
      assert.deepEqual(
        [sample.cardholderName, sample.customDescription, sample.badgeStatus, sample.badgeType, sample.areaEntering, sample.areaExiting, sample.orgUuid],
        [
          posted.holder,
          posted.holder,
          posted.badgeStatus ?? null,
          posted.badgeType ?? null,
          posted.areaEntering ?? null,
          posted.areaEntering ? 'Street' : null,
          org.orgUuid,
        ],
      );
      assert.match(sample.customDisplayName, /^Badge (Authorized|Unauthorized) at (Front|Back|Side) Door$/);
      assert.deepEqual((await search({}, other)).length, all.length, 'the other organization has its own, the same count');
      assert.ok(!(await search({}, other)).some((e) => expected.some((x) => x.badgeEventUuid === e.badgeEventUuid)), 'and never ours');
    });

    it('applies each filter: cameras, locations, cardholder, badge status and type, area, anomalies, entry made, activities, time', async () => {
      await answers({ deviceUuids: [site.cameras.Lobby] }, (r) => r.deviceUuid === site.cameras.Lobby);
      await answers({ deviceUuids: [`${site.cameras.Hall}.v0`] }, (r) => r.deviceUuid === site.cameras.Hall);
      await answers({ locationUuids: [site.locations.Annex] }, (r) => r.locationUuid === site.locations.Annex);
      await answers({ cardholderQuery: 'hopp' }, (r) => r.posted.holder === 'Grace Hopper');
      await answers({ cardholderQuery: 'LOVELACE' }, (r) => r.posted.holder === 'Ada Lovelace');
      await answers({ badgeStatus: 'lost' }, (r) => r.posted.badgeStatus === 'Lost');
      await answers({ badgeType: 'CONTRACTOR' }, (r) => r.posted.badgeType === 'Contractor');
      await answers({ area: 'office' }, (r) => r.posted.areaEntering === 'Back Office');
      await answers({ anomalyOnly: true }, (r) => anomaly(r.posted));
      await answers({ anomalyOnly: false }, () => true);
      await answers({ entryMade: false }, (r) => !entered(r.posted));
      await answers({ entryMade: true }, (r) => entered(r.posted));
      await answers({ activityTypes: ['BADGE_UNAUTHORIZED'] }, (r) => refused(r.posted));
      await answers({ activityTypes: ['ONGUARD_BADGE_AUTHORIZED', 'NETBOX_BADGE_ANOMALY'] }, () => false);
      const [from, to] = [T0 + 3 * 60_000, T0 + 6 * 60_000];
      await answers({ afterMs: from, beforeMs: to }, (r) => r.posted.timestampMs >= from && r.posted.timestampMs <= to);
      await answers(
        { cardholderQuery: 'turing', deviceUuids: [site.cameras.Hall], entryMade: true, afterMs: T0 + 60_000 },
        (r) => r.posted.holder === 'Alan Turing' && r.deviceUuid === site.cameras.Hall && entered(r.posted) && r.posted.timestampMs >= T0 + 60_000,
      );
      const flagged = await search({ anomalyOnly: true, limit: 1000 });
      assert.ok(flagged.length > 0 && flagged.every((e) => e.alert === true));
    });
  });

  describe('paging and limits', () => {
    it('pages newest first without gaps or repeats, even among events of one instant, and answers 200 at most by default', async () => {
      const all = await search({ limit: 1000 });
      const paged: any[] = [];
      let cursor = {};
      for (let page = 0; page < 50; page++) {
        const rows = await search({ limit: 7, ...cursor });
        paged.push(...rows);
        if (rows.length < 7) break;
        const last = rows.at(-1)!;
        cursor = { lastTimestampMs: last.timestampMs, lastUuid: last.uuid };
      }
      assert.deepEqual(
        paged.map((e) => e.uuid),
        all.map((e) => e.uuid),
      );
      assert.equal(new Set(paged.map((e) => e.uuid)).size, paged.length);
      const filtered = await search({ anomalyOnly: true, limit: 2 });
      const rest = await search({ anomalyOnly: true, limit: 1000, lastTimestampMs: filtered[1].timestampMs, lastUuid: filtered[1].uuid });
      assert.deepEqual(
        [...filtered, ...rest].map((e) => e.uuid),
        (await search({ anomalyOnly: true, limit: 1000 })).map((e) => e.uuid),
      );
      assert.equal((await search({})).length, Math.min(all.length, 200));
      assert.equal((await server.call(SEARCH, { limit: 1001 }, { key: org.apiKey })).status, 400);
      assert.equal((await server.call(SEARCH, { limit: 0 }, { key: org.apiKey })).status, 400);
    });
  });

  describe('refusals', () => {
    it("answers another organization's cameras and locations as unknown ones, and refuses a half cursor or an inverted range", async () => {
      const nobody = nobodysUuid();
      const call = (body: object) => server.call(SEARCH, body, { key: org.apiKey });
      assertSameAsMissing(await call({ deviceUuids: [otherSite.cameras.Lobby] }), await call({ deviceUuids: [nobody] }), [otherSite.cameras.Lobby, nobody]);
      assertSameAsMissing(await call({ locationUuids: [otherSite.locations.HQ] }), await call({ locationUuids: [nobody] }), [otherSite.locations.HQ, nobody]);
      assertFails(await call({ lastTimestampMs: T0 }), /form the pagination cursor/);
      assertFails(await call({ afterMs: T0 + 1, beforeMs: T0 }), 'afterMs must not be after beforeMs');
      assert.equal((await call({ activityTypes: ['not an activity'] })).status, 400);
      // An organization without the badge integration has no events.
      const plain = await seedEventsSite(server, 'No Badge Org');
      assert.deepEqual(await search({}, plain.org), []);
    });
  });
});
