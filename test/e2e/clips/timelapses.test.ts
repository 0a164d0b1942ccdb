import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { decodeMedia } from '../../helpers/media-decode.js';
import { watchChanges } from '../../helpers/org-structure.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import { assertSameAsMissing, nobodysUuid } from '../config/config-site.js';
import { changesDuring, seedEventsSite, type EventsSite } from '../events/fixtures.js';
import { apiAs, assertFails } from '../../helpers/api.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

forEachDialect('timelapses and shared timelapse groups', (dialect) => {
  let server: TestServer;
  let site: EventsSite;
  let outsider: EventsSite;
  before(async () => {
    server = await startTestServer(dialect);
    site = await seedEventsSite(server, 'Timelapse Org');
    outsider = await seedEventsSite(server, 'Timelapse Outsider');
  });
  after(() => server.close());

  const { call, ok } = apiAs(
    () => server,
    () => site.org.apiKey,
    '/api/video',
  );
  const media = async (path: string, headers: Record<string, string> = {}) => {
    // Share links are absolute; the other media paths the tests build are relative to the media host.
    const r = await fetch(path.startsWith('http') ? path : server.gatehouse.urls.media + path, { headers });
    const body = Buffer.from(await r.arrayBuffer());
    return { status: r.status, headers: r.headers, body, json: () => JSON.parse(body.toString('utf8')) };
  };
  const withKey = (key = site.org.apiKey) => ({ 'x-auth-apikey': key });
  const listed = async (uuid: string, key = site.org.apiKey) =>
    (await ok('getTimelapseClips', {}, { key: key })).timelapseClips.find((t: any) => t.clipUuid === uuid);
  const completed = (uuid: string) =>
    waitFor(`timelapse ${uuid} to complete`, async () => ((await listed(uuid))?.status.state === 'COMPLETE' ? listed(uuid) : null), 30_000, 100);

  let timelapse: string;
  let gif: string;

  describe('generateTimelapseClip, getTimelapseClips and the video', () => {
    it('renders an MP4 of the cameras over the span, its progress on the stream as the saved-clip workflow moves', async () => {
      const stop = Date.now() - HOUR;
      const start = stop - 3 * DAY;
      const stream = await watchChanges(server, site.org.apiKey, site.org.orgUuid);
      let record: any;
      try {
        timelapse = (
          await ok('generateTimelapseClip', {
            deviceUuids: [site.lobby, `${site.dock}.v0`],
            startTime: start,
            stopTime: stop,
            title: 'Build',
            videoDuration: 2,
          })
        ).clipUuid;
        record = await completed(timelapse);
        await stream.waitFor((c) => c.entityUuid === timelapse && c.update.status.state === 'COMPLETE', 'COMPLETE on the stream');
        assert.deepEqual(
          stream
            .bodies()
            .filter((c) => c.entity === 'TIMELAPSE_CLIP' && c.entityUuid === timelapse)
            .map((c) => [c.type, c.update.status.state, c.update.status.percentComplete]),
          [
            ['CREATE', 'INITIATED', 0],
            ['UPDATE', 'INPROGRESS', 25],
            ['UPDATE', 'INPROGRESS', 75],
            ['UPDATE', 'COMPLETE', 100],
          ],
        );
      } finally {
        await stream.close();
      }
      assert.deepEqual(
        [
          record.title,
          record.clipDuration,
          record.clipFormat,
          record.videoStartTime,
          record.videoStopTime,
          record.orgUuid,
          record.shared,
          record.passwordDigest,
        ],
        ['Build', 2, 'MPEG', start, stop, site.org.orgUuid, false, null],
      );
      assert.deepEqual(record.sources, [{ deviceUuid: `${site.lobby}.v0` }, { deviceUuid: `${site.dock}.v0` }]);
      assert.deepEqual([record.drawCameraDetails, record.drawTimestamp, record.skipNights, record.skipWeekends], [true, true, false, false]);

      // The video: 2 s at 10 frames a second, the two cameras' sections one after the other.
      const video = await media(record.videoUrl, withKey());
      assert.deepEqual([video.status, video.headers.get('content-type')], [200, 'video/mp4']);
      const decoded = await decodeMedia(video.body, 'mp4');
      assert.deepEqual([decoded.codec, decoded.width, decoded.height, decoded.frames], ['h264', 640, 360, 20]);
      assert.ok(decoded.durationSec !== null && Math.abs(decoded.durationSec - 2) < 0.2, `duration ${decoded.durationSec}`);
      const part = await media(record.videoUrl, { ...withKey(), range: 'bytes=10-19' });
      assert.deepEqual([part.status, part.body], [206, video.body.subarray(10, 20)]);

      // A timelapse is not a saved clip.
      const clips = await server.call('/api/event/getSavedClipsV2', {}, { key: site.org.apiKey });
      assert.ok(!clips.json.savedClips.some((c: any) => c.uuid === timelapse));
      assertFails(await server.call('/api/event/getClipWithProgress', { clipUuid: timelapse }, { key: site.org.apiKey }), 'Saved clip not found');
    });

    it('renders a GIF without nights and weekends, and refuses a span that leaves nothing or lies outside the footage', async () => {
      const stop = Date.now() - HOUR;
      gif = (
        await ok('generateTimelapseClip', {
          deviceUuids: [site.lobby],
          startTime: stop - 10 * DAY,
          stopTime: stop,
          videoDuration: 1,
          videoFormat: 'GIF',
          skipNights: true,
          skipWeekends: true,
          drawCameraDetails: false,
        })
      ).clipUuid;
      const record = await completed(gif);
      assert.deepEqual([record.clipFormat, record.skipNights, record.skipWeekends, record.drawCameraDetails], ['GIF', true, true, false]);
      const image = await media(record.videoUrl, withKey());
      assert.equal(image.headers.get('content-type'), 'image/gif');
      const decoded = await decodeMedia(image.body, 'gif');
      assert.deepEqual([decoded.codec, decoded.width, decoded.height, decoded.frames], ['gif', 640, 360, 10]);

      // 07:00 to 09:00 UTC is night in New York (02:00 to 05:00, whatever the season).
      const midnight = Math.floor((Date.now() - 2 * DAY) / DAY) * DAY;
      const night = { deviceUuids: [site.lobby], startTime: midnight + 7 * HOUR, stopTime: midnight + 9 * HOUR, skipNights: true };
      assertFails(await call('generateTimelapseClip', night), /leave nothing/);
      await ok('generateTimelapseClip', { ...night, skipNights: false, videoDuration: 1 });
      const now = Date.now();
      assertFails(await call('generateTimelapseClip', { deviceUuids: [site.lobby], startTime: now - HOUR, stopTime: now + HOUR }), /after now/);
      assertFails(await call('generateTimelapseClip', { deviceUuids: [site.lobby], startTime: now - 40 * DAY, stopTime: now - DAY }), /kept 30 days/);
      assertFails(await call('generateTimelapseClip', { deviceUuids: [site.lobby], startTime: now - HOUR, stopTime: now - 2 * HOUR }), /after startTime/);
      for (const body of [{}, { deviceUuids: [], startTime: 1, stopTime: 2 }, { deviceUuids: [site.lobby], startTime: 1, stopTime: 2, videoFormat: 'AVI' }]) {
        assert.equal((await call('generateTimelapseClip', body)).status, 400, JSON.stringify(body));
      }

      const metadata = await ok('getTimelapseMetadata', { deviceUuidList: [`${site.lobby}.v0`, site.dock] });
      assert.deepEqual(Object.keys(metadata.earliestTimestampMap).sort(), [`${site.lobby}.v0`, site.dock].sort());
      const earliest = Number(metadata.earliestTimestampMap[site.dock]);
      assert.ok(Math.abs(earliest - (Date.now() - 30 * DAY)) < 60_000, `earliest ${earliest}`);
    });

    it("answers another organization's cameras and timelapses exactly as missing ones", async () => {
      const span = { startTime: Date.now() - DAY, stopTime: Date.now() - HOUR };
      assertSameAsMissing(
        await call('generateTimelapseClip', { deviceUuids: [site.lobby], ...span }, { key: outsider.org.apiKey }),
        await call('generateTimelapseClip', { deviceUuids: [nobodysUuid()], ...span }, { key: outsider.org.apiKey }),
      );
      assertSameAsMissing(
        await call('getTimelapseMetadata', { deviceUuidList: [site.lobby] }, { key: outsider.org.apiKey }),
        await call('getTimelapseMetadata', { deviceUuidList: [nobodysUuid()] }, { key: outsider.org.apiKey }),
      );
      for (const path of ['deleteTimelapseClips', 'shareTimelapseClips']) {
        assertSameAsMissing(
          await call(path, { clipUuids: [timelapse] }, { key: outsider.org.apiKey }),
          await call(path, { clipUuids: [nobodysUuid()] }, { key: outsider.org.apiKey }),
        );
      }
      assertSameAsMissing(
        await call('createSharedTimelapseGroup', { timelapseUuids: [timelapse] }, { key: outsider.org.apiKey }),
        await call('createSharedTimelapseGroup', { timelapseUuids: [nobodysUuid()] }, { key: outsider.org.apiKey }),
      );
      assert.deepEqual((await ok('getTimelapseClips', {}, { key: outsider.org.apiKey })).timelapseClips, []);
      const theirs = await media((await listed(timelapse)).videoUrl, withKey(outsider.org.apiKey));
      assert.equal(theirs.status, 404);
      assert.equal((await listed(timelapse)).status.state, 'COMPLETE', 'untouched');
    });
  });

  describe('shared timelapse groups', () => {
    it('createSharedTimelapseGroup: a link served without a key, listed, updated and deleted; announced', async () => {
      let created: any;
      const changes = await changesDuring(server, async () => {
        created = await ok('createSharedTimelapseGroup', { timelapseUuids: [timelapse, gif], title: 'Site progress', expirationTimeSecs: 3600 });
      });
      assert.ok(new RegExp(`^${server.gatehouse.urls.media}/media/shared/[A-Za-z0-9_-]+$`).test(created.shareUrl), created.shareUrl);
      const change = changes.find((c) => c.entity === 'SHARED_TIMELAPSE_GROUP');
      assert.deepEqual([change?.type, change?.entityUuid, (change?.update as any).sharedTimelapses.length], ['CREATE', created.uuid, 2]);

      const page = await media(created.shareUrl);
      assert.equal(page.status, 200);
      assert.deepEqual([page.json().kind, page.json().title, page.json().clips.map((c: any) => c.uuid)], ['TIMELAPSES', 'Site progress', [timelapse, gif]]);
      const video = await media(page.json().clips[0].videoUrl);
      assert.deepEqual([video.status, video.headers.get('cache-control')], [200, 'no-store']);
      assert.equal((await decodeMedia(video.body, 'mp4')).frames, 20);
      assert.equal((await media(page.json().clips[1].videoUrl, { range: 'bytes=0-5' })).body.toString('latin1'), 'GIF89a');

      const group = (await ok('getSharedTimelapseGroups', {})).sharedTimelapses.find((g: any) => g.uuid === created.uuid);
      assert.deepEqual(
        [group.title, group.orgUuid, group.isSecured, group.expirationTimeSecs, group.sharedTimelapses.map((t: any) => [t.uuid, t.clipFormat, t.clipDuration])],
        [
          'Site progress',
          site.org.orgUuid,
          false,
          3600,
          [
            [timelapse, 'MPEG', 2],
            [gif, 'GIF', 1],
          ],
        ],
      );
      assert.equal((await listed(timelapse)).shared, true);
      // Not a shared clip group, and a timelapse is not a clip to share as one.
      const clipGroups = await server.call('/api/event/getSharedClipGroupsV2', {}, { key: site.org.apiKey });
      assert.ok(!clipGroups.json.sharedClipGroups.some((g: any) => g.uuid === created.uuid));
      assertFails(
        await server.call('/api/event/createSharedClipGroupV3', { uuids: [{ eventUuid: timelapse }] }, { key: site.org.apiKey }),
        'Saved clip not found',
      );

      const updated = await changesDuring(server, async () => {
        const answer = await ok('updateSharedTimelapseGroup', { uuid: created.uuid, title: 'Progress', passwordUpdate: true, plaintextPassword: 'pw' });
        assert.deepEqual([answer.uuid, answer.shareUrl], [created.uuid, created.shareUrl]);
      });
      assert.equal(updated.find((c) => c.entity === 'SHARED_TIMELAPSE_GROUP')?.type, 'UPDATE');
      assert.equal((await media(created.shareUrl)).status, 401);
      assert.equal((await media(created.shareUrl, { 'x-share-password': 'nope' })).status, 401);
      assert.equal((await media(created.shareUrl, { 'x-share-password': 'pw' })).json().title, 'Progress');
      const secured = (await ok('getSharedTimelapseGroups', {})).sharedTimelapses.find((g: any) => g.uuid === created.uuid);
      assert.deepEqual([secured.title, secured.isSecured], ['Progress', true]);
      await ok('updateSharedTimelapseGroup', { uuid: created.uuid, passwordUpdate: true });
      assert.equal((await media(created.shareUrl)).status, 200, 'the password is gone');
      assertFails(await call('updateSharedTimelapseGroup', { uuid: created.uuid, expirationTimeUpdate: true }), /expirationTimeSecs/);

      assertSameAsMissing(
        await call('updateSharedTimelapseGroup', { uuid: created.uuid, title: 'Hijacked' }, { key: outsider.org.apiKey }),
        await call('updateSharedTimelapseGroup', { uuid: nobodysUuid(), title: 'Hijacked' }, { key: outsider.org.apiKey }),
      );
      assertSameAsMissing(
        await call('deleteSharedTimelapseGroup', { uuid: created.uuid }, { key: outsider.org.apiKey }),
        await call('deleteSharedTimelapseGroup', { uuid: nobodysUuid() }, { key: outsider.org.apiKey }),
      );
      assert.deepEqual((await ok('getSharedTimelapseGroups', {}, { key: outsider.org.apiKey })).sharedTimelapses, []);

      const deleted = await changesDuring(server, () => ok('deleteSharedTimelapseGroup', { uuid: created.uuid }));
      assert.equal(deleted.find((c) => c.entity === 'SHARED_TIMELAPSE_GROUP')?.type, 'DELETE');
      assert.equal((await media(created.shareUrl)).status, 404);
      assert.equal((await media(`${created.shareUrl}/clips/${timelapse}/video`)).status, 404);
      assert.equal((await listed(timelapse)).shared, false);
    });

    it('stops serving a link once it expires (410)', async () => {
      const created = await ok('createSharedTimelapseGroup', { timelapseUuids: [gif], expirationTimeSecs: 1 });
      await waitFor('the link to expire', async () => (await media(created.shareUrl)).status === 410, 5000, 100);
      assert.match((await media(created.shareUrl)).json().errorMsg, /expired/);
    });

    it('shareTimelapseClips: a link of its own for each timelapse', async () => {
      const { shareUrlMap } = await ok('shareTimelapseClips', { clipUuids: [timelapse, gif] });
      assert.deepEqual(Object.keys(shareUrlMap).sort(), [timelapse, gif].sort());
      assert.notEqual(shareUrlMap[timelapse], shareUrlMap[gif]);
      assert.deepEqual(
        (await media(shareUrlMap[gif])).json().clips.map((c: any) => c.uuid),
        [gif],
      );
    });
  });

  describe('deleteTimelapseClips', () => {
    it('deletes every one named or none; their media leaves the media host and the links forget them', async () => {
      const { shareUrl } = await ok('createSharedTimelapseGroup', { timelapseUuids: [timelapse] });
      const videoUrl = (await listed(timelapse)).videoUrl;
      assertFails(await call('deleteTimelapseClips', { clipUuids: [timelapse, nobodysUuid()] }), 'Timelapse clip not found');
      assert.ok(await listed(timelapse), 'none is deleted');

      const changes = await changesDuring(server, () => ok('deleteTimelapseClips', { clipUuids: [timelapse] }));
      assert.deepEqual(
        changes.filter((c) => c.entity === 'TIMELAPSE_CLIP').map((c) => [c.type, c.entityUuid]),
        [['DELETE', timelapse]],
      );
      assert.equal(await listed(timelapse), undefined);
      assert.equal((await media(videoUrl, withKey())).status, 404);
      assert.deepEqual((await media(shareUrl)).json().clips, []);
      assert.equal((await media(`${shareUrl}/clips/${timelapse}/video`)).status, 404);
      assert.equal((await call('deleteTimelapseClips', { clipUuids: [] })).status, 400);
    });
  });
});
