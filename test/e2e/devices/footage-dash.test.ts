import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'mpd-parser';
import { WebSocket } from 'ws';
import { forEachDialect } from '../../helpers/dialects.js';
import { decodeMedia } from '../../helpers/media-decode.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { createSiteOrg, nobodysUuid, type SiteOrg } from '../config/config-site.js';
import { assertOk } from '../../helpers/api.js';

/**
 * DASH footage as the platform's clients fetch it (client-calls.md M2 to M4): the VOD templates of getMediaUris,
 * the MPD read by a real DASH parser, seg_init.mp4 and seg_<n>.m4v decoded by ffmpeg, the cache and its
 * single-flight, and bad windows answered 4xx.
 */
const fill = (template: string, start: number, duration: number) => template.replace('{START_TIME}', String(start)).replace('{DURATION}', String(duration));
const bytesOf = async (r: Response) => Buffer.from(await r.arrayBuffer());

forEachDialect('camera footage as DASH', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  let uris: Record<string, any>;
  // A window of 6 s that ended a minute ago: three 2-second segments.
  const start = Math.floor(Date.now() / 1000) - 120;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Footage Org');
    other = await createSiteOrg(server, 'Other Footage Org');
    const r = await server.call('/api/camera/getMediaUris', { cameraUuid: org.site.cameras.Lobby }, { key: org.apiKey });
    assertOk(r);
    uris = r.json;
  });
  after(() => server.close());
  const withKey = (key = org.apiKey) => ({ 'x-auth-apikey': key, 'x-auth-scheme': 'api-token' });
  const get = (url: string, headers: Record<string, string> = withKey()) => fetch(url, { headers });

  it('getMediaUris answers absolute DASH and HLS URIs with the platform placeholders', () => {
    const base = server.gatehouse.urls.media;
    const camera = org.site.cameras.Lobby;
    assert.equal(uris.wanVodMpdUriTemplate, `${base}/dash/${camera}/{START_TIME}/{DURATION}/vod/file.mpd`);
    assert.equal(uris.lanVodMpdUrisTemplates[0], `${base}/dash/${camera}/lan/{START_TIME}_{DURATION}/clip.mpd`);
    assert.equal(uris.wanVodM3u8UriTemplate, `${base}/dash/${camera}/{START_TIME}/{DURATION}/vod/file.m3u8`);
    assert.equal(uris.wanLiveMpdUri, `${base}/dash/${camera}/live/live.mpd`);
    assert.equal(uris.lanLiveMpdUris[0], uris.wanLiveMpdUri);
    assert.equal(uris.wanLiveM3u8Uri, `${base}/dash/${camera}/live/file.m3u8`);
    assert.ok(uris.wanVodH264UriTemplate.startsWith(`${base}/media/`));
    // The realtime player's socket (M16): ws: under the http: base, ending in /ws (the SDK makes it /wsl for SD).
    assert.equal(uris.wanLiveH264Uri, `${base.replace(/^http/, 'ws')}/realtime/${camera}/ws`);
    assert.deepEqual(uris.lanLiveH264Uris, [uris.wanLiveH264Uri]);
  });

  for (const form of ['WAN', 'LAN'] as const) {
    it(`${form}: the MPD parses with a real DASH parser, and its segments (read from the template) decode to the window`, async () => {
      const mpdUrl = fill(form === 'WAN' ? uris.wanVodMpdUriTemplate : uris.lanVodMpdUrisTemplates[0], start, 6);
      const response = await get(mpdUrl);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'application/dash+xml');
      const xml = await response.text();
      // Exactly one Period / AdaptationSet / SegmentTemplate, as the examples' MPD readers need.
      for (const element of ['Period', 'AdaptationSet', 'SegmentTemplate']) assert.equal(xml.match(new RegExp(`<${element}[ >]`, 'g'))?.length, 1, element);
      assert.match(xml, /initialization="seg_init\.mp4"/);
      assert.match(xml, /media="seg_\$Number\$\.m4v"/);
      assert.match(xml, /startNumber="1"/);
      const manifest = parse(xml, { manifestUri: mpdUrl });
      assert.equal(manifest.playlists.length, 1);
      const [playlist] = manifest.playlists;
      assert.deepEqual(playlist.attributes.RESOLUTION, { width: 1280, height: 720 });
      assert.match(playlist.attributes.CODECS!, /^avc1\./);
      assert.equal(playlist.segments.length, 3);
      assert.deepEqual(
        playlist.segments.map((s) => [s.uri, s.duration]),
        [
          ['seg_1.m4v', 2],
          ['seg_2.m4v', 2],
          ['seg_3.m4v', 2],
        ],
      );
      const init = await get(playlist.segments[0].map!.resolvedUri);
      assert.equal(init.status, 200);
      assert.equal(init.headers.get('content-type'), 'video/mp4');
      const parts = [await bytesOf(init)];
      for (const segment of playlist.segments) {
        const r = await get(segment.resolvedUri);
        assert.equal(r.status, 200, segment.resolvedUri);
        assert.equal(r.headers.get('content-type'), 'video/iso.segment');
        parts.push(await bytesOf(r));
      }
      const decoded = await decodeMedia(Buffer.concat(parts), 'mp4');
      assert.deepEqual([decoded.codec, decoded.width, decoded.height, decoded.frames], ['h264', 1280, 720, 60]);
      assert.ok(Math.abs(decoded.durationSec! - 6) < 0.2, `duration ${decoded.durationSec}`);
    });
  }

  it('the fixed names a client assumes (seg_init.mp4, seg_1.m4v, ...) serve the same bytes, the same window the same bytes again', async () => {
    const dir = fill(uris.wanVodMpdUriTemplate, start, 6).replace(/file\.mpd$/, '');
    const lan = fill(uris.lanVodMpdUrisTemplates[0], start, 6).replace(/clip\.mpd$/, '');
    const encodes = server.gatehouse.deps.mediaHost.segments.stats().encodes;
    const first = await bytesOf(await get(`${dir}seg_2.m4v`));
    const again = await bytesOf(await get(`${dir}seg_2.m4v`));
    assert.ok(first.equals(again));
    assert.ok(first.equals(await bytesOf(await get(`${lan}seg_2.m4v`))));
    assert.equal(server.gatehouse.deps.mediaHost.segments.stats().encodes, encodes, 'served from the cache');
    // A single frame window (the CLI's still): seg_1 of a 2-second window decodes to 20 frames.
    const still = fill(uris.wanVodMpdUriTemplate, start + 2, 2).replace(/file\.mpd$/, '');
    const bytes = Buffer.concat([await bytesOf(await get(`${still}seg_init.mp4`)), await bytesOf(await get(`${still}seg_1.m4v`))]);
    assert.equal((await decodeMedia(bytes, 'mp4')).frames, 20);
  });

  it('honours Range, and answers cache and CORS headers', async () => {
    const url = `${fill(uris.wanVodMpdUriTemplate, start, 6).replace(/file\.mpd$/, '')}seg_1.m4v`;
    const whole = await bytesOf(await get(url));
    const r = await fetch(url, { headers: { ...withKey(), range: 'bytes=100-199', origin: 'http://player.example' } });
    assert.equal(r.status, 206);
    assert.equal(r.headers.get('content-range'), `bytes 100-199/${whole.length}`);
    assert.ok((await bytesOf(r)).equals(whole.subarray(100, 200)));
    assert.match(r.headers.get('cache-control')!, /max-age=\d+/);
    assert.equal(r.headers.get('access-control-allow-origin'), 'http://player.example');
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: 'http://player.example', 'access-control-request-headers': 'x-auth-ft, range' },
    });
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers.get('access-control-allow-headers')!, /x-auth-ft/);
  });

  it('accepts the federated token as query parameters and as RSESSIONID / RHOMBUS_SESSIONID cookies; refuses no credentials', async () => {
    const token = (await server.call('/api/org/generateFederatedSessionToken', { durationSec: 300 }, { key: org.apiKey })).json.federatedSessionToken as string;
    const mpd = fill(uris.wanVodMpdUriTemplate, start, 6);
    const query = `?x-auth-scheme=federated-token&x-auth-ft=${encodeURIComponent(token)}`;
    assert.equal((await fetch(mpd + query)).status, 200);
    assert.equal((await fetch(mpd.replace(/file\.mpd$/, 'seg_1.m4v') + query)).status, 200);
    for (const cookie of [`RSESSIONID=RFT:${token}`, `RHOMBUS_SESSIONID=RFT:${token}`]) {
      assert.equal((await fetch(mpd, { headers: { cookie } })).status, 200, cookie.split('=')[0]);
    }
    assert.equal((await fetch(mpd)).status, 401);
    assert.equal((await fetch(`${mpd}?x-auth-scheme=federated-token&x-auth-ft=forged`)).status, 401);
  });

  it("answers another organization's camera, and an unknown one, 404 without a byte of footage", async () => {
    const theirs = fill(uris.wanVodMpdUriTemplate, start, 6);
    for (const key of [other.apiKey]) {
      for (const file of ['file.mpd', 'seg_init.mp4', 'seg_1.m4v']) {
        const r = await get(theirs.replace(/file\.mpd$/, file), withKey(key));
        assert.equal(r.status, 404, file);
        assert.equal((await r.json()).error, true);
      }
    }
    assert.equal((await get(theirs.replace(org.site.cameras.Lobby, nobodysUuid()))).status, 404);
  });

  it('answers bad windows, durations and segment numbers with a clear 4xx, never a 500', async () => {
    const now = Math.floor(Date.now() / 1000);
    const camera = org.site.cameras.Lobby;
    const base = server.gatehouse.urls.media;
    const cases: Array<[string, number, RegExp]> = [
      [`/dash/${camera}/${now + 600}/10/vod/file.mpd`, 400, /future/],
      [`/dash/${camera}/${now - 5}/10/vod/file.mpd`, 400, /future/],
      [`/dash/${camera}/${now - 400 * 86400}/10/vod/file.mpd`, 404, /kept/],
      [`/dash/${camera}/${start}/0/vod/file.mpd`, 400, /DURATION/],
      [`/dash/${camera}/${start}/-5/vod/file.mpd`, 400, /DURATION/],
      [`/dash/${camera}/${start - 90000}/99999999/vod/file.mpd`, 400, /DURATION/],
      [`/dash/${camera}/${start - 90000}/86400/vod/file.mpd`, 400, /DURATION/],
      [`/dash/${camera}/abc/10/vod/file.mpd`, 400, /START_TIME/],
      [`/dash/${camera}/{START_TIME}/10/vod/file.mpd`, 400, /START_TIME/],
      [`/dash/${camera}/lan/${start}-6/clip.mpd`, 400, /START_TIME>_<DURATION/],
      [`/dash/${camera}/${start}/6/vod/seg_4.m4v`, 404, /seg_1 to seg_3/],
      [`/dash/${camera}/${start}/6/vod/seg_0.m4v`, 404, /No segment 0/],
      [`/dash/${camera}/${start}/6/vod/seg_x.m4v`, 404, /Unknown file/],
      [`/dash/${camera}/${start}/6/vod/../../../../etc/passwd`, 404, /./],
      [`/dash/${camera}/live/seg_1.m4v`, 404, /not available/],
    ];
    for (const [path, status, message] of cases) {
      const r = await get(base + path);
      assert.equal(r.status, status, path);
      const body = await r.json();
      assert.equal(body.error, true, path);
      assert.match(body.errorMsg, message, path);
    }
  });

  it('encodes a segment once however many ask for it at once', async () => {
    const url = `${fill(uris.wanVodMpdUriTemplate, start - 600, 20).replace(/file\.mpd$/, '')}seg_7.m4v`;
    const before = server.gatehouse.deps.mediaHost.segments.stats();
    const answers = await Promise.all(Array.from({ length: 8 }, () => get(url).then(bytesOf)));
    for (const bytes of answers) assert.ok(bytes.equals(answers[0]));
    const after = server.gatehouse.deps.mediaHost.segments.stats();
    assert.equal(after.encodes - before.encodes, 1);
    assert.equal(after.maxConcurrentSameKey, 1);
  });

  it('answers 503 with Retry-After when the encoder fails, without its error text', async () => {
    const host = server.gatehouse.deps.mediaHost;
    const real = host.encode;
    host.encode = async () => {
      throw new Error('ffmpeg failed: simulated');
    };
    try {
      const r = await get(`${fill(uris.wanVodMpdUriTemplate, start - 1200, 4).replace(/file\.mpd$/, '')}seg_1.m4v`);
      assert.equal(r.status, 503);
      assert.equal(r.headers.get('retry-after'), '2');
      const body = await r.json();
      assert.equal(body.error, true);
      assert.doesNotMatch(body.errorMsg, /ffmpeg/);
    } finally {
      host.encode = real;
    }
  });
  // Last of this server's tests: the socket's next segment may still be encoding when it closes, and the tests above count encodes.
  it('the realtime socket (M16) sends the init command, then H.264 frames in the SDK framing that ffmpeg decodes', async () => {
    const token = (await server.call('/api/org/generateFederatedSessionToken', { durationSec: 300 }, { key: org.apiKey })).json.federatedSessionToken as string;
    const auth = `?x-auth-scheme=federated-token&x-auth-ft=${encodeURIComponent(token)}`;
    const FRAMES = 8;
    const ws = new WebSocket(uris.wanLiveH264Uri + auth);
    const texts: string[] = [];
    const frames: Array<{ ts: number; type: number; data: Buffer }> = [];
    await new Promise<void>((resolve, reject) => {
      ws.on('error', reject);
      ws.on('message', (data, binary) => {
        if (!binary) return void texts.push(data.toString());
        // Blocks of a type byte and a 3-byte length: 0x02 the time (8 bytes, ms), 0x00 / 0x01 a frame.
        const bytes = data as Buffer;
        let ts = -1;
        for (let at = 0; at < bytes.length;) {
          const type = bytes[at]!;
          const length = bytes.readUIntBE(at + 1, 3);
          const value = bytes.subarray(at + 4, at + 4 + length);
          if (type === 2) ts = Number(value.readBigUInt64BE());
          else frames.push({ ts, type, data: value });
          at += 4 + length;
        }
        if (frames.length >= FRAMES) resolve();
      });
    });
    ws.close();
    assert.deepEqual(JSON.parse(texts[0]!), { action: 'init', width: 1280, height: 720, framerate: 10 });
    // A key frame first, its SPS leading (how the SDK tells it), then delta frames 100 ms apart, a few seconds behind now.
    assert.deepEqual([frames[0]!.type, frames[0]!.data[4]! & 0x1f], [0, 7]);
    assert.ok(frames.slice(1, FRAMES).every((f) => f.type === 1));
    assert.deepEqual(
      frames.slice(1, FRAMES).map((f, i) => f.ts - frames[i]!.ts),
      Array(FRAMES - 1).fill(100),
    );
    assert.equal(frames[0]!.ts % 2000, 0);
    assert.ok(Math.abs(Date.now() - frames[0]!.ts) < 8000, `frame time ${frames[0]!.ts}`);
    const decoded = await decodeMedia(Buffer.concat(frames.slice(0, FRAMES).map((f) => f.data)), 'h264');
    assert.deepEqual([decoded.codec, decoded.width, decoded.height, decoded.frames], ['h264', 1280, 720, FRAMES]);
    // The SD path answers too; no credentials, a forged token and another organization's camera are refused before the upgrade.
    const refusal = (url: string) =>
      new Promise<number>((resolve, reject) => {
        const socket = new WebSocket(url);
        socket.on('unexpected-response', (_request, response) => resolve(response.statusCode!));
        socket.on('open', () => reject(new Error(`${url} opened`)));
        socket.on('error', () => undefined);
      });
    const sd = new WebSocket(uris.wanLiveH264Uri.replace(/\/ws$/, '/wsl') + auth);
    assert.equal(JSON.parse((await new Promise<Buffer>((resolve, reject) => sd.once('message', resolve).once('error', reject))).toString()).action, 'init');
    sd.close();
    assert.equal(await refusal(uris.wanLiveH264Uri), 401);
    assert.equal(await refusal(`${uris.wanLiveH264Uri}?x-auth-scheme=federated-token&x-auth-ft=forged`), 401);
    const otherToken = (await server.call('/api/org/generateFederatedSessionToken', {}, { key: other.apiKey })).json.federatedSessionToken as string;
    assert.equal(await refusal(`${uris.wanLiveH264Uri}?x-auth-scheme=federated-token&x-auth-ft=${encodeURIComponent(otherToken)}`), 404);
  });
});

