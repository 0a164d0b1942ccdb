import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, changesDuring, createSiteOrg, nobodysUuid, type SiteOrg } from './config-site.js';
import { assertFails, assertOk } from '../../helpers/api.js';

const T0 = 1_700_000_000_000;
const box = (ts: number, extra: object = {}) => ({ a: 'MOTION_HUMAN', ts, l: 100, t: 200, r: 3000, b: 4000, ...extra });

forEachDialect('footage bounding boxes', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Footage Org');
    other = await createSiteOrg(server, 'Other Org');
  });
  after(() => server.close());
  const create = (cameraUuid: string, footageBoundingBoxes: object[], key = org.apiKey) =>
    server.call('/api/camera/createFootageBoundingBoxes', { cameraUuid, footageBoundingBoxes }, { key });
  const read = (cameraUuid: string, startTime: number, duration: number, key = org.apiKey) =>
    server.call('/api/camera/getFootageBoundingBoxes', { cameraUuid, startTime, duration }, { key });

  describe('POST /api/camera/createFootageBoundingBoxes', () => {
    it('requires authentication', async () => {
      assert.equal(
        (await server.call('/api/camera/createFootageBoundingBoxes', { cameraUuid: org.site.cameras.Lobby, footageBoundingBoxes: [box(T0)] }, { key: '' }))
          .status,
        401,
      );
    });

    it('stores the boxes of a camera named by uuid or facet id, and announces them', async () => {
      const lobby = org.site.cameras.Lobby;
      let r: Awaited<ReturnType<typeof create>> | undefined;
      const events = await changesDuring(server, async () => {
        r = await create(`${lobby}.v0`, [
          box(T0 + 500, { c: 0.9, m: true, objectId: 7, cdn: 'Person', unknownField: 'dropped' }),
          box(T0, { a: 'FACE', fn: 'Grace' }),
        ]);
      });
      assertOk(r!);
      assert.deepEqual(
        events.map((e) => [e.entity, e.type, e.entityUuid, e.deviceUuid]),
        [['FOOTAGE_BOUNDING_BOX', 'CREATE', lobby, lobby]],
      );
      const got = await read(lobby, T0 / 1000, 1);
      assertOk(got);
      assert.deepEqual(got.json.footageBoundingBoxes, [box(T0, { a: 'FACE', fn: 'Grace' }), box(T0 + 500, { c: 0.9, m: true, objectId: 7, cdn: 'Person' })]);
      assertOk(await create(lobby, [box(T0 + 2000)]));
      assert.equal((await read(`${lobby}.v0`, T0 / 1000, 3)).json.footageBoundingBoxes.length, 3);
    });

    it('refuses edges outside 0..10000, l >= r, t >= b and a ts that is not an instant, storing none of the boxes', async () => {
      const dock = org.site.cameras.Dock;
      const cases: Array<[object, string]> = [
        [{ l: -1 }, 'footageBoundingBoxes[1].l: must be within 0..10000'],
        [{ b: 10001 }, 'footageBoundingBoxes[1].b: must be within 0..10000'],
        [{ l: 3000, r: 3000 }, 'footageBoundingBoxes[1]: l must be < r'],
        [{ t: 5000, b: 4000 }, 'footageBoundingBoxes[1]: t must be < b'],
        [{ ts: 0 }, 'footageBoundingBoxes[1].ts: must be epoch milliseconds'],
      ];
      for (const [fields, message] of cases) assertFails(await create(dock, [box(T0), box(T0, fields)]), message);
      assert.deepEqual((await read(dock, T0 / 1000, 10)).json.footageBoundingBoxes, []);
      assertOk(await create(dock, [box(T0, { l: 0, t: 0, r: 10000, b: 10000 })]));
    });

    it("refuses a device that is not a camera, and answers another organization's camera as a missing one", async () => {
      assertFails(await create(org.site.elevatorLandings['Floor 2'], [box(T0)]), 'Camera not found');
      const theirs = other.site.cameras.Lobby;
      assertSameAsMissing(await create(theirs, [box(T0)]), await create(nobodysUuid(), [box(T0)]));
      assert.deepEqual((await read(theirs, T0 / 1000, 10, other.apiKey)).json.footageBoundingBoxes, []);
    });

    it('answers a malformed body with 400', async () => {
      const lobby = org.site.cameras.Lobby;
      for (const body of [
        {},
        { cameraUuid: lobby, footageBoundingBoxes: [] },
        { cameraUuid: lobby, footageBoundingBoxes: [{ a: 'MOTION', ts: T0, l: 1, t: 1, r: 2 }] },
        { cameraUuid: lobby, footageBoundingBoxes: [box(T0, { a: 'DANCING' })] },
        { cameraUuid: lobby, footageBoundingBoxes: [box(T0, { l: 'left' })] },
      ]) {
        assert.equal((await server.call('/api/camera/createFootageBoundingBoxes', body, { key: org.apiKey })).status, 400, JSON.stringify(body));
      }
    });
  });

  describe('POST /api/camera/getFootageBoundingBoxes', () => {
    it('requires authentication', async () => {
      assert.equal(
        (await server.call('/api/camera/getFootageBoundingBoxes', { cameraUuid: org.site.cameras.Lobby, startTime: 0, duration: 1 }, { key: '' })).status,
        401,
      );
    });

    it('answers the boxes with startTime <= ts < startTime + duration, oldest first', async () => {
      const owner = await createSiteOrg(server, 'Range Owner', { locations: [{ name: 'L' }], cameras: [{ name: 'C', location: 'L' }] });
      const cam = owner.site.cameras.C;
      const base = 1_800_000_000; // epoch seconds
      const stamps = [base * 1000 - 1, base * 1000, base * 1000 + 999, base * 1000 + 59_999, base * 1000 + 60_000];
      assertOk(
        await create(
          cam,
          stamps.map((ts) => box(ts)),
          owner.apiKey,
        ),
      );
      const within = (await read(cam, base, 60, owner.apiKey)).json.footageBoundingBoxes.map((b: { ts: number }) => b.ts);
      assert.deepEqual(within, [base * 1000, base * 1000 + 999, base * 1000 + 59_999]);
      assert.deepEqual((await read(cam, base + 61, 60, owner.apiKey)).json.footageBoundingBoxes, []);
    });

    it('answers at most 10000 boxes, the oldest, and says so in warningMsg', async () => {
      const owner = await createSiteOrg(server, 'Busy Owner', { locations: [{ name: 'L' }], cameras: [{ name: 'C', location: 'L' }] });
      const cam = owner.site.cameras.C;
      for (let batch = 0; batch < 11; batch++) {
        const boxes = Array.from({ length: batch < 10 ? 1000 : 1 }, (_, i) => box(T0 + batch * 1000 + i));
        assertOk(await create(cam, boxes, owner.apiKey));
      }
      const r = await read(cam, T0 / 1000, 60, owner.apiKey);
      assertOk(r);
      assert.equal(r.json.footageBoundingBoxes.length, 10_000);
      assert.equal(r.json.footageBoundingBoxes[9_999].ts, T0 + 9_999);
      assert.match(r.json.warningMsg, /only the first 10000 boxes/);
      assert.equal((await read(cam, T0 / 1000, 10, owner.apiKey)).json.warningMsg, undefined);
    });

    it("answers another organization's camera exactly as a missing one", async () => {
      assertSameAsMissing(await read(other.site.cameras.Lobby, T0 / 1000, 10), await read(nobodysUuid(), T0 / 1000, 10));
    });

    it('answers a malformed body with 400', async () => {
      const lobby = org.site.cameras.Lobby;
      for (const body of [{ cameraUuid: lobby }, { cameraUuid: lobby, startTime: -1, duration: 1 }, { cameraUuid: lobby, startTime: 1, duration: 0 }]) {
        assert.equal((await server.call('/api/camera/getFootageBoundingBoxes', body, { key: org.apiKey })).status, 400, JSON.stringify(body));
      }
    });
  });
});
