import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { parse } from 'mpd-parser';
import { forEachDialect } from '../../helpers/dialects.js';
import { decodeMedia, decodeUrl } from '../../helpers/media-decode.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { createSiteOrg, type SiteOrg } from '../config/config-site.js';
import { assertOk } from '../../helpers/api.js';

/**
 * HLS footage (client-calls.md M6, M7: the Java HLS viewer) and live footage (M5, M17: the live MPD that advances
 * with the wall clock, and the live playlist), fetched over real HTTP and decoded by ffmpeg.
 */
const fill = (template: string, start: number, duration: number) => template.replace('{START_TIME}', String(start)).replace('{DURATION}', String(duration));
const bytesOf = async (r: Response) => Buffer.from(await r.arrayBuffer());

forEachDialect('camera footage as HLS, and live', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let uris: Record<string, any>;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'HLS Org');
    const r = await server.call('/api/camera/getMediaUris', { cameraUuid: org.site.cameras.Lobby }, { key: org.apiKey });
    assertOk(r);
    uris = r.json;
  });
  after(() => server.close());
  const headers = () => ({ 'x-auth-apikey': org.apiKey, 'x-auth-scheme': 'api-token' });
  const get = (url: string) => fetch(url, { headers: headers() });

  it('M7: the VOD playlist names seg_<n>.m4v after seg_init.mp4, and plays whole in an HLS client', async () => {
    const start = Math.floor(Date.now() / 1000) - 200;
    const url = fill(uris.wanVodM3u8UriTemplate, start, 4);
    const r = await get(url);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'application/vnd.apple.mpegurl');
    const playlist = await r.text();
    assert.match(playlist, /^#EXTM3U\n/);
    assert.match(playlist, /#EXT-X-MAP:URI="seg_init\.mp4"/);
    assert.match(playlist, /#EXT-X-ENDLIST/);
    assert.deepEqual(
      playlist.split('\n').filter((line) => /^seg_(\d*)\.m4v$/.test(line)),
      ['seg_1.m4v', 'seg_2.m4v'],
    );
    const decoded = await decodeUrl(url, 10, headers());
    assert.deepEqual([decoded.codec, decoded.width, decoded.height, decoded.frames], ['h264', 1280, 720, 40]);
  });

  it('M6: the live playlist lists the newest segments by the wall clock; init plus the first decodes', async () => {
    const r = await get(uris.wanLiveM3u8Uri);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('cache-control'), 'no-cache');
    const playlist = await r.text();
    assert.doesNotMatch(playlist, /#EXT-X-ENDLIST/);
    const numbers = playlist
      .split('\n')
      .map((line) => /^seg_(\d*)\.m4v$/.exec(line)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number);
    assert.equal(numbers.length, 5);
    const edge = Math.floor(Date.now() / 2000) - 1;
    assert.ok(Math.abs(numbers.at(-1)! - edge) <= 1, `${numbers.at(-1)} vs ${edge}`);
    const dir = uris.wanLiveM3u8Uri.replace(/file\.m3u8$/, '');
    const init = await bytesOf(await get(`${dir}seg_init.mp4`));
    const first = await get(`${dir}seg_${numbers[0]}.m4v`);
    assert.equal(first.status, 200);
    const decoded = await decodeMedia(Buffer.concat([init, await bytesOf(first)]), 'mp4');
    assert.deepEqual([decoded.codec, decoded.frames], ['h264', 20]);
    // A segment whose time has not come is not served.
    assert.equal((await get(`${dir}seg_${edge + 5}.m4v`)).status, 404);
  });

  it('M5/M17: the live MPD is dynamic, advances with the wall clock, and its live-edge segments play', async () => {
    const r = await get(uris.wanLiveMpdUri);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'application/dash+xml');
    const xml = await r.text();
    assert.match(xml, /type="dynamic"/);
    assert.match(xml, /availabilityStartTime="1970-01-01T00:00:00Z"/);
    for (const element of ['Period', 'AdaptationSet', 'SegmentTemplate']) assert.equal(xml.match(new RegExp(`<${element}[ >]`, 'g'))?.length, 1, element);
    const now = Date.now();
    const manifest = parse(xml, { manifestUri: uris.wanLiveMpdUri, NOW: now, clientOffset: 0 });
    const segments = manifest.playlists[0].segments;
    assert.ok(segments.length > 0);
    const numberOf = (s: { uri: string }) => Number(/^seg_(\d+)\.m4v$/.exec(s.uri)![1]);
    // The parser's newest segment is the wall clock's ($Number$ = seconds since the epoch / 2).
    assert.ok(Math.abs(numberOf(segments.at(-1)!) - Math.floor(now / 2000)) <= 2, `${segments.at(-1)!.uri} vs ${Math.floor(now / 2000)}`);
    const playable = segments.filter((s) => numberOf(s) <= Math.floor(Date.now() / 2000) - 1).slice(-2);
    const parts = [await bytesOf(await get(playable[0].map!.resolvedUri))];
    for (const s of playable) {
      const answer = await get(s.resolvedUri);
      assert.equal(answer.status, 200, s.resolvedUri);
      parts.push(await bytesOf(answer));
    }
    const decoded = await decodeMedia(Buffer.concat(parts), 'mp4');
    assert.equal(decoded.frames, 40);
  });
});
