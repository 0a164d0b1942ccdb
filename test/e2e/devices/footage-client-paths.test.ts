import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import { parse } from 'mpd-parser';
import { forEachDialect } from '../../helpers/dialects.js';
import { decodeMedia, jpegSize } from '../../helpers/media-decode.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import { raiseAlerts, saveAlertAsClip, seedEventsSite, type EventsSite } from '../events/fixtures.js';

/**
 * The media paths the platform's clients build (client-calls.md M8 to M11, M13, M15), each fetched the way its
 * client does, with the authentication it presents; another organization's media answers 404 and no byte.
 */
const bytesOf = async (r: Response) => Buffer.from(await r.arrayBuffer());
const AT = Date.now() - 3600_000;

forEachDialect('the media paths the clients build', (dialect) => {
  let server: TestServer;
  let site: EventsSite;
  let outsider: EventsSite;
  let media: string;
  let alertUuid: string;
  before(async () => {
    server = await startTestServer(dialect);
    site = await seedEventsSite(server, 'Client Paths Org');
    outsider = await seedEventsSite(server, 'Client Paths Outsider');
    media = server.gatehouse.urls.media;
    const [alert] = await raiseAlerts(server, site.org.orgUuid, site.lobby, [AT]);
    alertUuid = alert.uuid;
  });
  after(() => server.close());
  // The CLI's four API-key schemes (M8, M9).
  const schemes = ['api-token', 'partner-api-token'];
  const headers = (key = site.org.apiKey, scheme = 'api-token') => ({ 'x-auth-apikey': key, 'x-auth-scheme': scheme });
  const get = (path: string, h: Record<string, string> = headers()) => fetch(media + path, { headers: h });
  const answerOf = (path: string, body?: unknown) => server.call(path, body ?? {}, { key: site.org.apiKey }).then((r) => r.json);

  it('M8: the alert thumbnail /media/metadata/<region>/<alert>.jpeg is a JPEG of its camera', async () => {
    const r = await get(`/media/metadata/us-west-2/${alertUuid}.jpeg`, headers(site.org.apiKey, schemes[0]));
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'image/jpeg');
    assert.deepEqual(jpegSize(await bytesOf(r)), { width: 480, height: 270 });
    const theirs = await get(`/media/metadata/us-west-2/${alertUuid}.jpeg`, headers(outsider.org.apiKey));
    assert.equal(theirs.status, 404);
    assert.notEqual(theirs.headers.get('content-type'), 'image/jpeg');
  });

  it('M9: the alert clip seg_init.mp4, seg_1.m4v ... until the first non-200, decodes to the alert footage', async () => {
    const dir = `/media/metadata/${site.lobby}/us-west-2/${alertUuid}`;
    const parts = [await bytesOf(await get(`${dir}/seg_init.mp4`))];
    let n = 1;
    for (; n <= 100; n++) {
      const r = await get(`${dir}/seg_${n}.m4v`);
      if (r.status !== 200) {
        assert.equal(r.status, 404);
        break;
      }
      parts.push(await bytesOf(r));
    }
    assert.ok(n > 1 && n <= 61, `${n - 1} segments`);
    const decoded = await decodeMedia(Buffer.concat(parts), 'mp4');
    assert.deepEqual([decoded.codec, decoded.frames], ['h264', (n - 1) * 20]);
    assert.equal((await get(`${dir}/seg_1.m4v`, headers(outsider.org.apiKey))).status, 404);
    // The alert under another device of the organization is not found either.
    assert.equal((await get(`/media/metadata/${site.dock}/us-west-2/${alertUuid}/seg_1.m4v`)).status, 404);
  });

  it('M10: the webhook form .../<alert>/clip.mpd parses, its segments found by replacing clip.mpd', async () => {
    const url = `${media}/media/metadata/${site.lobby}.v0/us-west-2/${alertUuid}/clip.mpd`;
    const r = await fetch(url, { headers: headers() });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'application/dash+xml');
    const manifest = parse(await r.text(), { manifestUri: url });
    const segments = manifest.playlists[0].segments;
    assert.ok(segments.length >= 1);
    const first = await fetch(url.replace(/clip\.mpd$/, segments[0].uri), { headers: headers() });
    assert.equal(first.status, 200);
  });

  it('M11: a saved clip /media/metadata/<region>/<clip>.mp4 and .jpeg serve its stored video and thumbnail', async () => {
    const [alert] = await raiseAlerts(server, site.org.orgUuid, site.lobby, [AT - 60_000]);
    const clipUuid = await saveAlertAsClip(answerOf, alert.uuid, { savedClipTitle: 'M11' });
    const video = randomBytes(5000);
    const put = await fetch(`${media}/media/clips/${clipUuid}/video`, {
      method: 'PUT',
      headers: { 'x-auth-apikey': site.org.apiKey, 'content-type': 'video/mp4' },
      body: new Uint8Array(video),
    });
    assert.equal(put.status, 200);
    const region = (await server.call('/api/event/getSavedClipDetails', { clipUuid }, { key: site.org.apiKey })).json.savedClip?.clipLocation?.region ?? 'us';
    const r = await get(`/media/metadata/${region}/${clipUuid}.mp4`);
    assert.equal(r.status, 200);
    assert.ok((await bytesOf(r)).equals(video));
    const ranged = await fetch(`${media}/media/metadata/${region}/${clipUuid}.mp4`, { headers: { ...headers(), range: 'bytes=0-9' } });
    assert.equal(ranged.status, 206);
    assert.equal((await get(`/media/metadata/${region}/${clipUuid}.mp4`, headers(outsider.org.apiKey))).status, 404);
    // No thumbnail was stored: 404, never a 500.
    assert.equal((await get(`/media/metadata/${region}/${clipUuid}.jpeg`)).status, 404);
  });

  it('M12: a shared clip downloads raw by its share uuid, without a key; an unknown or mismatched id is 404', async () => {
    const [alert] = await raiseAlerts(server, site.org.orgUuid, site.lobby, [AT - 120_000]);
    const clipUuid = await saveAlertAsClip(answerOf, alert.uuid);
    const video = randomBytes(3000);
    const put = await fetch(`${media}/media/clips/${clipUuid}/video`, {
      method: 'PUT',
      headers: { 'x-auth-apikey': site.org.apiKey, 'content-type': 'video/mp4' },
      body: new Uint8Array(video),
    });
    assert.equal(put.status, 200);
    const shared = await server.call(
      '/api/event/createSharedClipGroupV3',
      { title: 'M12', expirationTimeSecs: 3600, uuids: [{ eventUuid: clipUuid }] },
      { key: site.org.apiKey },
    );
    const shareUuid = shared.json.uuid as string;
    const url = (id: string) => `${media}/media/clips/share/${id}.mp4?x-auth-scheme=share-raw&x-share-type=clip&x-share-id=${id}`;
    const r = await fetch(url(shareUuid));
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'video/mp4');
    assert.ok((await bytesOf(r)).equals(video));
    assert.equal((await fetch(url(clipUuid))).status, 404);
    assert.equal((await fetch(url(shareUuid).replace(/x-share-id=.*/, `x-share-id=${clipUuid}`))).status, 404);
  });

  it('M13: a timelapse /media/timelapse/<clip>.mp4 serves its rendered video', async () => {
    const stop = Date.now() - 3600_000;
    const created = await server.call(
      '/api/video/generateTimelapseClip',
      { deviceUuids: [site.lobby], startTime: stop - 86_400_000, stopTime: stop, title: 'M13', videoDuration: 1 },
      { key: site.org.apiKey },
    );
    const uuid = created.json.clipUuid as string;
    await waitFor(
      'the timelapse to complete',
      async () => {
        const list = (await server.call('/api/video/getTimelapseClips', {}, { key: site.org.apiKey })).json.timelapseClips as any[];
        return list.find((t) => t.clipUuid === uuid)?.status.state === 'COMPLETE' ? true : null;
      },
      30_000,
      100,
    );
    const r = await get(`/media/timelapse/${uuid}.mp4`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'video/mp4');
    const decoded = await decodeMedia(await bytesOf(r), 'mp4');
    assert.equal(decoded.codec, 'h264');
    assert.equal((await get(`/media/timelapse/${uuid}.mp4`, headers(outsider.org.apiKey))).status, 404);
  });

  it('M15: the frame thumbnail <base>/media/frame/<camera>/<ms>/thumb.jpeg, built from the VOD template', async () => {
    const uris = (await server.call('/api/camera/getMediaUris', { cameraUuid: site.lobby }, { key: site.org.apiKey })).json;
    const template = uris.wanVodMpdUriTemplate as string;
    const url = `${template.substring(0, template.indexOf('/dash'))}/media/frame/${site.lobby}/${AT}/thumb.jpeg`;
    const r = await fetch(url, { headers: headers() });
    assert.equal(r.status, 200);
    assert.deepEqual(jpegSize(await bytesOf(r)), { width: 480, height: 270 });
    assert.equal((await fetch(url, { headers: headers(outsider.org.apiKey) })).status, 404);
    assert.equal((await fetch(url.replace(String(AT), 'yesterday'), { headers: headers() })).status, 400);
  });
});
