import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { seedYaml, watchChanges } from '../../helpers/org-structure.js';
import type { TestOrg } from '../../helpers/server.js';

/** doorbellcamera/getConfig, updateConfig (the MCP) and getMediaUris (react's direct mode): a doorbell as a camera. */
forEachDialect('doorbell camera config and media URIs', (dialect) => {
  const server = useTestServer(dialect);
  let org: TestOrg;
  let bell: string;
  let camera: string;
  let theirBell: string;
  const api = apiAs(server, () => org.apiKey, '/api/doorbellcamera');
  before(async () => {
    org = await server().createOrg('Doorbells');
    const other = await server().createOrg('Other Doorbells');
    const yaml = `
locations: [{name: Main}]
cameras: [{name: Lobby, location: Main}]
sensors: [{name: Front Bell, kind: doorbell, location: Main}]
`;
    const seeded = await seedYaml(server(), org.orgUuid, yaml);
    bell = seeded.sensors!['Front Bell']!;
    camera = seeded.cameras!['Lobby']!;
    theirBell = (await seedYaml(server(), other.orgUuid, yaml)).sensors!['Front Bell']!;
  });

  it('sets a setting through updateConfig, reads it back in getConfig, and announces it', async () => {
    const before = (await api.ok('getConfig', { deviceUuid: bell })).config;
    assert.equal(before.deviceUuid, bell);
    assert.ok(before.videoFacetSettings.v0, 'the video facet v0');
    const watch = await watchChanges(server(), org.apiKey, org.orgUuid);
    try {
      const led = !before.deviceSettings.led_stealth_mode;
      const updated = await api.ok('updateConfig', { configUpdate: { deviceUuid: bell, deviceSettings: { led_stealth_mode: led } } });
      assert.equal(updated.config.deviceSettings.led_stealth_mode, led);
      assert.equal((await api.ok('getConfig', { deviceUuid: bell })).config.deviceSettings.led_stealth_mode, led);
      await watch.waitFor((c) => c.entity === 'CAMERA_USER_CONFIG' && c.entityUuid === bell, 'the config change');
    } finally {
      await watch.close();
    }
  });

  it("answers another organization's doorbell, and a camera, as unknown doorbells; refuses a value out of range (400)", async () => {
    for (const deviceUuid of [theirBell, camera]) {
      assert.equal(await api.refused('getConfig', { deviceUuid }), 'Doorbell camera not found');
      assert.equal(
        await api.refused('updateConfig', { configUpdate: { deviceUuid, deviceSettings: { led_stealth_mode: true } } }),
        'Doorbell camera not found',
      );
      assert.equal(await api.refused('getMediaUris', { deviceUuid }), 'Doorbell camera not found');
    }
    const bad = await api.call('updateConfig', { configUpdate: { deviceUuid: bell, deviceSettings: { media_ttl_minutes: 'forever' } } });
    assert.equal(bad.status, 400);
    assert.match(bad.json.errorMsg, /media_ttl_minutes/);
  });

  it('answers absolute media URIs: the DASH templates and the live audio, which the media host serves', async () => {
    const uris = await api.ok('getMediaUris', { deviceUuid: bell });
    for (const field of ['wanVodMpdUriTemplate', 'wanLiveMpdUri']) assert.match(uris[field], /^https?:\/\//, field);
    // The SDK's live audio socket, /ws included (it appends /ws only for a gateway); the Ogg Opus stays at its path.
    assert.match(uris.wanLiveOpusUri, new RegExp(`^wss?://.*/realtime-audio/${bell}/ws$`));
    assert.match(uris.wanVodMpdUriTemplate, /\{START_TIME\}.*\{DURATION\}.*file\.mpd/);
    assert.ok(Array.isArray(uris.lanVodMpdUrisTemplates) && uris.lanVodMpdUrisTemplates.length === 1);
    assert.deepEqual(uris.lanLiveOpusUris, []);
    const live = new URL(`/media/audiogateways/${bell}/live.opus?durationSec=1`, uris.wanVodMpdUriTemplate);
    const audio = await fetch(live, { headers: { 'x-auth-apikey': org.apiKey, 'x-auth-scheme': 'api-token' } });
    assert.equal(audio.status, 200);
    assert.equal(audio.headers.get('content-type'), 'audio/ogg');
  });
});
