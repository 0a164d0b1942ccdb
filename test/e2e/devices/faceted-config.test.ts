import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, changesDuring, createSiteOrg, nobodysUuid, type SiteOrg } from '../config/config-site.js';
import { assertFails, assertOk } from '../../helpers/api.js';

forEachDialect('deviceconfig: getFacetedConfig and updateFacetedConfig', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Faceted Org');
    other = await createSiteOrg(server, 'Other Org');
  });
  after(() => server.close());
  const call = (op: string, body: object, key = org.apiKey) => server.call(`/api/deviceconfig/${op}`, body, { key });
  const facetedOf = async (uuid: string, key = org.apiKey) => {
    const r = await call('getFacetedConfig', { deviceUuid: uuid }, key);
    assertOk(r);
    return r.json.config;
  };
  const update = (configUpdate: object, key = org.apiKey) => call('updateFacetedConfig', { configUpdate }, key);

  it("answers a camera's settings grouped by facet, the defaults before any is set", async () => {
    const config = await facetedOf(org.site.cameras.Lobby);
    assert.equal(config.deviceUuid, org.site.cameras.Lobby);
    assert.equal(config.orgUuid, org.orgUuid);
    assert.deepEqual(Object.keys(config.videoFacetSettings), ['v0']);
    const video = config.videoFacetSettings.v0;
    assert.deepEqual(
      [video.img_brightness, video.occupancy_counting, video.cross_counting, video.resolution],
      [50, false, false, { width: 1920, height: 1080 }],
    );
    assert.equal(video.audio_record, undefined, 'audio settings sit under the audio facet');
    assert.deepEqual(config.audioFacetSettings, { v0: { audio_record: true, audio_internal_mic_volume: 50, audio_internal_speaker_volume: 50 } });
    assert.deepEqual(config.deviceSettings, { led_stealth_mode: false, media_ttl_minutes: 43_200 });
  });

  it('sets the settings given in each group, announces the camera user config, and camera/getConfig reads the same state', async () => {
    const lobby = org.site.cameras.Lobby;
    const changes = await changesDuring(server, async () =>
      assertOk(
        await update({
          deviceUuid: lobby,
          videoFacetSettings: {
            v0: { img_brightness: 70, resolution: { width: 1280, height: 720 }, occupancy_counting: true, updatedSetMethodMap: { img_brightness: true } },
          },
          audioFacetSettings: { v0: { audio_internal_mic_volume: 30 } },
          deviceSettings: { led_stealth_mode: true },
        }),
      ),
    );
    assert.deepEqual(
      changes.map((c) => [c.entity, c.entityUuid, (c.update as { img_brightness: number }).img_brightness]),
      [['CAMERA_USER_CONFIG', lobby, 70]],
    );
    const config = await facetedOf(lobby);
    const video = config.videoFacetSettings.v0;
    assert.deepEqual([video.img_brightness, video.img_contrast, video.resolution, video.occupancy_counting], [70, 50, { width: 1280, height: 720 }, true]);
    assert.equal(config.audioFacetSettings.v0.audio_internal_mic_volume, 30);
    assert.equal(config.deviceSettings.led_stealth_mode, true);
    const flat = (await server.call('/api/camera/getConfig', { cameraUuid: lobby }, { key: org.apiKey })).json.config;
    assert.deepEqual(
      [flat.img_brightness, flat.resolution, flat.audio_internal_mic_volume, flat.led_stealth_mode, flat.occupancy_counting],
      [70, { width: 1280, height: 720 }, 30, true, true],
    );
  });

  it('refuses a value out of range naming the field, a facet the camera lacks and half a resolution, changing nothing', async () => {
    const lobby = org.site.cameras.Lobby;
    for (const [field, configUpdate] of [
      ['img_brightness', { videoFacetSettings: { v0: { img_brightness: 101 } } }],
      ['audio_internal_speaker_volume', { audioFacetSettings: { v0: { audio_internal_speaker_volume: -1 } } }],
      ['media_ttl_minutes', { deviceSettings: { media_ttl_minutes: -5 } }],
      ['width', { videoFacetSettings: { v0: { resolution: { width: 5, height: 720 } } } }],
    ] as const) {
      const r = await update({ deviceUuid: lobby, ...configUpdate });
      assert.equal(r.status, 400, field);
      assert.match(r.json.errorMsg, new RegExp(field), r.text);
    }
    assertFails(await update({ deviceUuid: lobby, videoFacetSettings: { v1: { img_brightness: 10 } } }), /^videoFacetSettings\.v1: /);
    assertFails(await update({ deviceUuid: lobby, videoFacetSettings: { v0: { resolution: { width: 640 } } } }), 'resolution: give both width and height');
    const video = (await facetedOf(lobby)).videoFacetSettings.v0;
    assert.deepEqual([video.img_brightness, video.resolution], [70, { width: 1280, height: 720 }], 'a refused update changes nothing');
  });

  it("answers another organization's camera as an unknown one and leaves it unchanged", async () => {
    const theirs = other.site.cameras.Lobby;
    assertSameAsMissing(await call('getFacetedConfig', { deviceUuid: theirs }), await call('getFacetedConfig', { deviceUuid: nobodysUuid() }));
    assertSameAsMissing(
      await update({ deviceUuid: theirs, videoFacetSettings: { v0: { img_brightness: 5 } } }),
      await update({ deviceUuid: nobodysUuid(), videoFacetSettings: { v0: { img_brightness: 5 } } }),
    );
    assert.equal((await facetedOf(theirs, other.apiKey)).videoFacetSettings.v0.img_brightness, 50);
  });
});
