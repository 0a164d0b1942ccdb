import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
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
    assert.equal(r.json.wanLiveOpusUri, `${server.gatehouse.urls.media}/media/audiogateways/${gateway()}/live.opus?durationSec=10`);
    assert.deepEqual([r.json.wanLiveMpdUri, r.json.lanLiveOpusUris], [null, []]);
    const response = await fetch(r.json.wanLiveOpusUri.replace('durationSec=10', 'durationSec=3'), { headers: { 'x-auth-apikey': org.apiKey } });
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
