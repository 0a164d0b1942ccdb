import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { decodeMedia, decodeUrl } from '../../helpers/media-decode.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import { assertSameAsMissing, changesDuring, createSiteOrg, nobodysUuid, type SiteOrg } from '../config/config-site.js';
import { apiAs, assertFails } from '../../helpers/api.js';

/** Two cameras and a doorbell camera. */
const LIVE_SITE = {
  locations: [{ name: 'HQ', timeZone: 'America/New_York' }],
  cameras: [
    { name: 'Lobby', location: 'HQ' },
    { name: 'Dock', location: 'HQ' },
  ],
  sensors: [{ name: 'Front Bell', kind: 'doorbell', location: 'HQ' }],
};

forEachDialect('shared live video streams and shared video walls', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Live Org', LIVE_SITE);
    other = await createSiteOrg(server, 'Other Live Org', LIVE_SITE);
  });
  after(() => server.close());

  const { call, ok } = apiAs(
    () => server,
    () => org.apiKey,
  );
  /** A GET on the media host without any API key. */
  const anonymous = async (path: string, headers: Record<string, string> = {}) => {
    // Links are absolute (under the public media base); the paths the tests build are relative to the media host.
    const r = await fetch(path.startsWith('http') ? path : server.gatehouse.urls.media + path, { headers });
    const body = Buffer.from(await r.arrayBuffer());
    return { status: r.status, headers: r.headers, body, text: body.toString('utf8'), json: () => JSON.parse(body.toString('utf8')) };
  };
  const lobby = () => org.site.cameras.Lobby;
  const dock = () => org.site.cameras.Dock;
  /** The segment paths of a live playlist, resolved against the playlist's path. */
  const segmentsOf = (playlistPath: string, playlist: string) =>
    playlist
      .split('\n')
      .filter((line) => line.endsWith('.ts'))
      .map((line) => playlistPath.replace(/live\.m3u8$/, line));

  describe('createSharedLiveVideoStream and its link', () => {
    it("shares a camera's live video: the page and the HLS playlist answer without a key, and the segments play on as one stream", async () => {
      let created: any;
      const changes = await changesDuring(server, async () => {
        created = await ok('/api/camera/createSharedLiveVideoStream', { cameraUuid: `${lobby()}.v0`, name: 'Lobby for the guard', expirationTimeSecs: 3600 });
      });
      assert.ok(created.sharedLiveVideoStreamUrl.startsWith(`${server.gatehouse.urls.media}/media/live/`), created.sharedLiveVideoStreamUrl);
      assert.match(created.sharedLiveVideoStreamUrl, /\/media\/live\/[A-Za-z0-9_-]+$/);
      assert.equal(created.sharedLiveM3U8StreamUrl, `${created.sharedLiveVideoStreamUrl}/${lobby()}/live.m3u8`);
      const change = changes.find((c) => c.entity === 'SHARED_LIVE_VIDEO_STREAM');
      assert.deepEqual(
        [change?.type, change?.entityUuid, change?.deviceUuid, (change?.update as any).cameraUuid, (change?.update as any).passwordProtected],
        ['CREATE', created.sharedLiveVideoStreamUuid, lobby(), `${lobby()}.v0`, false],
      );

      const page = await anonymous(created.sharedLiveVideoStreamUrl);
      assert.equal(page.status, 200, page.text);
      assert.deepEqual(page.json().cameras, [{ uuid: lobby(), name: 'Lobby', playlistUrl: created.sharedLiveM3U8StreamUrl }]);
      assert.equal(page.json().name, 'Lobby for the guard');

      const playlist = await anonymous(created.sharedLiveM3U8StreamUrl);
      assert.equal(playlist.status, 200);
      assert.equal(playlist.headers.get('content-type'), 'application/vnd.apple.mpegurl');
      assert.match(playlist.text, /^#EXTM3U\n/);
      assert.doesNotMatch(playlist.text, /#EXT-X-ENDLIST/, 'a live playlist has no end');
      const segments = segmentsOf(created.sharedLiveM3U8StreamUrl, playlist.text);
      assert.equal(segments.length, 4);
      const sequence = segments.map((s) => Number(/(\d+)\.ts$/.exec(s)![1]));
      assert.deepEqual(
        sequence,
        sequence.map((_, i) => sequence[0] + i),
      );
      assert.equal(Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(playlist.text)![1]), sequence[0]);

      // Two consecutive segments decode as one stream: 2 x 2 s at 10 frames a second.
      const [a, b] = await Promise.all(segments.slice(-2).map((s) => anonymous(s)));
      assert.deepEqual([a.status, a.headers.get('content-type')], [200, 'video/mp2t']);
      const decoded = await decodeMedia(Buffer.concat([a.body, b.body]), 'ts');
      assert.deepEqual([decoded.codec, decoded.width, decoded.height, decoded.frames], ['h264', 640, 360, 40]);
      assert.ok(decoded.durationSec !== null && Math.abs(decoded.durationSec - 4) < 0.3, `duration ${decoded.durationSec}`);
      const part = await anonymous(segments[3], { range: 'bytes=0-187' });
      assert.deepEqual([part.status, part.body.length, part.headers.get('content-range')], [206, 188, `bytes 0-187/${b.body.length}`]);

      // A player plays the playlist as it is: ffmpeg's own HLS client, segments and all.
      const played = await decodeUrl(created.sharedLiveM3U8StreamUrl, 3);
      assert.deepEqual([played.codec, played.width, played.height], ['h264', 640, 360]);
      assert.ok(played.frames >= 25, `${played.frames} frames`);

      // Only the camera it shares, only segments whose time has passed (one five and a half hours ahead has not, however
      // slowly this test ran), and the ordinary paths still want a key.
      assert.equal((await anonymous(`${created.sharedLiveVideoStreamUrl}/${dock()}/live.m3u8`)).status, 404);
      assert.equal((await anonymous(segments[3].replace(/\d+\.ts$/, `${sequence[3] + 10_000}.ts`))).status, 404);
      assert.equal((await anonymous(`/media/cameras/${lobby()}/frame.jpg?timestampMs=1`)).status, 401);
      assert.equal((await anonymous('/media/live/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status, 404);
    });

    it('a protected link asks for its password, which is never returned', async () => {
      assertFails(await call('/api/camera/createProtectedSharedLiveVideoStream', { cameraUuid: lobby() }), 'password: a protected link needs one');
      assertFails(await call('/api/camera/createSharedLiveVideoStream', { cameraUuid: lobby(), password: 'x' }), /unprotected/);
      const created = await ok('/api/camera/createProtectedSharedLiveVideoStream', { cameraUuid: lobby(), password: 'open sesame' });
      assert.equal((await anonymous(created.sharedLiveVideoStreamUrl)).status, 401);
      assert.equal((await anonymous(created.sharedLiveM3U8StreamUrl, { 'x-share-password': 'wrong' })).status, 401);
      assert.equal((await anonymous(created.sharedLiveVideoStreamUrl, { 'x-share-password': 'open sesame' })).status, 200);
      const played = await decodeUrl(created.sharedLiveM3U8StreamUrl, 2, { 'x-share-password': 'open sesame' });
      assert.deepEqual([played.codec, played.width], ['h264', 640]);

      const listed = await call('/api/camera/findSharedLiveVideoStreams', { cameraUuid: lobby() });
      const mine = listed.json.sharedLiveVideoStreams.find((s: any) => s.uuid === created.sharedLiveVideoStreamUuid);
      assert.deepEqual([mine.passwordProtected, mine.sharedLiveM3U8StreamUrl], [true, created.sharedLiveM3U8StreamUrl]);
      assert.doesNotMatch(listed.text, /open sesame|scrypt/);
    });

    it('stops serving once the link expires (410) and once it is deleted (404)', async () => {
      const expiring = await ok('/api/camera/createSharedLiveVideoStream', { cameraUuid: dock(), expirationTimeSecs: 1 });
      await waitFor('the link to expire', async () => (await anonymous(expiring.sharedLiveM3U8StreamUrl)).status === 410, 5000, 100);
      assert.match((await anonymous(expiring.sharedLiveVideoStreamUrl)).json().errorMsg, /expired/);
      const listed = (await ok('/api/camera/findSharedLiveVideoStreams', { cameraUuid: dock() })).sharedLiveVideoStreams;
      const entry = listed.find((s: any) => s.uuid === expiring.sharedLiveVideoStreamUuid);
      assert.ok(entry.expirationTime <= Math.ceil(Date.now() / 1000), 'still listed, with its expiry in epoch seconds');

      const created = await ok('/api/camera/createSharedLiveVideoStream', { cameraUuid: dock(), streamType: 'ALARM_MONITORING', vodEnabled: true });
      const playlist = await anonymous(created.sharedLiveM3U8StreamUrl);
      const segment = segmentsOf(created.sharedLiveM3U8StreamUrl, playlist.text)[3];
      assert.equal((await anonymous(segment)).status, 200);
      const all = (await ok('/api/camera/findAllSharedLiveVideoStreams', {})).sharedLiveVideoStreams;
      const found = all.find((s: any) => s.uuid === created.sharedLiveVideoStreamUuid);
      assert.deepEqual([found.streamType, found.sharedWithMonitoringService, found.vodEnabled, found.expirationTime], ['ALARM_MONITORING', true, true, null]);

      assertFails(
        await call('/api/camera/deleteSharedLiveVideoStream', { uuid: created.sharedLiveVideoStreamUuid, cameraUuid: lobby() }),
        'Shared live video stream not found',
      );
      const changes = await changesDuring(server, () =>
        ok('/api/camera/deleteSharedLiveVideoStream', { uuid: created.sharedLiveVideoStreamUuid, cameraUuid: `${dock()}.v0` }),
      );
      assert.deepEqual(
        changes.filter((c) => c.entity === 'SHARED_LIVE_VIDEO_STREAM').map((c) => [c.type, c.entityUuid]),
        [['DELETE', created.sharedLiveVideoStreamUuid]],
      );
      for (const path of [created.sharedLiveVideoStreamUrl, created.sharedLiveM3U8StreamUrl, segment]) assert.equal((await anonymous(path)).status, 404, path);
      assert.ok(
        !(await ok('/api/camera/findAllSharedLiveVideoStreams', {})).sharedLiveVideoStreams.some((s: any) => s.uuid === created.sharedLiveVideoStreamUuid),
      );
      assertFails(await call('/api/camera/deleteSharedLiveVideoStream', { uuid: created.sharedLiveVideoStreamUuid }), 'Shared live video stream not found');
    });

    it("answers another organization's cameras and links exactly as missing ones, and refuses what it does not do", async () => {
      assertSameAsMissing(
        await call('/api/camera/createSharedLiveVideoStream', { cameraUuid: other.site.cameras.Lobby }),
        await call('/api/camera/createSharedLiveVideoStream', { cameraUuid: nobodysUuid() }),
      );
      assertSameAsMissing(
        await call('/api/camera/findSharedLiveVideoStreams', { cameraUuid: other.site.cameras.Lobby }),
        await call('/api/camera/findSharedLiveVideoStreams', { cameraUuid: nobodysUuid() }),
      );
      const ours = await ok('/api/camera/createSharedLiveVideoStream', { cameraUuid: lobby() });
      assertSameAsMissing(
        await call('/api/camera/deleteSharedLiveVideoStream', { uuid: ours.sharedLiveVideoStreamUuid }, { key: other.apiKey }),
        await call('/api/camera/deleteSharedLiveVideoStream', { uuid: nobodysUuid() }, { key: other.apiKey }),
      );
      assert.equal((await anonymous(ours.sharedLiveVideoStreamUrl)).status, 200, 'still served');
      assert.ok(
        !(await ok('/api/camera/findAllSharedLiveVideoStreams', {}, { key: other.apiKey })).sharedLiveVideoStreams.some((s: any) => s.orgUuid === org.orgUuid),
      );

      assertFails(await call('/api/camera/createSharedLiveVideoStream', { cameraUuid: lobby(), scheduleUuid: nobodysUuid() }), /scheduleUuid/);
      assertFails(await call('/api/camera/createSharedLiveVideoStream', { cameraUuid: lobby(), ssoProtected: true }), /ssoProtected/);
      for (const body of [{}, { cameraUuid: 'not-a-camera' }, { cameraUuid: lobby(), expirationTimeSecs: 0 }, { cameraUuid: lobby(), streamType: 'NOPE' }]) {
        assert.equal((await call('/api/camera/createSharedLiveVideoStream', body)).status, 400, JSON.stringify(body));
      }
    });
  });

  describe('doorbell camera links', () => {
    it("shares a doorbell camera's live video, listed by the doorbell camera; a password protects it", async () => {
      const bell = org.site.sensors['Front Bell'];
      const created = await ok('/api/doorbellcamera/createSharedLiveVideoStream', { doorbellCameraUuid: `${bell}.v0`, streamType: 'USER', vodEnabled: false });
      assert.equal(created.sharedLiveM3U8StreamUrl, `${created.sharedLiveVideoStreamUrl}/${bell}/live.m3u8`);
      const page = await anonymous(created.sharedLiveVideoStreamUrl);
      assert.deepEqual([page.json().kind, page.json().cameras[0].name], ['DOORBELL_CAMERA', 'Front Bell']);
      const segment = segmentsOf(created.sharedLiveM3U8StreamUrl, (await anonymous(created.sharedLiveM3U8StreamUrl)).text)[3];
      const decoded = await decodeMedia((await anonymous(segment)).body, 'ts');
      assert.deepEqual([decoded.codec, decoded.width, decoded.frames], ['h264', 640, 20]);

      const guarded = await ok('/api/doorbellcamera/createSharedLiveVideoStream', {
        doorbellCameraUuid: bell,
        streamType: 'USER',
        vodEnabled: false,
        password: 'ding',
      });
      assert.equal((await anonymous(guarded.sharedLiveVideoStreamUrl)).status, 401);
      assert.equal((await anonymous(guarded.sharedLiveVideoStreamUrl, { 'x-share-password': 'ding' })).status, 200);
      const listed = (await ok('/api/doorbellcamera/findSharedLiveVideoStreams', { doorbellCameraUuid: bell })).sharedLiveVideoStreams;
      assert.deepEqual(
        listed.map((s: any) => [s.uuid, s.deviceUuid, s.passwordProtected]),
        [
          [created.sharedLiveVideoStreamUuid, `${bell}.v0`, false],
          [guarded.sharedLiveVideoStreamUuid, `${bell}.v0`, true],
        ],
      );
      assert.ok(
        (await ok('/api/camera/findAllSharedLiveVideoStreams', {})).sharedLiveVideoStreams.some((s: any) => s.uuid === guarded.sharedLiveVideoStreamUuid),
      );

      // A camera is not a doorbell camera, nor the other way round, and another organization's is missing.
      assertFails(await call('/api/doorbellcamera/findSharedLiveVideoStreams', { doorbellCameraUuid: lobby() }), 'Doorbell camera not found');
      assertFails(await call('/api/camera/findSharedLiveVideoStreams', { cameraUuid: bell }), 'Camera not found');
      assertSameAsMissing(
        await call('/api/doorbellcamera/createSharedLiveVideoStream', {
          doorbellCameraUuid: other.site.sensors['Front Bell'],
          streamType: 'USER',
          vodEnabled: false,
        }),
        await call('/api/doorbellcamera/createSharedLiveVideoStream', { doorbellCameraUuid: nobodysUuid(), streamType: 'USER', vodEnabled: false }),
      );
      assert.equal(
        (await call('/api/doorbellcamera/createSharedLiveVideoStream', { doorbellCameraUuid: bell })).status,
        400,
        'streamType and vodEnabled are required',
      );
    });
  });

  describe('shared video walls', () => {
    const createWall = async (deviceList: string[], key = org.apiKey) =>
      (await ok('/api/camera/createVideoWall', { videoWall: { displayName: 'Gatehouse wall', deviceList } }, { key: key })).uuid as string;

    it("shares a wall: the page lists the wall's cameras as it holds them, each with its live playlist; announced", async () => {
      const wall = await createWall([`${lobby()}.v0`, `${dock()}.v0`]);
      let created: any;
      const changes = await changesDuring(server, async () => {
        created = await ok('/api/camera/createSharedVideoWall', { videoWallUuid: wall, expirationTimeSecs: 600 });
      });
      const change = changes.find((c) => c.entity === 'SHARED_VIDEO_WALL');
      assert.deepEqual([change?.type, (change?.update as any).videoWallUuid], ['CREATE', wall]);
      const page = await anonymous(created.sharedLiveVideoStreamUrl);
      assert.equal(page.status, 200);
      assert.deepEqual(
        page.json().cameras.map((c: any) => [c.uuid, c.name, c.playlistUrl]),
        [
          [lobby(), 'Lobby', `${created.sharedLiveVideoStreamUrl}/${lobby()}/live.m3u8`],
          [dock(), 'Dock', `${created.sharedLiveVideoStreamUrl}/${dock()}/live.m3u8`],
        ],
      );
      const dockPlaylist = page.json().cameras[1].playlistUrl;
      const segment = segmentsOf(dockPlaylist, (await anonymous(dockPlaylist)).text)[2];
      const decoded = await decodeMedia((await anonymous(segment)).body, 'ts');
      assert.deepEqual([decoded.codec, decoded.height, decoded.frames], ['h264', 360, 20]);

      await ok('/api/camera/updateVideoWalls', { videoWall: { uuid: wall, deviceList: [`${dock()}.v0`] } });
      assert.deepEqual(
        (await anonymous(created.sharedLiveVideoStreamUrl)).json().cameras.map((c: any) => c.uuid),
        [dock()],
      );
      assert.equal((await anonymous(`${created.sharedLiveVideoStreamUrl}/${lobby()}/live.m3u8`)).status, 404, 'a camera no longer on the wall');

      const listed = (await ok('/api/camera/findSharedVideoWalls', { videoWallUuid: wall })).sharedVideoWalls;
      assert.deepEqual(
        listed.map((s: any) => [s.uuid, s.videoWallUuid, s.sharedVideoWallUrl, s.passwordProtected, s.orgUuid]),
        [[created.sharedLiveVideoStreamUuid, wall, created.sharedLiveVideoStreamUrl, false, org.orgUuid]],
      );
    });

    it('protected wall links, expiry (410), deletion (404), and the links of a deleted wall', async () => {
      const wall = await createWall([`${lobby()}.v0`]);
      assertFails(await call('/api/camera/createProtectedSharedVideoWall', { videoWallUuid: wall }), 'password: a protected link needs one');
      const guarded = await ok('/api/camera/createProtectedSharedVideoWall', { videoWallUuid: wall, password: 'wall pw' });
      assert.equal((await anonymous(guarded.sharedLiveVideoStreamUrl)).status, 401);
      assert.equal((await anonymous(guarded.sharedLiveVideoStreamUrl, { 'x-share-password': 'wall pw' })).status, 200);

      const expiring = await ok('/api/camera/createSharedVideoWall', { videoWallUuid: wall, expirationTimeSecs: 1 });
      await waitFor('the wall link to expire', async () => (await anonymous(expiring.sharedLiveVideoStreamUrl)).status === 410, 5000, 100);

      const deleted = await changesDuring(server, () =>
        ok('/api/camera/deleteSharedVideoWall', { uuid: guarded.sharedLiveVideoStreamUuid, videoWallUuid: wall }),
      );
      assert.deepEqual(
        deleted.filter((c) => c.entity === 'SHARED_VIDEO_WALL').map((c) => c.type),
        ['DELETE'],
      );
      assert.equal((await anonymous(guarded.sharedLiveVideoStreamUrl, { 'x-share-password': 'wall pw' })).status, 404);

      const open = await ok('/api/camera/createSharedVideoWall', { videoWallUuid: wall });
      const gone = await changesDuring(server, () => ok('/api/camera/deleteVideoWall', { uuid: wall }));
      assert.deepEqual(
        gone
          .filter((c) => c.entity === 'SHARED_VIDEO_WALL')
          .map((c) => c.entityUuid)
          .sort(),
        [expiring.sharedLiveVideoStreamUuid, open.sharedLiveVideoStreamUuid].sort(),
      );
      assert.equal((await anonymous(open.sharedLiveVideoStreamUrl)).status, 404);
      assertFails(await call('/api/camera/findSharedVideoWalls', { videoWallUuid: wall }), 'Video wall not found');
    });

    it("answers another organization's walls and links exactly as missing ones", async () => {
      const wall = await createWall([`${lobby()}.v0`]);
      const ours = await ok('/api/camera/createSharedVideoWall', { videoWallUuid: wall });
      for (const path of ['/api/camera/createSharedVideoWall', '/api/camera/createProtectedSharedVideoWall', '/api/camera/findSharedVideoWalls']) {
        assertSameAsMissing(
          await call(path, { videoWallUuid: wall, password: 'p' }, { key: other.apiKey }),
          await call(path, { videoWallUuid: nobodysUuid(), password: 'p' }, { key: other.apiKey }),
        );
      }
      assertSameAsMissing(
        await call('/api/camera/deleteSharedVideoWall', { uuid: ours.sharedLiveVideoStreamUuid }, { key: other.apiKey }),
        await call('/api/camera/deleteSharedVideoWall', { uuid: nobodysUuid() }, { key: other.apiKey }),
      );
      assert.equal((await anonymous(ours.sharedLiveVideoStreamUrl)).status, 200, 'still served');
      assert.equal((await call('/api/camera/findSharedVideoWalls', {})).status, 400);
    });
  });
});
