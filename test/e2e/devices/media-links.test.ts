import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import { parse } from 'mpd-parser';
import { forEachDialect } from '../../helpers/dialects.js';
import { jpegSize } from '../../helpers/media-decode.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { raiseAlerts, saveAlertAsClip, seedEventsSite, simulate, type EventsSite } from '../events/fixtures.js';

/**
 * The links Gatehouse hands out are absolute under the public media base and the media host serves them, as the
 * platform's clients follow them unresolved (client-calls.md section 2): alert and saved-clip locations, share
 * links, face and plate images (M14). The REST operations that only read take the web SDK's federated token.
 */
const bytesOf = async (r: Response) => Buffer.from(await r.arrayBuffer());
const AT = Date.now() - 3600_000;

forEachDialect('media links and federated reads', (dialect) => {
  let server: TestServer;
  let site: EventsSite;
  let outsider: EventsSite;
  let media: string;
  before(async () => {
    server = await startTestServer(dialect);
    site = await seedEventsSite(server, 'Media Links Org');
    outsider = await seedEventsSite(server, 'Media Links Outsider');
    media = server.gatehouse.urls.media;
  });
  after(() => server.close());
  const headers = (key = site.org.apiKey) => ({ 'x-auth-apikey': key, 'x-auth-scheme': 'api-token' });
  const rest = async (path: string, body: unknown, key = site.org.apiKey) => {
    const r = await server.call(path, body, { key });
    assert.equal(r.json?.error, false, `${path}: ${r.text}`);
    return r.json;
  };
  const absolute = (url: unknown) => {
    assert.equal(typeof url, 'string');
    assert.ok((url as string).startsWith(`${media}/`), `${url} is under the media base ${media}`);
    return url as string;
  };

  it("an alert's thumbnail and footage links are absolute, agree with its regions, and are served", async () => {
    const [raised] = await raiseAlerts(server, site.org.orgUuid, site.lobby, [AT]);
    const { policyAlert: alert } = await rest('/api/event/getPolicyAlertDetails', { policyAlertUuid: raised.uuid });
    const region = alert.thumbnailLocation.region as string;
    assert.equal(alert.clipLocation.region, region);
    assert.equal(alert.clipLocationMap[site.lobby].region, region);
    const thumbnail = absolute(alert.thumbnailLocationV2);
    assert.equal(thumbnail, `${media}/media/metadata/${region}/${raised.uuid}.jpeg`, 'the path the CLI builds (M8)');
    const jpeg = await fetch(thumbnail, { headers: headers() });
    assert.equal(jpeg.status, 200);
    assert.deepEqual(jpegSize(await bytesOf(jpeg)), { width: 480, height: 270 });
    const mpd = absolute(alert.clipLocationMapV2[site.lobby]);
    assert.equal(mpd, `${media}/media/metadata/${site.lobby}/${region}/${raised.uuid}/clip.mpd`, 'the path the webhook example builds (M10)');
    const manifest = await fetch(mpd, { headers: headers() });
    assert.equal(manifest.status, 200);
    assert.ok(parse(await manifest.text(), { manifestUri: mpd }).playlists[0].segments.length >= 1);
    assert.equal((await fetch(thumbnail, { headers: headers(outsider.org.apiKey) })).status, 404);
    // The change log (and the stream, which sends the same bodies) carries the alert with the same absolute links.
    const { changes } = await rest('/api/gatehouse/listChangesAfter', { afterPosition: 0, limit: 1000 });
    const change = (changes as any[]).find((c) => c.entityUuid === raised.uuid && c.type === 'CREATE');
    assert.equal(change.update.thumbnailLocationV2, thumbnail);
    assert.equal(change.update.clipLocationMapV2[site.lobby], mpd);
  });

  it("a saved clip's clipLocationV2 and thumbnailLocationV2 are absolute and serve its media", async () => {
    const [raised] = await raiseAlerts(server, site.org.orgUuid, site.dock, [AT - 60_000]);
    const clipUuid = await saveAlertAsClip(rest, raised.uuid);
    const parts = { video: randomBytes(4000), thumbnail: randomBytes(300) };
    for (const [part, body] of Object.entries(parts)) {
      const put = await fetch(`${media}/media/clips/${clipUuid}/${part}`, {
        method: 'PUT',
        headers: { ...headers(), 'content-type': part === 'video' ? 'video/mp4' : 'image/jpeg' },
        body: new Uint8Array(body),
      });
      assert.equal(put.status, 200, await put.text());
    }
    const { savedClip } = await rest('/api/event/getSavedClipDetails', { clipUuid });
    assert.ok((await bytesOf(await fetch(absolute(savedClip.clipLocationV2), { headers: headers() }))).equals(parts.video));
    assert.ok((await bytesOf(await fetch(absolute(savedClip.thumbnailLocationV2), { headers: headers() }))).equals(parts.thumbnail));
    const listed = (await rest('/api/event/getSavedClipsV2', {})).savedClips as any[];
    absolute(listed.find((c) => c.uuid === clipUuid).clipLocationV2);
  });

  it('live-share links and their pages are absolute', async () => {
    const created = await rest('/api/camera/createSharedLiveVideoStream', { cameraUuid: site.lobby, expirationTimeSecs: 600 });
    const page = await fetch(absolute(created.sharedLiveVideoStreamUrl));
    assert.equal(page.status, 200);
    const [camera] = ((await page.json()) as any).cameras;
    assert.equal(absolute(camera.playlistUrl), created.sharedLiveM3U8StreamUrl);
    assert.match(await (await fetch(camera.playlistUrl)).text(), /^#EXTM3U/);
  });

  it('M14: face and plate images by the keys the REST API answers; another organization or an unknown key is 404', async () => {
    const sighting = (await simulate(server, 'face', { camera: site.lobby, at: String(AT) })).faceEvent;
    const { faceEvent } = await rest('/api/faceRecognition/faceEvent/getFaceEvent', { eventUuid: sighting.uuid });
    const plate = (await simulate(server, 'plate', { camera: site.dock, plate: 'GATE42', at: String(AT) })).vehicleEvent;
    const face = (key: string, h = headers()) => fetch(`${media}/media/faces?s3ObjectKey=${encodeURIComponent(key)}`, { headers: h });
    for (const [key, size] of [
      [faceEvent.thumbnailS3Key, { width: 480, height: 270 }],
      [faceEvent.imageS3Key, { width: 1920, height: 1080 }],
      [plate.thumbnailS3Key, { width: 480, height: 270 }],
    ] as const) {
      const r = await face(key);
      assert.equal(r.status, 200, key);
      assert.equal(r.headers.get('content-type'), 'image/jpeg');
      assert.deepEqual(jpegSize(await bytesOf(r)), size);
      assert.equal((await face(key, headers(outsider.org.apiKey))).status, 404, 'another organization');
    }
    assert.equal((await face(faceEvent.thumbnailS3Key.replace(sighting.uuid, plate.uuid))).status, 404, 'a plate read is no face sighting');
    assert.equal((await face('../../etc/passwd')).status, 404);
    assert.equal((await fetch(`${media}/media/faces`, { headers: headers() })).status, 400);
  });

  it('the REST reads take a federated token (headers or query), for its organization only; writes and forged tokens are refused', async () => {
    const token = (await rest('/api/org/generateFederatedSessionToken', { durationSec: 300 })).federatedSessionToken as string;
    const federated = { 'x-auth-scheme': 'federated-token', 'x-auth-ft': token };
    const uris = await server.call('/api/camera/getMediaUris', { cameraUuid: site.lobby }, { headers: federated });
    assert.equal(uris.json.error, false, uris.text);
    absolute(uris.json.wanVodMpdUriTemplate);
    // The web SDK's presence windows carry the scheme and the token as query parameters.
    const query = `?x-auth-scheme=federated-token&x-auth-ft=${encodeURIComponent(token)}`;
    const windows = await server.call(`/api/camera/getPresenceWindows${query}`, {
      cameraUuid: site.lobby,
      startTimeSec: Math.floor(AT / 1000),
      durationSec: 600,
    });
    assert.equal(windows.json.error, false, windows.text);
    assert.ok(windows.json.presenceWindows);
    const theirs = await server.call('/api/camera/getMediaUris', { cameraUuid: outsider.lobby }, { headers: federated });
    assert.notEqual(theirs.json.error, false, 'another organization is unknown');
    assert.equal(theirs.json.wanVodMpdUriTemplate ?? null, null);
    const write = await server.call('/api/org/generateFederatedSessionToken', {}, { headers: federated });
    assert.equal(write.status, 403, 'a token only reads');
    const forged = await server.call('/api/camera/getMediaUris', { cameraUuid: site.lobby }, { headers: { ...federated, 'x-auth-ft': 'forged' } });
    assert.equal(forged.status, 401);
  });
});
