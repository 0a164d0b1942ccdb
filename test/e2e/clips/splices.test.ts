import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { apiAs } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { decodeMedia } from '../../helpers/media-decode.js';
import { expectDenied, readOnlyKey, watchChanges } from '../../helpers/org-structure.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import { startInstance } from '../../helpers/instances.js';
import { saveClips, seedEventsSite, type EventsSite } from '../events/fixtures.js';

const T0 = Date.UTC(2024, 9, 1, 8);
const RENDER_WAIT_MS = 60_000;

forEachDialect('splices: saved clips rendered from the footage', (dialect) => {
  let server: TestServer;
  let site: EventsSite;
  let outsider: TestOrg;
  before(async () => {
    server = await startTestServer(dialect);
    site = await seedEventsSite(server, 'Splice Org');
    outsider = await server.createOrg('Splice Outsider');
  });
  after(() => server.close());

  const { call, ok } = apiAs(
    () => server,
    () => site.org.apiKey,
  );
  const clipOf = async (clipUuid: string) => (await ok('/api/event/getClipWithProgress', { clipUuid })).clip;
  const until = (clipUuid: string, status: string) =>
    waitFor(
      `clip ${clipUuid} ${status}`,
      async () => {
        const clip = await clipOf(clipUuid);
        return clip.status === status ? clip : null;
      },
      RENDER_WAIT_MS,
      50,
    );
  // Clip locations are absolute (under the public media base).
  const media = (url: string, key = site.org.apiKey) => fetch(url, { headers: { 'x-auth-apikey': key } });

  describe('spliceV3', () => {
    it('renders the camera footage into a real MP4, each status on the stream', async () => {
      const stream = await watchChanges(server, site.org.apiKey, site.org.orgUuid);
      try {
        const json = await ok('/api/video/spliceV3', {
          deviceUuids: [`${site.lobby}.v0`],
          startTimeMillis: T0,
          durationSec: 2,
          title: 'Lobby walk-through',
          accessSettings: { visibility: 'ROLE_RESTRICTED', allowedRoles: [] },
        });
        assert.deepEqual(json.clipUuidList, [json.clipUuid]);
        const clip = await until(json.clipUuid, 'COMPLETE');
        assert.deepEqual(
          [clip.percentComplete, clip.durationSec, clip.timestampMs, clip.deviceUuid, clip.title, clip.accessSettings.visibility],
          [100, 2, T0, `${site.lobby}.v0`, 'Lobby walk-through', 'ROLE_RESTRICTED'],
        );
        await stream.waitFor((c) => c.entityUuid === json.clipUuid && c.update.status === 'COMPLETE', 'COMPLETE on the stream');
        const statuses = stream
          .bodies()
          .filter((c) => c.entity === 'SAVED_CLIP' && c.entityUuid === json.clipUuid)
          .map((c) => c.update.status);
        assert.deepEqual(statuses, ['INITIATING', 'UPLOADING', 'RENDERING', 'COMPLETE']);

        const r = await media(clip.clipLocationV2);
        assert.equal(r.status, 200);
        assert.equal(r.headers.get('content-type'), 'video/mp4');
        const video = Buffer.from(await r.arrayBuffer());
        assert.equal(video.length, clip.byteCount);
        assert.equal(createHash('sha256').update(video).digest('hex'), clip.sha256Hex);
        const decoded = await decodeMedia(video, 'mp4');
        assert.deepEqual([decoded.codec, decoded.width, decoded.height], ['h264', 480, 270]);
        assert.ok(decoded.durationSec !== null && Math.abs(decoded.durationSec - 2) < 0.5, `duration ${decoded.durationSec}`);
        assert.ok(decoded.frames >= 5, `frames ${decoded.frames}`);
        const foreign = await media(clip.clipLocationV2, outsider.apiKey);
        assert.equal(foreign.status, 404);
        await foreign.arrayBuffer();
      } finally {
        await stream.close();
      }
    });

    it('splices one clip per camera, and splice and spliceV2 one each', async () => {
      const both = await ok('/api/video/spliceV3', { deviceUuids: [site.lobby, `${site.dock}.v0`], startTimeMillis: T0 - 60_000, durationSec: 1 });
      assert.equal(both.clipUuidList.length, 2);
      const cameras = await Promise.all(both.clipUuidList.map(async (u: string) => (await until(u, 'COMPLETE')).deviceUuid));
      assert.deepEqual(cameras.sort(), [`${site.lobby}.v0`, `${site.dock}.v0`].sort());
      const v1 = await ok('/api/video/splice', { deviceUuid: site.dock, startTime: T0 - 120_000, duration: 1 });
      const v2 = await ok('/api/video/spliceV2', { deviceUuids: [site.lobby], startTimeMillis: T0 - 180_000, durationSec: 1, title: 'V2' });
      const one = await until(v1.clipUuid, 'COMPLETE');
      const two = await until(v2.clipUuid, 'COMPLETE');
      assert.deepEqual([one.deviceUuid, one.timestampMs, one.durationSec], [`${site.dock}.v0`, T0 - 120_000, 1]);
      assert.deepEqual([two.deviceUuid, two.title], [`${site.lobby}.v0`, 'V2']);
    });

    it("refuses beyond the longest splice, future footage, another organization's camera and bad input", async () => {
      const max = (await ok('/api/video/getMaxSpliceDuration', {})).maxDuration;
      assert.equal(max, 600);
      const before = (await ok('/api/event/getSavedClipCount', {})).count;
      const long = await call('/api/video/spliceV3', { deviceUuids: [site.lobby], startTimeMillis: T0, durationSec: max + 1 });
      assert.match(long.json.errorMsg, /at most 600 seconds/);
      const future = await call('/api/video/spliceV3', { deviceUuids: [site.lobby], startTimeMillis: Date.now() + 60_000, durationSec: 5 });
      assert.match(future.json.errorMsg, /after now/);
      const foreign = await call('/api/video/spliceV3', { deviceUuids: [site.lobby], startTimeMillis: T0, durationSec: 5 }, { key: outsider.apiKey });
      assert.equal(foreign.json.errorMsg, 'Camera not found');
      // All or nothing: a foreign camera among ours refuses the whole splice.
      const outsiderSite = await seedEventsSite(server, 'Splice Outsider Site');
      const mixed = await call('/api/video/spliceV3', { deviceUuids: [site.lobby, outsiderSite.dock], startTimeMillis: T0, durationSec: 5 });
      assert.equal(mixed.json.errorMsg, 'Camera not found');
      assert.equal((await ok('/api/event/getSavedClipCount', {})).count, before);
      assert.equal((await call('/api/video/spliceV3', { deviceUuids: [], startTimeMillis: T0, durationSec: 5 })).status, 400);
      assert.equal((await call('/api/video/spliceV3', { deviceUuids: ['lobby'], startTimeMillis: T0, durationSec: 5 })).status, 400);
      assert.equal((await call('/api/video/spliceV3', { deviceUuids: [site.lobby], startTimeMillis: T0, durationSec: 0 })).status, 400);
      assert.equal((await call('/api/video/splice', { deviceUuid: site.lobby, startTime: T0 })).status, 400);
      expectDenied(
        await call('/api/video/spliceV3', { deviceUuids: [site.lobby], startTimeMillis: T0, durationSec: 1 }, { key: await readOnlyKey(server, site.org) }),
      );
    });
  });

  describe('cancelSpliceV2, retrySplice and getSplicedClipsInProgress', () => {
    it('cancels a splice to FAILED, lists it, and renders it on retry', async () => {
      // One render at a time: the long one ahead keeps the next waiting while it is cancelled.
      const ahead = await ok('/api/video/spliceV3', { deviceUuids: [site.dock], startTimeMillis: T0 - 3_600_000, durationSec: 60 });
      const target = await ok('/api/video/spliceV3', { deviceUuids: [site.lobby], startTimeMillis: T0 - 7_200_000, durationSec: 1 });
      const listed = async (path: string, key = site.org.apiKey) => (await ok(path, {}, { key: key })).splicedClips;
      assert.ok((await listed('/api/video/getSplicedClipsInProgress')).some((s: any) => s.clipUuid === target.clipUuid));

      const foreign = await call('/api/video/cancelSpliceV2', { clipUuid: target.clipUuid }, { key: outsider.apiKey });
      assert.equal(foreign.json.errorMsg, 'Spliced clip not found');
      await ok('/api/video/cancelSpliceV2', { clipUuidList: [target.clipUuid] });
      assert.equal((await clipOf(target.clipUuid)).status, 'FAILED');
      for (const path of ['/api/video/getSplicedClipsInProgress', '/api/event/getSplicedClipsInProgress']) {
        const entry = (await listed(path)).find((s: any) => s.clipUuid === target.clipUuid);
        assert.deepEqual([entry?.status, entry?.deviceUuid, entry?.startTime, entry?.duration], ['FAILED', `${site.lobby}.v0`, T0 - 7_200_000, 1], path);
        assert.deepEqual(await listed(path, outsider.apiKey), []);
      }
      assert.match((await call('/api/video/cancelSplice', { clipUuid: target.clipUuid })).json.errorMsg, /only a splice in progress/);

      assert.equal((await call('/api/video/retrySplice', { clipUuid: target.clipUuid }, { key: outsider.apiKey })).json.errorMsg, 'Spliced clip not found');
      await ok('/api/video/retrySplice', { clipUuid: target.clipUuid });
      const done = await until(target.clipUuid, 'COMPLETE');
      const video = await media(done.clipLocationV2);
      assert.equal((await decodeMedia(Buffer.from(await video.arrayBuffer()), 'mp4')).codec, 'h264');
      await until(ahead.clipUuid, 'COMPLETE');
      assert.ok(!(await listed('/api/video/getSplicedClipsInProgress')).some((s: any) => s.clipUuid === target.clipUuid));
      assert.match((await call('/api/video/retrySplice', { clipUuid: target.clipUuid })).json.errorMsg, /only a failed splice/);
      assert.match((await call('/api/video/cancelSpliceV2', {})).json.errorMsg, /name the splice/);
      assert.equal((await call('/api/video/retrySplice', {})).status, 400);
    });
  });

  describe('a render that stopped with its instance', () => {
    it('is marked FAILED by the next instance that starts, and retrySplice takes it', async () => {
      const [uuid] = await saveClips(server, site.org.orgUuid, site.dock, [T0 - 86_400_000]);
      // As a render under way on an instance that stopped ten minutes ago leaves it.
      await server.gatehouse.deps.store.db
        .updateTable('saved_clips')
        .set({ spliced: 1, status: 'UPLOADING', updated_at_ms: Date.now() - 10 * 60_000 })
        .where('uuid', '=', uuid)
        .execute();
      const next = await startInstance({ databaseUrl: server.config.databaseUrl });
      try {
        await until(uuid, 'FAILED');
        await ok('/api/video/retrySplice', { clipUuid: uuid });
        await until(uuid, 'COMPLETE');
      } finally {
        await next.stop();
      }
    });
  });
});
