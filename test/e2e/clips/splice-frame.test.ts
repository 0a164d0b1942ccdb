import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { decodeMedia, jpegSize } from '../../helpers/media-decode.js';
import { expectDenied, readOnlyKey, watchChanges } from '../../helpers/org-structure.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import { assertSameAsMissing, nobodysUuid } from '../config/config-site.js';
import { seedEventsSite, type EventsSite } from '../events/fixtures.js';
import { assertFails } from '../../helpers/api.js';

const AT = Date.UTC(2025, 2, 3, 14, 30, 15);

forEachDialect('spliceFrame: a saved JPEG frame of a camera', (dialect) => {
  let server: TestServer;
  let site: EventsSite;
  let outsider: EventsSite;
  before(async () => {
    server = await startTestServer(dialect);
    site = await seedEventsSite(server, 'Frame Org');
    outsider = await seedEventsSite(server, 'Frame Outsider');
  });
  after(() => server.close());

  const call = (path: string, body: unknown, key = site.org.apiKey) => server.call(path, body, { key });
  const clipOf = async (clipUuid: string) => (await call('/api/event/getClipWithProgress', { clipUuid })).json.clip;
  const media = async (path: string, headers: Record<string, string>) => {
    // Clip locations are absolute (under the public media base).
    const r = await fetch(path, { headers });
    return { status: r.status, headers: r.headers, body: Buffer.from(await r.arrayBuffer()) };
  };

  describe('POST /api/video/spliceFrame', () => {
    it("saves the camera's frame at the instant as a real JPEG, each status of its render on the stream", async () => {
      const stream = await watchChanges(server, site.org.apiKey, site.org.orgUuid);
      try {
        const r = await call('/api/video/spliceFrame', { deviceUuid: `${site.lobby}.v0`, timestampMs: AT });
        assert.equal(r.json.error, false, r.text);
        assert.equal(r.json.region, 'us');
        const uuid = r.json.clipUuid as string;
        const clip = await waitFor(`frame ${uuid}`, async () => ((await clipOf(uuid))?.status === 'COMPLETE' ? clipOf(uuid) : null), 30_000, 50);
        assert.deepEqual(
          [clip.durationSec, clip.timestampMs, clip.deviceUuid, clip.percentComplete, clip.videoResolution],
          [0, AT, `${site.lobby}.v0`, 100, { width: 1920, height: 1080 }],
        );
        await stream.waitFor((c) => c.entityUuid === uuid && c.update.status === 'COMPLETE', 'COMPLETE on the stream');
        assert.deepEqual(
          stream
            .bodies()
            .filter((c) => c.entity === 'SAVED_CLIP' && c.entityUuid === uuid)
            .map((c) => [c.type, c.update.status]),
          [
            ['CREATE', 'INITIATING'],
            ['UPDATE', 'UPLOADING'],
            ['UPDATE', 'RENDERING'],
            ['UPDATE', 'COMPLETE'],
          ],
        );

        const key = { 'x-auth-apikey': site.org.apiKey };
        const frame = await media(clip.clipLocationV2, key);
        assert.deepEqual([frame.status, frame.headers.get('content-type'), frame.body.length], [200, 'image/jpeg', clip.byteCount]);
        assert.deepEqual(jpegSize(frame.body), { width: 1920, height: 1080 });
        const decoded = await decodeMedia(frame.body, 'jpg');
        assert.deepEqual([decoded.codec, decoded.width, decoded.height], ['mjpeg', 1920, 1080]);
        const thumbnail = await media(clip.thumbnailLocationV2, key);
        assert.deepEqual([thumbnail.headers.get('content-type'), thumbnail.body], ['image/jpeg', frame.body]);
        const part = await media(clip.clipLocationV2, { ...key, range: 'bytes=0-1' });
        assert.deepEqual([part.status, [...part.body]], [206, [0xff, 0xd8]]);
        assert.equal((await media(clip.clipLocationV2, { 'x-auth-apikey': outsider.org.apiKey })).status, 404);

        const saved = await call('/api/event/getSavedClipsV2', {});
        assert.ok(
          saved.json.savedClips.some((c: any) => c.uuid === uuid),
          'a saved clip',
        );
      } finally {
        await stream.close();
      }
    });

    it("refuses a frame after now, another organization's camera (as a missing one), a read-only key and bad input", async () => {
      assertFails(await call('/api/video/spliceFrame', { deviceUuid: site.lobby, timestampMs: Date.now() + 60_000 }), /after now/);
      assertSameAsMissing(
        await call('/api/video/spliceFrame', { deviceUuid: site.lobby, timestampMs: AT }, outsider.org.apiKey),
        await call('/api/video/spliceFrame', { deviceUuid: nobodysUuid(), timestampMs: AT }, outsider.org.apiKey),
      );
      expectDenied(await call('/api/video/spliceFrame', { deviceUuid: site.lobby, timestampMs: AT }, await readOnlyKey(server, site.org)));
      for (const body of [{}, { deviceUuid: site.lobby }, { deviceUuid: site.lobby, timestampMs: -1 }]) {
        assert.equal((await call('/api/video/spliceFrame', body)).status, 400, JSON.stringify(body));
      }
      assert.deepEqual((await call('/api/event/getSavedClipsV2', {}, outsider.org.apiKey)).json.savedClips, []);
    });
  });
});
