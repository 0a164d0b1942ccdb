import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { decodeMedia, decodeUrl } from '../../helpers/media-decode.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, changesDuring, createSiteOrg, nobodysUuid, type SiteOrg } from '../config/config-site.js';
import { apiAs, assertFails, assertOk } from '../../helpers/api.js';

forEachDialect('raw HTTP streams of cameras', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Raw Org');
    other = await createSiteOrg(server, 'Other Raw Org');
  });
  after(() => server.close());

  const { call, ok } = apiAs(
    () => server,
    () => org.apiKey,
    '/api/camera',
  );
  const media = async (path: string, headers: Record<string, string> = {}) => {
    // Stream URLs are absolute (under the public media base); the paths the tests build are relative to the media host.
    const r = await fetch(path.startsWith('http') ? path : server.gatehouse.urls.media + path, { headers });
    return { status: r.status, headers: r.headers, body: Buffer.from(await r.arrayBuffer()) };
  };
  const lobby = () => org.site.cameras.Lobby;
  const secretOf = (url: string) => new URL(url, 'http://media').searchParams.get('secret')!;
  const pathOf = (url: string) => url.split('?')[0].replace(server.gatehouse.urls.media, '');

  let created: { lanVideoUrl: string; lanVideoLowResUrl: string; lanAudioUrl: string | null };

  describe('createRawHttpStream, getRawHttpStreams and findAllRawHttpStreams', () => {
    it('answers URLs that carry the secret once; lists mask it; announced', async () => {
      const changes = await changesDuring(server, async () => {
        created = await ok('createRawHttpStream', { deviceUuid: `${lobby()}.v0`, rawStreamName: 'NVR feed', streamType: 'USER' });
      });
      assert.ok(created.lanVideoUrl.startsWith(`${server.gatehouse.urls.media}/media/raw/`), created.lanVideoUrl);
      assert.match(created.lanVideoUrl, /\/media\/raw\/[A-Za-z0-9_-]+\/video\.ts\?secret=[A-Za-z0-9_-]{32}$/);
      assert.equal(created.lanVideoLowResUrl, created.lanVideoUrl.replace('/video.ts', '/video-low.ts'));
      assert.equal(created.lanAudioUrl, null);
      const secret = secretOf(created.lanVideoUrl);
      const customPathPart = pathOf(created.lanVideoUrl).split('/')[3];
      const change = changes.find((c) => c.entity === 'RAW_HTTP_STREAM');
      assert.deepEqual([change?.type, change?.entityUuid, change?.deviceUuid], ['CREATE', customPathPart, lobby()]);
      assert.doesNotMatch(JSON.stringify(change?.update), new RegExp(secret));

      const listed = await call('getRawHttpStreams', { deviceUuid: lobby() });
      assertOk(listed);
      assert.doesNotMatch(listed.text, new RegExp(secret), 'the secret is never listed');
      const [stream] = listed.json.rawHttpStreams;
      assert.deepEqual(
        [stream.customPathPart, stream.name, stream.deviceUuid, stream.deviceType, stream.streamType, stream.orgUuid, stream.createdBy],
        [customPathPart, 'NVR feed', `${lobby()}.v0`, 'CAMERA', 'USER', org.orgUuid, org.userUuid],
      );
      assert.deepEqual([stream.videoPath, stream.videoLowResPath], [pathOf(created.lanVideoUrl), pathOf(created.lanVideoLowResUrl)]);
      assert.equal(stream.lanVideoUrl, `${server.gatehouse.urls.media}${stream.videoPath}?secret=${encodeURIComponent(`****${secret.slice(-4)}`)}`);
      assert.deepEqual(
        (await ok('findAllRawHttpStreams', {})).rawHttpStreams.map((s: any) => s.customPathPart),
        [customPathPart],
      );
      assert.deepEqual((await ok('getRawHttpStreams', { deviceUuid: org.site.cameras.Dock })).rawHttpStreams, []);
    });
  });

  describe('the stream on the media host', () => {
    it('serves the live video as one continuous MPEG-TS to the secret, at both sizes', async () => {
      const response = await media(`${created.lanVideoUrl}&durationSec=4`);
      assert.deepEqual([response.status, response.headers.get('content-type')], [200, 'video/mp2t']);
      const decoded = await decodeMedia(response.body, 'ts');
      assert.deepEqual([decoded.codec, decoded.width, decoded.height, decoded.frames], ['h264', 1280, 720, 40]);
      assert.ok(decoded.durationSec !== null && Math.abs(decoded.durationSec - 4) < 0.3, `duration ${decoded.durationSec}`);

      const low = await decodeMedia((await media(`${created.lanVideoLowResUrl}&durationSec=2`)).body, 'ts');
      assert.deepEqual([low.codec, low.width, low.height, low.frames], ['h264', 640, 360, 20]);
      // A player given the URL plays it as it comes.
      const played = await decodeUrl(`${created.lanVideoLowResUrl}&durationSec=2`, 2);
      assert.deepEqual([played.codec, played.width], ['h264', 640]);
    });

    it('takes the secret as the password of Basic authentication, and refuses a request without it or with a wrong one', async () => {
      const basic = `Basic ${Buffer.from(`nvr:${secretOf(created.lanVideoUrl)}`).toString('base64')}`;
      const viaBasic = await media(`${pathOf(created.lanVideoLowResUrl)}?durationSec=2`, { authorization: basic });
      assert.equal(viaBasic.status, 200);
      assert.equal((await decodeMedia(viaBasic.body, 'ts')).frames, 20);
      const bare = await media(pathOf(created.lanVideoUrl));
      assert.deepEqual([bare.status, bare.headers.get('www-authenticate')], [401, 'Basic realm="raw stream"']);
      assert.equal((await media(`${pathOf(created.lanVideoUrl)}?secret=${'x'.repeat(32)}`)).status, 401);
      assert.equal((await media(`${pathOf(created.lanVideoUrl)}?secret=${secretOf(created.lanVideoUrl)}&durationSec=9999`)).status, 400);
      assert.equal((await media(`/media/raw/AAAAAAAAAAAAAAAA/video.ts?secret=${secretOf(created.lanVideoUrl)}`)).status, 404);
    });
  });

  describe('deleteRawHttpStream', () => {
    it("answers another organization's cameras and streams exactly as missing ones", async () => {
      const customPathPart = pathOf(created.lanVideoUrl).split('/')[3];
      for (const [op, body] of [
        ['createRawHttpStream', { deviceUuid: other.site.cameras.Lobby }],
        ['getRawHttpStreams', { deviceUuid: other.site.cameras.Lobby }],
        ['deleteRawHttpStream', { deviceUuid: other.site.cameras.Lobby, customPathPart }],
      ] as const) {
        assertSameAsMissing(await call(op, body), await call(op, { ...body, deviceUuid: nobodysUuid() }));
      }
      assertSameAsMissing(
        await call('deleteRawHttpStream', { deviceUuid: lobby(), customPathPart }, { key: other.apiKey }),
        await call('deleteRawHttpStream', { deviceUuid: nobodysUuid(), customPathPart }, { key: other.apiKey }),
      );
      assert.deepEqual((await ok('findAllRawHttpStreams', {}, { key: other.apiKey })).rawHttpStreams, []);
      assertFails(await call('deleteRawHttpStream', { deviceUuid: org.site.cameras.Dock, customPathPart }), 'Raw HTTP stream not found');
      assert.equal((await media(`${created.lanVideoLowResUrl}&durationSec=2`)).status, 200, 'still served');
    });

    it('deletes the stream: its path answers 404 and the lists forget it; announced', async () => {
      const customPathPart = pathOf(created.lanVideoUrl).split('/')[3];
      const changes = await changesDuring(server, () => ok('deleteRawHttpStream', { deviceUuid: `${lobby()}.v0`, customPathPart }));
      assert.deepEqual(
        changes.filter((c) => c.entity === 'RAW_HTTP_STREAM').map((c) => [c.type, c.entityUuid]),
        [['DELETE', customPathPart]],
      );
      assert.equal((await media(created.lanVideoUrl)).status, 404);
      assert.deepEqual((await ok('getRawHttpStreams', { deviceUuid: lobby() })).rawHttpStreams, []);
      assertFails(await call('deleteRawHttpStream', { deviceUuid: lobby(), customPathPart }), 'Raw HTTP stream not found');
      for (const body of [{}, { deviceUuid: lobby() }, { deviceUuid: 'nope', customPathPart }]) {
        assert.equal((await call('deleteRawHttpStream', body)).status, 400, JSON.stringify(body));
      }
    });
  });
});
