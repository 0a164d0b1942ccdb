import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { systemActor } from '../../../src/deps.js';
import { createPolicyAlert } from '../../../src/domains/events/alerts/service.js';
import { write } from '../../../src/bus/write.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { seedEventsSite, type EventsSite } from './fixtures.js';

const T0 = 1_700_000_000_000;
const PERSON = 'BBBBBBBBBBBBBBBBBBBBBB';

/** A box with every field of the catalogue's FootageBoundingBoxType. */
const fullBox = (ts: number) => ({
  a: 'MOTION_HUMAN',
  ts,
  l: 100,
  t: 200,
  r: 3000,
  b: 4000,
  c: 0.75,
  al: true,
  m: true,
  objectId: 7,
  loudness: 3,
  fn: 'Grace',
  uf: 'face-1',
  lp: 'ABC123',
  vn: 'Van',
  cdn: 'Person',
  cd: 'Someone walking',
  kp: { nose: { x: 10, y: 20 }, leftEye: { x: 11, y: 19 } },
  p: 'STANDING',
  ro: ['backpack', 'hat'],
  croppedImageLocator: 'crop/1.jpg',
  customActivityColor: 'TEAL',
  sensorValType: { sensorBoolean: true, sensorDouble: 1.5, sensorLong: 42 },
  toastOrderIdInfo: { employeeName: 'Sam', guid: 'g-1', locationName: 'HQ', restaurantName: 'Cafe' },
});

forEachDialect('policy alert details and full footage boxes', (dialect) => {
  let server: TestServer;
  let site: EventsSite;
  before(async () => {
    server = await startTestServer(dialect);
    site = await seedEventsSite(server, 'Details Org');
  });
  after(async () => {
    await server?.close();
  });
  const call = (path: string, body: unknown, key = site.org.apiKey) => server.call(path, body, { key });

  describe('POST /api/camera/createFootageBoundingBoxes', () => {
    it('stores and answers every catalogue field of a box', async () => {
      const sent = fullBox(T0 - 60_000);
      const created = await call('/api/camera/createFootageBoundingBoxes', { cameraUuid: site.dock, footageBoundingBoxes: [sent] });
      assert.equal(created.json.error, false, created.text);
      const read = await call('/api/camera/getFootageBoundingBoxes', { cameraUuid: site.dock, startTime: (T0 - 60_000) / 1000, duration: 1 });
      assert.deepEqual(read.json.footageBoundingBoxes, [sent]);
    });

    it('refuses a colour the catalogue does not list, with 400', async () => {
      const r = await call('/api/camera/createFootageBoundingBoxes', {
        cameraUuid: site.dock,
        footageBoundingBoxes: [{ ...fullBox(T0), customActivityColor: 'PINK' }],
      });
      assert.equal(r.status, 400);
    });
  });

  describe('POST /api/event/getPolicyAlertDetails', () => {
    it("answers the catalogue's PolicyAlertWithDetailsType: boxes over the alert, seek points, faces split by recognition", async () => {
      const boxes = [fullBox(T0 + 500), { a: 'FACE', ts: T0 + 1500, l: 1, t: 2, r: 3, b: 4 }, { a: 'MOTION', ts: T0 + 5000, l: 1, t: 2, r: 3, b: 4 }];
      const created = await call('/api/camera/createFootageBoundingBoxes', { cameraUuid: site.lobby, footageBoundingBoxes: boxes });
      assert.equal(created.json.error, false, created.text);
      const alert = await write(server.gatehouse.deps, systemActor(site.org.orgUuid, 'test.alerts'), (w) =>
        createPolicyAlert(w, {
          deviceUuid: site.lobby,
          policyAlertTriggers: ['MOTION_HUMAN', 'FACE'],
          timestampMs: T0,
          durationSec: 2,
          alertingEventFaces: [{ personUuid: PERSON, faceName: 'Ada' }, { faceId: 'unknown-1' }],
          alertingEventVehicles: [{ licensePlateNumber: 'XYZ', vehicleName: 'Fleet 1' }, { licensePlateNumber: 'QQQ' }],
        } as never),
      );
      const r = await call('/api/event/getPolicyAlertDetails', { policyAlertUuid: alert.uuid });
      assert.equal(r.json.error, false, r.text);
      const details = r.json.policyAlert;
      assert.equal(details.uuid, alert.uuid);
      assert.deepEqual(details.policyAlertTriggers, ['MOTION_HUMAN', 'FACE']);
      assert.deepEqual(
        details.boundingBoxes.map((b: any) => [b.activity, b.relativeSecond, b.left, b.top, b.right, b.bottom]),
        [
          ['MOTION_HUMAN', 0.5, 100, 200, 3000, 4000],
          ['FACE', 1.5, 1, 2, 3, 4],
        ],
      );
      const first = details.boundingBoxes[0];
      assert.deepEqual(
        [
          first.confidence,
          first.alert,
          first.inMotion,
          first.faceName,
          first.unidentifiedFaceId,
          first.licensePlate,
          first.vehicleName,
          first.pose,
          first.customActivityColor,
          first.customActivityDisplayName,
          first.customActivityDescription,
        ],
        [0.75, true, true, 'Grace', 'face-1', 'ABC123', 'Van', 'STANDING', 'TEAL', 'Person', 'Someone walking'],
      );
      assert.deepEqual(first.keypointsV2, { nose: { x: 10, y: 20 }, leftEye: { x: 11, y: 19 } });
      assert.deepEqual(first.sensorValType, { sensorBoolean: true, sensorDouble: 1.5, sensorLong: 42 });
      assert.deepEqual(details.boundingBoxesMap, { [site.lobby]: details.boundingBoxes });
      assert.deepEqual(
        details.seekPoints.map((p: any) => [p.activity, p.relativeSecond, p.alert]),
        [
          ['MOTION_HUMAN', 0, true],
          ['FACE', 0, true],
        ],
      );
      assert.deepEqual(details.seekPointsMap, { [site.lobby]: details.seekPoints });
      assert.deepEqual(
        details.recognizedEventFaces.map((f: any) => f.personUuid),
        [PERSON],
      );
      assert.deepEqual(
        details.unrecognizedEventFaces.map((f: any) => f.faceId),
        ['unknown-1'],
      );
      assert.deepEqual(
        details.recognizedEventVehicles.map((v: any) => v.licensePlateNumber),
        ['XYZ'],
      );
      assert.deepEqual(
        details.unrecognizedEventVehicles.map((v: any) => v.licensePlateNumber),
        ['QQQ'],
      );
    });

    it("answers another organization's alert as a missing one, and needs a key", async () => {
      const outsider = await server.createOrg('Details Outsider');
      const [alert] = await write(server.gatehouse.deps, systemActor(site.org.orgUuid, 'test.alerts'), async (w) => [
        await createPolicyAlert(w, { deviceUuid: site.dock, policyAlertTriggers: ['MOTION'], timestampMs: T0 }),
      ]);
      const foreign = await call('/api/event/getPolicyAlertDetails', { policyAlertUuid: alert.uuid }, outsider.apiKey);
      assert.deepEqual([foreign.json.error, foreign.json.errorMsg, foreign.json.policyAlert], [true, 'Policy alert not found', undefined]);
      assert.equal((await call('/api/event/getPolicyAlertDetails', { policyAlertUuid: alert.uuid }, '')).status, 401);
      assert.equal((await call('/api/event/getPolicyAlertDetails', { policyAlertUuid: 12 })).status, 400);
    });
  });
});
