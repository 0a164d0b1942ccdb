import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { decodeMedia } from '../../helpers/media-decode.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, nobodysUuid } from '../config/config-site.js';
import { changesDuring, simulate, type EventsSite } from '../events/fixtures.js';
import { seedFaceSite, type FaceSite } from './fixtures.js';
import { apiAs, assertFails } from '../../helpers/api.js';

forEachDialect('face events: matching threshold, naming, deleting, faces from sightings', (dialect) => {
  let server: TestServer;
  let site: FaceSite;
  let other: FaceSite;
  before(async () => {
    server = await startTestServer(dialect);
    site = await seedFaceSite(server, 'Faces Org');
    other = await seedFaceSite(server, 'Other Faces Org');
  });
  after(() => server.close());

  const { call, ok } = apiAs(
    () => server,
    () => site.org.apiKey,
    '/api/faceRecognition',
  );
  const sight = async (camera: string, flags: Record<string, unknown> = {}) => (await simulate(server, 'face', { camera, ...flags })).faceEvent;
  const get = async (eventUuid: string, s: EventsSite = site) => (await ok('faceEvent/getFaceEvent', { eventUuid }, { key: s.org.apiKey })).faceEvent;

  describe('getFaceMatchingConfig, updateFaceMatchingConfig', () => {
    it('decides whether a simulated face is the person: at or above the threshold it is, below it the face is unidentified', async () => {
      assert.equal((await ok('matchmaker/getFaceMatchingConfig')).faceMatchConfidenceThreshold, 0.75);
      const strong = await sight(site.lobby, { person: 'Ada Lovelace', confidence: 0.8 });
      assert.deepEqual([strong.personUuid, strong.faceName, strong.selectedPersonMatch.confidence], [site.ada, 'Ada Lovelace', 0.8]);

      const changes = await changesDuring(server, () => ok('matchmaker/updateFaceMatchingConfig', { faceMatchConfidenceThreshold: 0.9 }));
      const change = changes.find((c) => c.entity === 'FACE_MATCHING_CONFIG');
      assert.deepEqual([change?.type, (change?.update as any).faceMatchConfidenceThreshold], ['UPDATE', 0.9]);
      assert.equal((await ok('matchmaker/getFaceMatchingConfig')).faceMatchConfidenceThreshold, 0.9);
      assert.equal(
        (await ok('matchmaker/getFaceMatchingConfig', {}, { key: other.org.apiKey })).faceMatchConfidenceThreshold,
        0.75,
        'the other organization keeps its own',
      );

      const weak = await sight(site.lobby, { person: 'Ada Lovelace', confidence: 0.8 });
      assert.deepEqual([weak.personUuid, weak.faceName, 'selectedPersonMatch' in weak], [null, null, false]);
      assert.deepEqual(
        weak.topPersonMatches.map((m: any) => [m.uuid, m.name, m.confidence]),
        [[site.ada, 'Ada Lovelace', 0.8]],
      );
      assert.equal((await sight(site.lobby, { person: site.ada, confidence: 0.9 })).personUuid, site.ada, 'the threshold itself matches');
      assert.equal((await sight(other.lobby, { person: 'Ada Lovelace', confidence: 0.8 })).personUuid, other.ada);
      const unidentified = await ok('faceEvent/findFaceEventsByOrg', { searchFilter: { hasName: false } });
      assert.ok(unidentified.faceEvents.some((e: any) => e.uuid === weak.uuid));
      assert.equal((await get(strong.uuid)).personUuid, site.ada, 'recorded sightings keep what they were');

      for (const bad of [{ faceMatchConfidenceThreshold: 1.5 }, { faceMatchConfidenceThreshold: -0.1 }, {}]) {
        assert.equal((await call('matchmaker/updateFaceMatchingConfig', bad)).status, 400, JSON.stringify(bad));
      }
    });
  });

  describe('updateFaceEvent, deleteFaceEvent', () => {
    it('names a sighting by person or by name (creating the person), deletes it, each on the stream; another organization’s ids are unknown', async () => {
      const face = await sight(site.dock);
      const changes = await changesDuring(server, () => ok('faceEvent/updateFaceEvent', { eventUuid: face.uuid, personUuid: site.bob }));
      assert.equal(changes.find((c) => c.entity === 'FACE_EVENT' && c.entityUuid === face.uuid)?.type, 'UPDATE');
      assert.deepEqual([(await get(face.uuid)).personUuid, (await get(face.uuid)).faceName], [site.bob, 'Bob Stone']);
      const byBob = await ok('faceEvent/findFaceEventsByOrg', { searchFilter: { personUuids: [site.bob] } });
      assert.ok(byBob.faceEvents.some((e: any) => e.uuid === face.uuid));

      const named = await ok('faceEvent/updateFaceEvent', { eventUuid: face.uuid, personName: 'Carol Ng' });
      const carol = named.faceEvent.personUuid;
      assert.equal(named.faceEvent.faceName, 'Carol Ng');
      assert.equal((await ok('person/getPerson', { personUuid: carol })).person.name, 'Carol Ng', 'the person was created');
      assert.equal(
        (await ok('faceEvent/updateFaceEvent', { eventUuid: face.uuid, personName: 'Carol Ng' })).faceEvent.personUuid,
        carol,
        'and found the next time',
      );

      const theirs = await sight(other.dock);
      assertSameAsMissing(
        await call('faceEvent/updateFaceEvent', { eventUuid: theirs.uuid, personUuid: site.ada }),
        await call('faceEvent/updateFaceEvent', { eventUuid: nobodysUuid(), personUuid: site.ada }),
      );
      assertSameAsMissing(
        await call('faceEvent/updateFaceEvent', { eventUuid: face.uuid, personUuid: other.ada }),
        await call('faceEvent/updateFaceEvent', { eventUuid: face.uuid, personUuid: nobodysUuid() }),
      );
      assertFails(await call('faceEvent/updateFaceEvent', { eventUuid: face.uuid }), /give personUuid or personName/);
      assert.equal((await get(theirs.uuid, other)).personUuid, null, 'theirs is untouched');

      assertSameAsMissing(
        await call('faceEvent/deleteFaceEvent', { eventUuid: theirs.uuid }),
        await call('faceEvent/deleteFaceEvent', { eventUuid: nobodysUuid() }),
      );
      const deletion = await changesDuring(server, () => ok('faceEvent/deleteFaceEvent', { eventUuid: face.uuid }));
      assert.equal(deletion.find((c) => c.entity === 'FACE_EVENT' && c.entityUuid === face.uuid)?.type, 'DELETE');
      assertFails(await call('faceEvent/getFaceEvent', { eventUuid: face.uuid }), 'Face event not found');
      assert.equal((await get(theirs.uuid, other)).uuid, theirs.uuid);
    });
  });

  describe('createFaceMatchmakerFromSighting', () => {
    it("stores the sighting's picture, a real JPEG, as a face of the person, and makes an unidentified sighting theirs", async () => {
      const face = await sight(site.lobby);
      assertFails(await call('matchmaker/createFaceMatchmakerFromSighting', { faceEventUuid: face.uuid }), /no known person: give personUuid/);
      let made: any;
      const changes = await changesDuring(server, async () => {
        made = (await ok('matchmaker/createFaceMatchmakerFromSighting', { faceEventUuid: face.uuid, personUuid: site.ada })).faceMatchmaker;
      });
      assert.deepEqual([made.personUuid, made.orgUuid], [site.ada, site.org.orgUuid]);
      assert.ok(changes.some((c) => c.entity === 'FACE_MATCHMAKER' && c.type === 'CREATE' && c.entityUuid === made.id));
      assert.ok(changes.some((c) => c.entity === 'FACE_EVENT' && c.type === 'UPDATE' && c.entityUuid === face.uuid));
      assert.equal((await get(face.uuid)).personUuid, site.ada);

      const faces = (await ok('matchmaker/findFaceMatchmakersByPerson', { personUuid: site.ada })).faceMatchmakers;
      assert.ok(faces.some((f: any) => f.id === made.id));
      const image = await ok('matchmaker/getFaceMatchmakerImage', { faceId: made.id });
      assert.deepEqual([image.faceMatchmaker.contentType, image.faceMatchmaker.width, image.faceMatchmaker.height], ['image/jpeg', 480, 270]);
      const decoded = await decodeMedia(Buffer.from(image.imageBase64, 'base64'), 'jpg');
      assert.deepEqual([decoded.codec, decoded.width, decoded.height], ['mjpeg', 480, 270]);

      // The sighting's own person is the default; another organization's sighting or person is unknown.
      const known = await sight(site.dock, { person: 'Bob Stone' });
      assert.equal((await ok('matchmaker/createFaceMatchmakerFromSighting', { faceEventUuid: known.uuid })).faceMatchmaker.personUuid, site.bob);
      const theirs = await sight(other.lobby, { person: 'Ada Lovelace' });
      assertSameAsMissing(
        await call('matchmaker/createFaceMatchmakerFromSighting', { faceEventUuid: theirs.uuid, personUuid: site.ada }),
        await call('matchmaker/createFaceMatchmakerFromSighting', { faceEventUuid: nobodysUuid(), personUuid: site.ada }),
      );
      assertSameAsMissing(
        await call('matchmaker/createFaceMatchmakerFromSighting', { faceEventUuid: known.uuid, personUuid: other.ada }),
        await call('matchmaker/createFaceMatchmakerFromSighting', { faceEventUuid: known.uuid, personUuid: nobodysUuid() }),
      );
      assert.deepEqual((await ok('matchmaker/findFaceMatchmakersByOrg', {}, { key: other.org.apiKey })).faceMatchmakers, []);
    });
  });
});
