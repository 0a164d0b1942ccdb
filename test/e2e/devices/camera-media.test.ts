import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { decodeMedia, jpegSize } from '../../helpers/media-decode.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, createSiteOrg, nobodysUuid, type SiteOrg } from '../config/config-site.js';
import { assertOk } from '../../helpers/api.js';

const AT = Date.UTC(2026, 0, 5, 12, 0, 0);

forEachDialect('camera media: URIs, exact frames, clips and federated session tokens', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Media Org');
    other = await createSiteOrg(server, 'Other Org');
  });
  after(() => server.close());
  const call = (path: string, body: object, key = org.apiKey) => server.call(path, body, { key });
  const media = (path: string, headers: Record<string, string> = {}) => fetch(server.gatehouse.urls.media + path, { headers });
  const withKey = (key = org.apiKey) => ({ 'x-auth-apikey': key });

  it('the operations require authentication', async () => {
    for (const path of ['/api/camera/getMediaUris', '/api/video/getExactFrameUri', '/api/org/generateFederatedSessionToken']) {
      assert.equal((await call(path, {}, '')).status, 401, path);
    }
  });

  describe('getExactFrameUri', () => {
    it('answers a URI on the media host that serves a real JPEG of the camera at that size', async () => {
      const r = await call('/api/video/getExactFrameUri', { cameraUuid: org.site.cameras.Lobby, timestampMs: AT, downscaleFactor: 4, jpgQuality: 70 });
      assertOk(r);
      // Absolute, on the media host: the clients fetch it as it is (M1).
      assert.ok(r.json.frameUri.startsWith(`${server.gatehouse.urls.media}/media/cameras/${org.site.cameras.Lobby}/frame.jpg?`), r.json.frameUri);
      const response = await fetch(r.json.frameUri, { headers: withKey() });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'image/jpeg');
      const jpeg = Buffer.from(await response.arrayBuffer());
      assert.deepEqual(jpegSize(jpeg), { width: 480, height: 270 });
      const decoded = await decodeMedia(jpeg, 'jpg');
      assert.deepEqual([decoded.codec, decoded.width, decoded.height], ['mjpeg', 480, 270]);
    });

    it("answers another organization's camera exactly as a missing one, and a malformed body with 400", async () => {
      assertSameAsMissing(
        await call('/api/video/getExactFrameUri', { cameraUuid: other.site.cameras.Lobby, timestampMs: AT }),
        await call('/api/video/getExactFrameUri', { cameraUuid: nobodysUuid(), timestampMs: AT }),
      );
      for (const body of [{}, { cameraUuid: org.site.cameras.Lobby }, { cameraUuid: org.site.cameras.Lobby, timestampMs: AT, downscaleFactor: 0 }]) {
        assert.equal((await call('/api/video/getExactFrameUri', body)).status, 400, JSON.stringify(body));
      }
    });
  });

  describe('the media host', () => {
    it("refuses a frame without credentials or with a bad token, and never serves another organization's camera", async () => {
      const path = `/media/cameras/${org.site.cameras.Lobby}/frame.jpg?timestampMs=${AT}&downscaleFactor=8`;
      assert.equal((await media(path)).status, 401);
      assert.equal((await media(path, { 'x-auth-ft': 'v1.not.a.token' })).status, 401);
      const theirs = (await call('/api/org/generateFederatedSessionToken', { durationSec: 60 }, other.apiKey)).json.federatedSessionToken;
      const foreign = await media(path, { 'x-auth-ft': theirs });
      assert.equal(foreign.status, 404);
      assert.notEqual(foreign.headers.get('content-type'), 'image/jpeg');
      assert.equal((await media(path, withKey(other.apiKey))).status, 404);
    });

    it('accepts a federated session token as the x-auth-ft header and as a cookie', async () => {
      const r = await call('/api/org/generateFederatedSessionToken', { domain: 'example.com', durationSec: 120 });
      assertOk(r);
      const token = r.json.federatedSessionToken as string;
      assert.ok(token.length > 20);
      const path = `/media/cameras/${org.site.cameras.Lobby}/frame.jpg?timestampMs=${AT}&downscaleFactor=8`;
      for (const headers of [{ 'x-auth-ft': token }, { cookie: `theme=dark; x-auth-ft=${encodeURIComponent(token)}` }] as Record<string, string>[]) {
        const response = await media(path, headers);
        assert.equal(response.status, 200, JSON.stringify(Object.keys(headers)));
        assert.deepEqual(jpegSize(Buffer.from(await response.arrayBuffer())), { width: 240, height: 136 });
      }
    });

    it('serves a clip as a playable H.264 MP4 of the asked duration, honouring a Range request', async () => {
      const uris = await call('/api/camera/getMediaUris', { cameraUuid: org.site.cameras.Lobby });
      assertOk(uris);
      const template = uris.json.wanVodH264UriTemplate as string;
      const path =
        template.replace(server.gatehouse.urls.media, '').replace('{START_TIME_MS}', String(AT)).replace('{DURATION_SEC}', '2') + '&downscaleFactor=8';
      const response = await media(path, withKey());
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'video/mp4');
      const mp4 = Buffer.from(await response.arrayBuffer());
      assert.equal(mp4.subarray(4, 8).toString('latin1'), 'ftyp');
      const decoded = await decodeMedia(mp4, 'mp4');
      assert.deepEqual([decoded.codec, decoded.width, decoded.height], ['h264', 240, 136]);
      assert.ok(decoded.durationSec !== null && Math.abs(decoded.durationSec - 2) < 0.2, `duration ${decoded.durationSec}`);
      assert.ok(decoded.frames >= 15, `${decoded.frames} frames`);

      const partial = await media(path, { ...withKey(), range: 'bytes=0-99' });
      assert.equal(partial.status, 206);
      assert.equal(partial.headers.get('content-range'), `bytes 0-99/${mp4.length}`);
      assert.deepEqual(Buffer.from(await partial.arrayBuffer()), mp4.subarray(0, 100));
      assertSameAsMissing(
        await call('/api/camera/getMediaUris', { cameraUuid: other.site.cameras.Lobby }),
        await call('/api/camera/getMediaUris', { cameraUuid: nobodysUuid() }),
      );
    });
  });
});
