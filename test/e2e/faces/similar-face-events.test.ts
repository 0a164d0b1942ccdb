import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, nobodysUuid } from '../config/config-site.js';
import { simulate, type EventsSite } from '../events/fixtures.js';
import { seedFaceSite, type FaceSite } from './fixtures.js';
import { assertFails, assertOk } from '../../helpers/api.js';

const T0 = Date.UTC(2025, 2, 3, 9);

forEachDialect('findSimilarFaceEvents: sightings that look like a sighting', (dialect) => {
  let server: TestServer;
  let site: FaceSite;
  let other: FaceSite;
  /** Sightings by name: the person the camera matched and how much. */
  const seen: Record<string, any> = {};
  before(async () => {
    server = await startTestServer(dialect);
    site = await seedFaceSite(server, 'Look-alike Org');
    other = await seedFaceSite(server, 'Other Look-alike Org');
    const sight = async (s: FaceSite, camera: string, at: number, person?: string, confidence?: number) =>
      (await simulate(server, 'face', { camera, at, ...(person ? { person, confidence } : {}) })).faceEvent;
    seen.ada90 = await sight(site, site.lobby, T0, site.ada, 0.9);
    seen.ada80 = await sight(site, site.dock, T0 + 1000, site.ada, 0.8);
    seen.ada50 = await sight(site, site.lobby, T0 + 2000, site.ada, 0.5); // below the threshold: unidentified, still like Ada
    seen.ada30 = await sight(site, site.dock, T0 + 3000, site.ada, 0.3);
    seen.bob95 = await sight(site, site.lobby, T0 + 4000, site.bob, 0.95);
    seen.nobody = await sight(site, site.lobby, T0 + 5000);
    seen.theirAda = await sight(other, other.lobby, T0, other.ada, 0.9);
  });
  after(() => server.close());

  const call = (body: unknown, s: EventsSite = site) => server.call('/api/faceRecognition/faceEvent/findSimilarFaceEvents', body, { key: s.org.apiKey });
  const similar = async (body: unknown, s: EventsSite = site) => {
    const r = await call(body, s);
    assertOk(r);
    return r.json;
  };
  const pairs = (answer: any) => answer.faceEvents.map((e: any) => [e.uuid, e.similarity]);

  describe('findSimilarFaceEvents', () => {
    it('answers the faces that look like the same person, most alike first, without the event itself', async () => {
      const answer = await similar({ faceEventUuid: seen.ada90.uuid });
      assert.deepEqual(pairs(answer), [
        [seen.ada80.uuid, 0.72],
        [seen.ada50.uuid, 0.45],
      ]);
      const first = answer.faceEvents[0];
      assert.deepEqual(
        [first.deviceUuid.split('.')[0], first.personUuid, first.eventTimestamp, first.orgUuid],
        [site.dock, site.ada, T0 + 1000, site.org.orgUuid],
      );
      assert.equal(answer.faceEvents[1].personUuid, null, 'an unidentified face that looks like Ada is a look-alike too');
      assert.equal(answer.lastEvaluatedKey, null);
      assert.deepEqual(pairs(await similar({ faceEventUuid: seen.ada50.uuid })), [
        [seen.ada90.uuid, 0.45],
        [seen.ada80.uuid, 0.4],
      ]);
    });

    it('takes the distance threshold and the search filter', async () => {
      assert.deepEqual(pairs(await similar({ faceEventUuid: seen.ada90.uuid, searchFilter: { faceMatchDistanceThreshold: 0.8 } })), [
        [seen.ada80.uuid, 0.72],
        [seen.ada50.uuid, 0.45],
        [seen.ada30.uuid, 0.27],
      ]);
      assert.deepEqual(pairs(await similar({ faceEventUuid: seen.ada90.uuid, searchFilter: { faceMatchDistanceThreshold: 0.5 } })), [[seen.ada80.uuid, 0.72]]);
      assert.deepEqual(pairs(await similar({ faceEventUuid: seen.ada90.uuid, searchFilter: { deviceUuids: [site.dock] } })), [[seen.ada80.uuid, 0.72]]);
      assert.deepEqual(pairs(await similar({ faceEventUuid: seen.ada90.uuid, searchFilter: { hasName: false } })), [[seen.ada50.uuid, 0.45]]);
      const late = { rangeStart: new Date(T0 + 1500).toISOString() };
      assert.deepEqual(pairs(await similar({ faceEventUuid: seen.ada90.uuid, searchFilter: { timestampFilter: late } })), [[seen.ada50.uuid, 0.45]]);
      assert.equal((await call({ faceEventUuid: seen.ada90.uuid, searchFilter: { faceMatchDistanceThreshold: 1.5 } })).status, 400);
    });

    it('pages with lastEvaluatedKey, without gaps or repeats', async () => {
      const body = { faceEventUuid: seen.ada90.uuid, searchFilter: { faceMatchDistanceThreshold: 0.8 }, pageRequest: { maxPageSize: 2 } };
      const first = await similar(body);
      assert.deepEqual(pairs(first), [
        [seen.ada80.uuid, 0.72],
        [seen.ada50.uuid, 0.45],
      ]);
      assert.ok(first.lastEvaluatedKey);
      const second = await similar({ ...body, pageRequest: { maxPageSize: 2, lastEvaluatedKey: first.lastEvaluatedKey } });
      assert.deepEqual([pairs(second), second.lastEvaluatedKey], [[[seen.ada30.uuid, 0.27]], null]);
      assertFails(await call({ ...body, pageRequest: { lastEvaluatedKey: 'nonsense' } }), /lastEvaluatedKey/);
    });

    it('answers nothing for faces of other people or of no one known', async () => {
      assert.deepEqual(pairs(await similar({ faceEventUuid: seen.nobody.uuid })), []);
      assert.deepEqual(pairs(await similar({ faceEventUuid: seen.bob95.uuid })), [], 'Bob has no other sightings; Ada’s are not like his');
    });

    it("answers another organization's face event as an unknown one, and never lists its faces", async () => {
      assertSameAsMissing(await call({ faceEventUuid: seen.theirAda.uuid }), await call({ faceEventUuid: nobodysUuid() }));
      assertFails(await call({ faceEventUuid: seen.theirAda.uuid }), 'Face event not found');
      assert.deepEqual(pairs(await similar({ faceEventUuid: seen.theirAda.uuid }, other)), [], 'theirs has no look-alike in their organization');
      assert.equal((await call({})).status, 400);
    });
  });
});