describe('the footage segment cache stays within its bound', () => {
  let server: TestServer;
  let org: SiteOrg;
  before(async () => {
    // About two segments' worth.
    server = await startTestServer('sqlite', { env: { GATEHOUSE_MEDIA_CACHE_MB: '1.5' } });
    org = await createSiteOrg(server, 'Cache Org');
  });
  after(() => server.close());

  it('evicts the least recently used segments, on disk as in its count', async () => {
    const uris = (await server.call('/api/camera/getMediaUris', { cameraUuid: org.site.cameras.Lobby }, { key: org.apiKey })).json;
    const dir = fill(uris.wanVodMpdUriTemplate, Math.floor(Date.now() / 1000) - 300, 12).replace(/file\.mpd$/, '');
    const cache = server.gatehouse.deps.mediaHost.segments;
    for (let n = 1; n <= 6; n++) {
      const r = await fetch(`${dir}seg_${n}.m4v`, { headers: { 'x-auth-apikey': org.apiKey } });
      assert.equal(r.status, 200);
      await r.arrayBuffer();
      const stats = cache.stats();
      assert.ok(stats.bytes <= cache.maxBytes, `${stats.bytes} > ${cache.maxBytes}`);
    }
    const stats = cache.stats();
    assert.equal(stats.encodes, 6);
    assert.ok(stats.entries >= 1 && stats.entries < 6, `${stats.entries} entries`);
    const folder = join(server.config.dataDir, 'media-cache');
    const onDisk = readdirSync(folder).reduce((sum, f) => sum + statSync(join(folder, f)).size, 0);
    assert.equal(onDisk, stats.bytes);
    // The oldest went first: seg_1 is encoded again, the newest is not.
    await (await fetch(`${dir}seg_6.m4v`, { headers: { 'x-auth-apikey': org.apiKey } })).arrayBuffer();
    assert.equal(cache.stats().encodes, 6);
    await (await fetch(`${dir}seg_1.m4v`, { headers: { 'x-auth-apikey': org.apiKey } })).arrayBuffer();
    assert.equal(cache.stats().encodes, 7);
  });
});
