import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiAs } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { changesDuring, simulate } from '../events/fixtures.js';
import { seedFaceSite, type FaceSite } from './fixtures.js';

interface FaceEvent {
  uuid: string;
  eventTimestamp: number;
  personUuid: string | null;
  faceName: string | null;
  deviceUuid: string;
}

forEachDialect('face events and person labels', (dialect) => {
  let server: TestServer;
  let site: FaceSite;
  let other: FaceSite;
  before(async () => {
    server = await startTestServer(dialect);
    site = await seedFaceSite(server, 'Faces Org');
    other = await seedFaceSite(server, 'Other Faces Org');
  });
  after(() => server.close());

  const { call, ok, refused } = apiAs(
    () => server,
    () => site.org.apiKey,
    '/api/faceRecognition',
  );
  const sight = (camera: string, at: number, person?: string) => simulate(server, 'face', { camera, at: String(at), ...(person ? { person } : {}) });

  it('every operation requires authentication and refuses a malformed body', async () => {
    for (const path of [
      'faceEvent/findFaceEventsByOrg',
      'faceEvent/getFaceEvent',
      'person/findPersonLabelsByOrg',
      'person/addPersonLabel',
      'person/removePersonLabel',
    ]) {
      assert.equal((await server.call(`/api/faceRecognition/${path}`, {}, { key: '' })).status, 401, path);
    }
    for (const [path, body] of [
      ['faceEvent/getFaceEvent', {}],
      ['faceEvent/findFaceEventsByOrg', { pageRequest: { maxPageSize: 0 } }],
      ['faceEvent/findFaceEventsByOrg', { searchFilter: { timestampFilter: { rangeStart: 'soon' } } }],
      ['person/addPersonLabel', { personUuid: site.ada }],
    ] as const) {
      assert.equal((await call(path, body)).status, 400, `${path} ${JSON.stringify(body)}`);
    }
  });

  describe('simulate face and the face-event reads', () => {
    it('records a known person or an unidentified face, on the stream, readable by uuid by its organization only', async () => {
      const now = Date.now();
      let answer: any;
      const changes = await changesDuring(server, async () => {
        answer = await sight(site.lobby, now - 1000, 'Ada Lovelace');
      });
      const event = answer.faceEvent;
      assert.deepEqual(
        { person: event.personUuid, name: event.faceName, device: event.deviceUuid },
        { person: site.ada, name: 'Ada Lovelace', device: `${site.lobby}.v0` },
      );
      assert.ok(changes.some((c) => c.entity === 'FACE_EVENT' && c.type === 'CREATE' && c.entityUuid === event.uuid && c.orgUuid === site.org.orgUuid));
      const unknown = (await sight(site.dock, now - 500)).faceEvent;
      assert.equal(unknown.personUuid, null);
      assert.equal((await sight(site.dock, now - 400, site.bob)).faceEvent.faceName, 'Bob Stone');

      assert.equal((await ok('faceEvent/getFaceEvent', { eventUuid: event.uuid })).faceEvent.uuid, event.uuid);
      assert.equal((await call('faceEvent/getFaceEvent', { eventUuid: event.uuid }, { key: other.org.apiKey })).json.errorMsg, 'Face event not found');
      assert.equal((await control(server, '/simulate/face', { camera: site.lobby, person: other.ada })).json.errorMsg, 'Person not found');
    });

    it('findFaceEventsByOrg filters by person, name, label, device and time, and pages with no gaps or repeats', async () => {
      const s = await seedFaceSite(server, 'Faces Paging Org');
      const base = Date.now() - 3_600_000;
      const made: FaceEvent[] = [];
      for (let i = 0; i < 17; i++) {
        const person = [s.ada, s.bob, undefined][i % 3];
        made.push((await sight(i % 2 ? s.lobby : s.dock, base + Math.floor(i / 3) * 1000, person)).faceEvent);
      }
      const old = (await sight(s.lobby, base - 8 * 86_400_000, s.ada)).faceEvent;
      await sight(other.lobby, base, other.ada);

      const seen: FaceEvent[] = [];
      let key: string | null = null;
      for (let page = 0; page < 20; page++) {
        const json: any = await ok(
          'faceEvent/findFaceEventsByOrg',
          { pageRequest: { maxPageSize: 4, ...(key ? { lastEvaluatedKey: key } : {}) } },
          { key: s.org.apiKey },
        );
        seen.push(...json.faceEvents);
        key = json.lastEvaluatedKey ?? null;
        if (!key) break;
      }
      assert.deepEqual(seen.map((e) => e.uuid).sort(), made.map((e) => e.uuid).sort(), 'the last 7 days, every event once');
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i - 1].eventTimestamp >= seen[i].eventTimestamp);

      const find = async (searchFilter: Record<string, unknown>) =>
        ((await ok('faceEvent/findFaceEventsByOrg', { searchFilter, pageRequest: { maxPageSize: 1000 } }, { key: s.org.apiKey })).faceEvents as FaceEvent[])
          .map((e) => e.uuid)
          .sort();
      const of = (pred: (e: FaceEvent) => boolean) =>
        made
          .filter(pred)
          .map((e) => e.uuid)
          .sort();
      assert.deepEqual(
        await find({ personUuids: [s.ada] }),
        of((e) => e.personUuid === s.ada),
      );
      assert.deepEqual(
        await find({ faceNames: ['Bob Stone'] }),
        of((e) => e.personUuid === s.bob),
      );
      assert.deepEqual(
        await find({ faceNameContains: 'LOVE' }),
        of((e) => e.personUuid === s.ada),
      );
      assert.deepEqual(
        await find({ hasName: false }),
        of((e) => e.personUuid === null),
      );
      assert.deepEqual(
        await find({ deviceUuids: [`${s.lobby}.v0`] }),
        of((e) => e.deviceUuid === `${s.lobby}.v0`),
      );
      assert.deepEqual(
        await find({ timestampFilter: { rangeStart: new Date(base - 9 * 86_400_000).toISOString(), rangeEnd: new Date(base - 7 * 86_400_000).toISOString() } }),
        [old.uuid],
      );
      await ok('person/addPersonLabel', { personUuid: s.bob, label: 'staff' }, { key: s.org.apiKey });
      assert.deepEqual(
        await find({ labels: ['staff'] }),
        of((e) => e.personUuid === s.bob),
      );
      const theirs = await call('faceEvent/findFaceEventsByOrg', { searchFilter: { deviceUuids: [other.lobby] } }, { key: s.org.apiKey });
      assert.equal(theirs.json.errorMsg, `Device ${other.lobby} not found`);
      assert.equal(
        (await call('faceEvent/findFaceEventsByOrg', { pageRequest: { lastEvaluatedKey: 'nope' } }, { key: s.org.apiKey })).json.errorMsg,
        'lastEvaluatedKey: not a key this operation answered',
      );
    });
  });

  describe('person labels', () => {
    it("adds and removes labels, announcing each change, and refuses another organization's person", async () => {
      const changes = await changesDuring(server, async () => {
        await ok('person/addPersonLabel', { personUuid: site.ada, label: 'vip' });
        await ok('person/addPersonLabel', { personUuid: site.ada, label: 'vip' });
        await ok('person/addPersonLabel', { personUuid: site.ada, label: 'board' });
      });
      const labelChanges = changes.filter((c) => c.entity === 'PERSON_LABELS');
      assert.equal(labelChanges.length, 2, 'adding a label the person has changes nothing');
      assert.deepEqual((labelChanges.at(-1)!.update as { labels: string[] }).labels, ['board', 'vip']);
      assert.deepEqual((await ok('person/findPersonLabelsByOrg')).labelsByPerson, { [site.ada]: ['board', 'vip'] });
      await ok('person/removePersonLabel', { personUuid: site.ada, label: 'board' });
      assert.deepEqual((await ok('person/findPersonLabelsByOrg')).labelsByPerson, { [site.ada]: ['vip'] });
      assert.deepEqual((await ok('person/findPersonLabelsByOrg', {}, { key: other.org.apiKey })).labelsByPerson, {});
      assert.equal(await refused('person/addPersonLabel', { personUuid: other.ada, label: 'x' }), 'Person not found');
      assert.deepEqual((await ok('person/findPersonLabelsByOrg', {}, { key: other.org.apiKey })).labelsByPerson, {});
    });
  });
});
