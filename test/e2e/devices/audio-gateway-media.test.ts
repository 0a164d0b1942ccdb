import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { parse } from 'mpd-parser';
import { WebSocket } from 'ws';
import { forEachDialect } from '../../helpers/dialects.js';
import { decodeAudio } from '../../helpers/media-decode.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, CONFIG_SITE, createSiteOrg, nobodysUuid, type SiteOrg } from '../config/config-site.js';
import { assertOk } from '../../helpers/api.js';

const SITE = { ...CONFIG_SITE, audioGateways: [{ name: 'Desk Audio', location: 'HQ' }] };

forEachDialect('audiogateway/getMediaUris: live audio on the media host', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Audio Org', SITE);
    other = await createSiteOrg(server, 'Other Org', SITE);
  });
  after(() => server.close());
  const call = (body: object, key = org.apiKey) => server.call('/api/audiogateway/getMediaUris', body, { key });
  const media = (path: string, headers: Record<string, string> = {}) => fetch(server.gatehouse.urls.media + path, { headers });
  const gateway = () => org.site.audioGateways['Desk Audio'];

  it('answers a live URI on the media host that serves real Ogg Opus audio to a caller with a key or a federated token', async () => {
    const r = await call({ gatewayUuid: `${gateway()}.a0` });
    assertOk(r);
    // The live socket without its /ws, which the SDK appends for a gateway (M18).
    assert.equal(r.json.wanLiveOpusUri, `${server.gatehouse.urls.media.replace(/^http/, 'ws')}/realtime-audio/${gateway()}`);
    assert.deepEqual([r.json.wanLiveMpdUri, r.json.lanLiveOpusUris], [null, [r.json.wanLiveOpusUri]]);
    const base = `${server.gatehouse.urls.media}/audio/${gateway()}`;
    assert.equal(r.json.wanVodMpdUriTemplate, `${base}/{START_TIME}/{DURATION}/vod/file.mpd`);
    assert.deepEqual(r.json.lanVodMpdUrisTemplates, [`${base}/lan/{START_TIME}_{DURATION}/clip.mpd`]);
    const response = await media(`/media/audiogateways/${gateway()}/live.opus?durationSec=3`, { 'x-auth-apikey': org.apiKey });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'audio/ogg');
    const audio = await decodeAudio(Buffer.from(await response.arrayBuffer()), 'ogg');
    assert.deepEqual([audio.codec, audio.sampleRate, audio.channels], ['opus', 48000, 'mono']);
    assert.ok(Math.abs(audio.durationSec - 3) < 0.2, `${audio.durationSec} s`);

    const live = `/media/audiogateways/${gateway()}/live.opus?durationSec=1`;
    const part = await media(live, { 'x-auth-apikey': org.apiKey, range: 'bytes=0-99' });
    assert.deepEqual([part.status, (await part.arrayBuffer()).byteLength], [206, 100]);
    const past = await media(live, { 'x-auth-apikey': org.apiKey, range: 'bytes=99999999-' });
    assert.equal(past.status, 416);
    assert.match((await past.json()).errorMsg, /the audio has \d+ bytes/);

    const token = (await server.call('/api/org/generateFederatedSessionToken', { durationSec: 60 }, { key: org.apiKey })).json.federatedSessionToken;
    assert.equal((await media(`/media/audiogateways/${gateway()}/live.opus?durationSec=1`, { 'x-auth-ft': token })).status, 200);
  });

  it('recorded audio (M18): an MPD with one audio AdaptationSet, Opus segments ffmpeg decodes, and the SDK envelope', async () => {
    const uris = (await call({ gatewayUuid: gateway() })).json;
    const start = Math.floor(Date.now() / 1000) - 90;
    const key = { 'x-auth-apikey': org.apiKey };
    const mpdUrl = uris.wanVodMpdUriTemplate.replace('{START_TIME}', String(start)).replace('{DURATION}', '4');
    const response = await fetch(mpdUrl, { headers: key });
    assert.deepEqual([response.status, response.headers.get('content-type')], [200, 'application/dash+xml']);
    const xml = await response.text();
    for (const element of ['Period', 'AdaptationSet', 'SegmentTemplate']) assert.equal(xml.match(new RegExp(`<${element}[ >]`, 'g'))?.length, 1, element);
    assert.match(xml, /contentType="audio"/);
    const manifest = parse(xml, { manifestUri: mpdUrl });
    const audio = Object.values(manifest.mediaGroups!.AUDIO!).flatMap((group) => Object.values(group).flatMap((rendition) => rendition.playlists));
    assert.equal(audio.length, 1);
    assert.equal(audio[0]!.attributes.CODECS, 'opus');
    const segments = audio[0]!.segments;
    assert.deepEqual(
      segments.map((s) => [s.uri, s.duration]),
      [
        ['seg_1.m4a', 2],
        ['seg_2.m4a', 2],
      ],
    );
    const parts = [await fetch(segments[0]!.map!.resolvedUri, { headers: key })];
    for (const segment of segments) parts.push(await fetch(segment.resolvedUri, { headers: key }));
    assert.deepEqual(
      parts.map((p) => [p.status, p.headers.get('content-type')]),
      [
        [200, 'audio/mp4'],
        [200, 'audio/iso.segment'],
        [200, 'audio/iso.segment'],
      ],
    );
    const decoded = await decodeAudio(Buffer.concat(await Promise.all(parts.map(async (p) => Buffer.from(await p.arrayBuffer())))), 'mp4');
    assert.deepEqual([decoded.codec, decoded.sampleRate, decoded.channels], ['opus', 48000, 'mono']);
    assert.ok(Math.abs(decoded.durationSec - 4) < 0.1, `${decoded.durationSec} s`);
    // The SDK's own decoder: (clip|file).mpd replaced by seg_<n>.mpd; its time, then 100 length-prefixed 20 ms frames.
    const envelope = Buffer.from(await (await fetch(mpdUrl.replace(/file\.mpd$/, 'seg_2.mpd'), { headers: key })).arrayBuffer());
    assert.equal(Number(envelope.readBigUInt64BE(0)), (start + 2) * 1000);
    let frames = 0;
    for (let at = 8; at < envelope.length; at += 2 + envelope.readUInt16BE(at)) frames++;
    assert.equal(frames, 100);
    const lan = uris.lanVodMpdUrisTemplates[0].replace('{START_TIME}', String(start)).replace('{DURATION}', '4');
    assert.equal((await fetch(lan, { headers: key })).status, 200);
    for (const [url, status] of [
      [mpdUrl.replace(/file\.mpd$/, 'seg_3.m4a'), 404],
      [mpdUrl.replace(String(start), String(start + 3600)), 400],
    ] as const) {
      assert.equal((await fetch(url, { headers: key })).status, status, url);
    }
    assert.equal((await fetch(mpdUrl.replace(/file\.mpd$/, 'seg_1.m4a'), { headers: { 'x-auth-apikey': other.apiKey } })).status, 404);
  });

  it('the live audio socket (M18) sends timed 20 ms Opus frames in the SDK framing that decode', async () => {
    const live = (await call({ gatewayUuid: gateway() })).json.wanLiveOpusUri as string;
    const token = (await server.call('/api/org/generateFederatedSessionToken', { durationSec: 60 }, { key: org.apiKey })).json.federatedSessionToken as string;
    const ws = new WebSocket(`${live}/ws?x-auth-scheme=federated-token&x-auth-ft=${encodeURIComponent(token)}`);
    const messages: Array<{ ts: number; frames: Buffer[] }> = [];
    await new Promise<void>((resolve, reject) => {
      ws.on('error', reject);
      ws.on('message', (data: Buffer) => {
        // Blocks of a type byte and a 3-byte length: 0x01 the time (8 bytes, ms), any other type but 0x00 an Opus frame.
        const message = { ts: -1, frames: [] as Buffer[] };
        for (let at = 0; at < data.length; at += 4 + data.readUIntBE(at + 1, 3)) {
          const value = data.subarray(at + 4, at + 4 + data.readUIntBE(at + 1, 3));
          if (data[at] === 1) message.ts = Number(value.readBigUInt64BE());
          else if (data[at] !== 0) message.frames.push(value);
        }
        // Messages that arrive before the socket closes are not counted.
        if (messages.length < 4) messages.push(message);
        if (messages.length === 4) resolve();
      });
    });
    ws.close();
    assert.deepEqual(
      messages.map((m) => [m.ts - messages[0]!.ts, m.frames.length]),
      [
        [0, 5],
        [100, 5],
        [200, 5],
        [300, 5],
      ],
    );
    assert.equal(messages[0]!.ts % 2000, 0);
    // The same Opus frames as the recorded audio of that instant (whose DASH segments ffmpeg decodes, above).
    const template = (await call({ gatewayUuid: gateway() })).json.wanVodMpdUriTemplate as string;
    const envelopeUrl = template
      .replace('{START_TIME}', String(messages[0]!.ts / 1000))
      .replace('{DURATION}', '2')
      .replace(/file\.mpd$/, 'seg_1.mpd');
    const envelope = Buffer.from(await (await fetch(envelopeUrl, { headers: { 'x-auth-apikey': org.apiKey } })).arrayBuffer());
    const recorded: Buffer[] = [];
    for (let at = 8; at < envelope.length; at += 2 + envelope.readUInt16BE(at)) recorded.push(envelope.subarray(at + 2, at + 2 + envelope.readUInt16BE(at)));
    assert.deepEqual(
      messages.flatMap((m) => m.frames),
      recorded.slice(0, 20),
    );
  });

  it('refuses the audio without a key or with a bad token, and answers 404 for another organization’s gateway', async () => {
    const path = `/media/audiogateways/${gateway()}/live.opus?durationSec=1`;
    assert.equal((await media(path)).status, 401);
    assert.equal((await media(path, { 'x-auth-ft': 'not-a-token' })).status, 401);
    assert.equal((await media(path, { 'x-auth-apikey': other.apiKey })).status, 404);
    assert.equal((await media(`/media/audiogateways/${gateway()}/live.opus?durationSec=600`, { 'x-auth-apikey': org.apiKey })).status, 400);
  });

  it("answers another organization's gateway, and a camera, as unknown ones", async () => {
    const missing = await call({ gatewayUuid: nobodysUuid() });
    assertSameAsMissing(await call({ gatewayUuid: other.site.audioGateways['Desk Audio'] }), missing);
    assertSameAsMissing(await call({ gatewayUuid: org.site.cameras.Lobby }), missing);
    assert.equal(missing.json.errorMsg, 'Audio gateway not found');
  });
});
