import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type CallOptions, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, changesDuring, createSiteOrg, nobodysUuid, type SiteOrg } from './config-site.js';
import { assertFails, assertOk } from '../../helpers/api.js';

forEachDialect('video walls', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  /** Another user of the organization: a partner key's user, acting for `org`. */
  let colleague: CallOptions;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Wall Org');
    other = await createSiteOrg(server, 'Other Org');
    const partner = await server.createOrg('Partner Org');
    colleague = { key: await server.createPartnerKey(partner.orgUuid, [org.orgUuid]), scheme: 'partner-api-token', org: org.orgUuid };
  });
  after(() => server.close());
  const call = (op: string, body: object, options: CallOptions = { key: org.apiKey }) => server.call(`/api/camera/${op}`, body, options);
  const lobby = () => `${org.site.cameras.Lobby}.v0`;
  const dock = () => `${org.site.cameras.Dock}.v0`;
  const create = async (videoWall: object, options?: CallOptions) => {
    const r = await call('createVideoWall', { videoWall }, options);
    assertOk(r);
    return r.json.uuid as string;
  };
  const wallsSeenBy = async (options: CallOptions = { key: org.apiKey }) => {
    const r = await call('getVideoWalls', {}, options);
    assertOk(r);
    return r.json as { videoWalls: Array<Record<string, any>>; userNameMap: Record<string, string> };
  };
  const wall = async (uuid: string) => (await wallsSeenBy()).videoWalls.find((w) => w.uuid === uuid);

  it('every operation requires authentication', async () => {
    for (const op of ['createVideoWall', 'updateVideoWalls', 'getVideoWalls', 'deleteVideoWall']) {
      assert.equal((await call(op, {}, { key: '' })).status, 401, op);
    }
  });

  describe('POST /api/camera/createVideoWall', () => {
    it("creates a wall owned by the caller's user, answers its uuid, and announces it", async () => {
      let uuid = '';
      const events = await changesDuring(server, async () => {
        uuid = await create({ displayName: ' Front ', deviceList: [lobby(), dock()], settings: { layout: { columns: 2 } }, orgUuid: org.orgUuid });
      });
      const expected = {
        uuid,
        orgUuid: org.orgUuid,
        displayName: 'Front',
        deviceList: [lobby(), dock()],
        ownerUserUuid: org.userUuid,
        othersCanEdit: false,
        shared: false,
        settings: { layout: { columns: 2 } },
      };
      assert.deepEqual(await wall(uuid), expected);
      assert.deepEqual(
        events.map((e) => [e.entity, e.type, e.entityUuid]),
        [['VIDEO_WALL', 'CREATE', uuid]],
      );
      assert.deepEqual(events[0].update, expected);
    });

    it('refuses a deviceList entry that is not a facet id of a camera of the organization', async () => {
      const landing = org.site.elevatorLandings['Floor 2'];
      for (const [entry, index] of [
        [org.site.cameras.Lobby, 1], // a uuid, not a facet id
        [`${landing}.v0`, 1], // not a camera
        [`${org.site.cameras.Lobby}.v9`, 1], // a facet cameras do not stream
        [`${other.site.cameras.Lobby}.v0`, 1], // another organization's camera
        [`${nobodysUuid()}.v0`, 1],
        ['lobby', 1],
      ] as const) {
        assertFails(
          await call('createVideoWall', { videoWall: { displayName: 'Bad', deviceList: [lobby(), entry] } }),
          `videoWall.deviceList[${index}]: "${entry}" is not a facet id of a camera of this organization`,
        );
      }
    });

    it('refuses an empty display name and an owner other than the caller', async () => {
      assertFails(await call('createVideoWall', { videoWall: { displayName: '  ' } }), 'videoWall.displayName: must not be empty');
      assertFails(
        await call('createVideoWall', { videoWall: { displayName: 'X', ownerUserUuid: other.userUuid } }),
        'videoWall.ownerUserUuid: a video wall is owned by the user who creates it',
      );
    });

    it('refuses to create a wall in another organization', async () => {
      const foreign = await call('createVideoWall', { videoWall: { displayName: 'X', orgUuid: other.orgUuid } });
      assertSameAsMissing(foreign, await call('createVideoWall', { videoWall: { displayName: 'X', orgUuid: nobodysUuid() } }));
    });

    it('answers a malformed body with 400', async () => {
      for (const body of [{}, { videoWall: {} }, { videoWall: { displayName: 'X', deviceList: 'all' } }, { videoWall: { displayName: 'X', shared: 'yes' } }]) {
        assert.equal((await call('createVideoWall', body)).status, 400, JSON.stringify(body));
      }
    });
  });

  describe('POST /api/camera/getVideoWalls', () => {
    it("answers the caller's walls and the shared ones, with their owners' names", async () => {
      const mine = await create({ displayName: 'Private', deviceList: [lobby()] });
      const shared = await create({ displayName: 'Shared', deviceList: [dock()], shared: true });
      const seenByOwner = await wallsSeenBy();
      const ownerSees = seenByOwner.videoWalls.map((w) => w.uuid);
      assert.ok(ownerSees.includes(mine) && ownerSees.includes(shared));
      assert.equal(seenByOwner.userNameMap[org.userUuid], 'Wall Org Administrator');
      const colleagueSees = (await wallsSeenBy(colleague)).videoWalls.map((w) => w.uuid);
      assert.ok(colleagueSees.includes(shared));
      assert.ok(!colleagueSees.includes(mine), "another user's private wall is not listed");
      assert.deepEqual((await wallsSeenBy({ key: other.apiKey })).videoWalls, [], 'nothing of another organization');
    });
  });

  describe('POST /api/camera/updateVideoWalls', () => {
    it('lets the owner change the fields given, and announces the wall', async () => {
      const uuid = await create({ displayName: 'Ops', deviceList: [lobby()] });
      let r: Awaited<ReturnType<typeof call>> | undefined;
      const events = await changesDuring(server, async () => {
        r = await call('updateVideoWalls', {
          videoWall: {
            uuid,
            displayName: 'Operations',
            deviceList: [dock(), lobby()],
            settings: { grid: { n: 4 } },
            shared: true,
            ownerUserUuid: org.userUuid,
          },
        });
      });
      assertOk(r!);
      const expected = {
        uuid,
        orgUuid: org.orgUuid,
        displayName: 'Operations',
        deviceList: [dock(), lobby()],
        ownerUserUuid: org.userUuid,
        othersCanEdit: false,
        shared: true,
        settings: { grid: { n: 4 } },
      };
      assert.deepEqual(await wall(uuid), expected);
      assert.deepEqual(
        events.map((e) => [e.entity, e.type, e.entityUuid]),
        [['VIDEO_WALL', 'UPDATE', uuid]],
      );
      assert.deepEqual(events[0].update, expected);
      assertOk(await call('updateVideoWalls', { videoWall: { uuid, deviceList: [] } }));
      assert.deepEqual((await wall(uuid))?.deviceList, []);
      assert.equal((await wall(uuid))?.displayName, 'Operations');
    });

    it('applies the deviceList rule', async () => {
      const uuid = await create({ displayName: 'Rule', deviceList: [lobby()] });
      assertFails(
        await call('updateVideoWalls', { videoWall: { uuid, deviceList: [`${other.site.cameras.Dock}.v0`] } }),
        /videoWall.deviceList\[0\]: ".*" is not a facet id of a camera of this organization/,
      );
      assert.deepEqual((await wall(uuid))?.deviceList, [lobby()]);
    });

    it('refuses a change by another user unless othersCanEdit', async () => {
      const locked = await create({ displayName: 'Owner Only', shared: true });
      assertFails(
        await call('updateVideoWalls', { videoWall: { uuid: locked, displayName: 'Taken' } }, colleague),
        'Only the owner may change video wall "Owner Only"',
      );
      assert.equal((await wall(locked))?.displayName, 'Owner Only');
      assertFails(await call('deleteVideoWall', { uuid: locked }, colleague), 'Only the owner may change video wall "Owner Only"');

      const open = await create({ displayName: 'Team', shared: true, othersCanEdit: true });
      assertOk(await call('updateVideoWalls', { videoWall: { uuid: open, displayName: 'Team Wall', deviceList: [lobby()] } }, colleague));
      assert.equal((await wall(open))?.displayName, 'Team Wall');
      assertFails(
        await call('updateVideoWalls', { videoWall: { uuid: open, othersCanEdit: false } }, colleague),
        'Only the owner may change who shares or edits video wall "Team Wall"',
      );
      assertFails(
        await call('updateVideoWalls', { videoWall: { uuid: open, shared: false } }, colleague),
        'Only the owner may change who shares or edits video wall "Team Wall"',
      );
    });

    it("answers another user's unshared wall as a missing one", async () => {
      const hidden = await create({ displayName: 'Hidden', othersCanEdit: true });
      assertSameAsMissing(
        await call('updateVideoWalls', { videoWall: { uuid: hidden, displayName: 'Found' } }, colleague),
        await call('updateVideoWalls', { videoWall: { uuid: nobodysUuid(), displayName: 'Found' } }, colleague),
      );
    });

    it('refuses to change the owner', async () => {
      const uuid = await create({ displayName: 'Mine' });
      assertFails(
        await call('updateVideoWalls', { videoWall: { uuid, ownerUserUuid: other.userUuid } }),
        'videoWall.ownerUserUuid: the owner of a video wall cannot be changed',
      );
    });

    it("answers another organization's wall exactly as a missing one, and leaves it", async () => {
      const theirs = await create({ displayName: 'Theirs', shared: true, othersCanEdit: true }, { key: other.apiKey });
      const foreign = await call('updateVideoWalls', { videoWall: { uuid: theirs, displayName: 'Mine now' } });
      assertSameAsMissing(foreign, await call('updateVideoWalls', { videoWall: { uuid: nobodysUuid(), displayName: 'Mine now' } }));
      assert.equal(foreign.json.errorMsg, 'Video wall not found');
      assertSameAsMissing(await call('deleteVideoWall', { uuid: theirs }), foreign);
      const mine = await create({ displayName: 'Mine' });
      assertSameAsMissing(await call('updateVideoWalls', { videoWall: { uuid: mine, orgUuid: other.orgUuid, displayName: 'X' } }), foreign);
      assert.equal((await wallsSeenBy({ key: other.apiKey })).videoWalls.find((w) => w.uuid === theirs)?.displayName, 'Theirs');
    });

    it('answers a malformed body with 400', async () => {
      for (const body of [{}, { videoWall: { displayName: 'No uuid' } }, { videoWall: { uuid: nobodysUuid(), deviceList: [1] } }]) {
        assert.equal((await call('updateVideoWalls', body)).status, 400, JSON.stringify(body));
      }
    });
  });

  describe('POST /api/camera/deleteVideoWall', () => {
    it('deletes a wall and announces it', async () => {
      const uuid = await create({ displayName: 'Short Lived' });
      let r: Awaited<ReturnType<typeof call>> | undefined;
      const events = await changesDuring(server, async () => (r = await call('deleteVideoWall', { uuid })));
      assertOk(r!);
      assert.equal(await wall(uuid), undefined);
      assert.deepEqual(
        events.map((e) => [e.entity, e.type, e.entityUuid]),
        [['VIDEO_WALL', 'DELETE', uuid]],
      );
      assertFails(await call('deleteVideoWall', { uuid }), 'Video wall not found');
    });

    it('answers a malformed body with 400', async () => {
      assert.equal((await call('deleteVideoWall', { uuid: 'x' })).status, 400);
    });
  });
});
