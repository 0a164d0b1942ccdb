import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { changesDuring } from '../../helpers/changes.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { seedYaml, watchChanges } from '../../helpers/org-structure.js';
import type { TestOrg } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { makeGif, makeJpeg, makePng } from '../faces/images.js';
import { upload } from '../faces/upload.js';

forEachDialect('Audio clips on audio gateways, and image uploads', (dialect) => {
  const server = useTestServer(dialect);
  let org: TestOrg;
  let other: TestOrg;
  let site: Record<string, Record<string, string>>;
  let theirs: Record<string, Record<string, string>>;
  const api = apiAs(server, () => org.apiKey);
  const them = apiAs(server, () => other.apiKey);
  /** A GET on the media host with the organization's key. */
  const media = (url: string, key = org.apiKey) =>
    fetch(url.startsWith('http') ? url : `${server().gatehouse.urls.media}${url}`, { headers: { 'x-auth-apikey': key } });
  const post = (path: string, files: Array<{ name: string; bytes: Buffer }>, fields?: Record<string, string>, key = org.apiKey) =>
    upload(server(), key, files, { path, fields });
  before(async () => {
    org = await server().createOrg('Sounds and Pictures');
    other = await server().createOrg('Elsewhere');
    site = await seedYaml(
      server(),
      org.orgUuid,
      'locations: [{name: HQ}]\naudioGateways: [{name: Hall, location: HQ}, {name: Yard, location: HQ, connectionStatus: RED}]\nusers: [{name: Ada Lovelace, email: ada@example.com}]',
    );
    theirs = await seedYaml(server(), other.orgUuid, 'locations: [{name: Far}]\naudioGateways: [{name: Theirs, location: Far}]');
  });

  describe('audio playback', () => {
    it('makes a clip from text, plays it on a gateway (heard on its live audio), loops and cancels, announced', async () => {
      const watch = await watchChanges(server(), org.apiKey, org.orgUuid);
      try {
        const made = await api.ok('/api/audioplayback/uploadAudioText', { audioPlaintext: 'Please leave the building now.', displayName: 'Evacuate' });
        assert.equal(made.invalidSSML, false);
        const [clip] = (await api.ok('/api/audioplayback/getAudioUploadMetadataForOrg')).audioUploadMetadata;
        assert.deepEqual([clip.uuid, clip.displayName, clip.durationMs], [made.uuid, 'Evacuate', 5 * 400 + 300]);
        const sound = await media(clip.s3ObjectKey);
        assert.equal(sound.status, 200);
        const bytes = Buffer.from(await sound.arrayBuffer());
        assert.equal(bytes.subarray(0, 4).toString('latin1'), 'OggS');

        const hall = site.audioGateways.Hall;
        assert.equal(
          (await api.ok('/api/audioplayback/playAudioUpload', { audioUploadUuid: clip.uuid, audioGatewayUuids: [hall], loopDurationSec: 60 })).success,
          true,
        );
        await watch.waitFor((c) => c.entity === 'AUDIO_GATEWAY' && c.update?.attributes?.audioPlayback?.audioUploadUuid === clip.uuid, 'the gateway playing');
        const live = Buffer.from(await (await media(`/media/audiogateways/${hall}/live.opus?durationSec=1`)).arrayBuffer());
        assert.ok(live.equals(bytes), 'the gateway is heard playing the clip');
        assert.equal(
          (await api.ok('/api/audioplayback/playAudioUpload', { audioUploadUuid: clip.uuid, audioGatewayUuids: [site.audioGateways.Yard] })).success,
          false,
        );
        const cancelled = await api.ok('/api/audioplayback/cancelLoopingAudioPlayback', { audioDevices: [hall, site.audioGateways.Yard] });
        assert.deepEqual(cancelled.successMap, { [hall]: true, [site.audioGateways.Yard]: false });
        const after = Buffer.from(await (await media(`/media/audiogateways/${hall}/live.opus?durationSec=1`)).arrayBuffer());
        assert.ok(!after.equals(bytes));

        await api.ok('/api/audioplayback/playAudioUpload', { audioUploadUuid: clip.uuid, audioGatewayUuids: [`${hall}.a0`], playCount: 2 });
        assert.equal((await control(server(), '/simulate/audio-stopped', { gateway: hall })).json.result, 'STOPPED');
        await api.ok('/api/audioplayback/updateAudioUploadMetadata', {
          audioUploadUuid: clip.uuid,
          newDisplayName: 'Evacuation',
          newDescription: 'fire drill',
        });
        await watch.waitFor((c) => c.entity === 'AUDIO_UPLOAD' && c.type === 'UPDATE' && c.update.displayName === 'Evacuation', 'the renamed clip');
        await api.ok('/api/audioplayback/deleteAudioUploadMetadata', { audioUploadUuid: clip.uuid });
        assert.deepEqual((await api.ok('/api/audioplayback/getAudioUploadMetadataForOrg')).audioUploadMetadata, []);
        assert.equal((await media(clip.s3ObjectKey)).status, 404);
      } finally {
        await watch.close();
      }
    });

    it('takes SSML, answers invalid SSML as such, and keeps each organization to its own clips and gateways', async () => {
      const made = await api.ok('/api/audioplayback/uploadAudioText', { audioSSML: '<speak>Hello <break time="1s"/> there</speak>' });
      const clip = (await api.ok('/api/audioplayback/getAudioUploadMetadataForOrg')).audioUploadMetadata.find((c: { uuid: string }) => c.uuid === made.uuid);
      assert.equal(clip.durationMs, 2 * 400 + 1000);
      const bad = await api.call('/api/audioplayback/uploadAudioText', { audioSSML: '<speak>Hello <emphasis>there</speak>' });
      assert.deepEqual([bad.json.error, bad.json.invalidSSML], [true, true]);
      assert.match(await api.refused('/api/audioplayback/uploadAudioText', { audioPlaintext: 'a', audioSSML: '<speak>b</speak>' }), /one of them/);
      assert.match(
        await them.refused('/api/audioplayback/playAudioUpload', { audioUploadUuid: made.uuid, audioGatewayUuids: [theirs.audioGateways.Theirs] }),
        /not found/,
      );
      assert.match(
        await api.refused('/api/audioplayback/playAudioUpload', { audioUploadUuid: made.uuid, audioGatewayUuids: [theirs.audioGateways.Theirs] }),
        /not found/,
      );
      assert.match(await them.refused('/api/audioplayback/deleteAudioUploadMetadata', { audioUploadUuid: made.uuid }), /not found/);
      assert.equal((await media(`/media/audioclips/${made.uuid}`, other.apiKey)).status, 404);
      assert.equal((await api.ok('/api/audioplayback/getAudioUploadMetadataForOrg')).audioUploadMetadata.length, 1);
    });
  });

  describe('image uploads', () => {
    it('keeps the logos (a new one replaces the old), named by getOrgV2 and served by the media host', async () => {
      const first = await post('/api/upload/companyLogo', [{ name: 'logo.png', bytes: makePng(8, 4) }]);
      assert.equal(first.json.error, false, first.text);
      const second = await post('/api/upload/companyLogo', [{ name: 'logo2.jpg', bytes: makeJpeg() }]);
      await post('/api/upload/keypadLogo', [{ name: 'pad.png', bytes: makePng() }]);
      const org2 = (await api.ok('/api/org/getOrgV2')).org;
      assert.equal(org2.companyLogoUuid, second.json.uuid);
      assert.ok(org2.keypadLogoUrl && !org2.rhombusKeyLogoUuid);
      const served = await media(org2.companyLogoUrl);
      assert.deepEqual([served.status, served.headers.get('content-type')], [200, 'image/jpeg']);
      assert.equal((await media(first.json.uri)).status, 404);
      assert.equal((await media(org2.companyLogoUrl, other.apiKey)).status, 404);
      const gif = await post('/api/upload/rhombusKeyLogo', [{ name: 'anim.gif', bytes: makeGif() }]);
      assert.deepEqual([gif.json.error, /image\/gif/.test(gif.json.errorMsg)], [true, true]);

      // The keypad and Rhombus Key logos delete: getOrgV2 names none after, the file is gone, another organization's stay.
      const key = await post('/api/upload/rhombusKeyLogo', [{ name: 'key.png', bytes: makePng() }]);
      const theirPad = await post('/api/upload/keypadLogo', [{ name: 'theirs.png', bytes: makePng() }], {}, other.apiKey);
      const gone = await changesDuring(server(), async () => {
        await api.ok('/api/org/deleteKeypadLogo');
        await api.ok('/api/org/deleteRhombusKeyLogo');
      });
      assert.deepEqual(
        gone.filter((c) => c.entity === 'UPLOADED_IMAGE' && c.type === 'DELETE').map((c) => (c.update as { purpose: string }).purpose),
        ['KEYPAD_LOGO', 'RHOMBUS_KEY_LOGO'],
      );
      const after = (await api.ok('/api/org/getOrgV2')).org;
      assert.deepEqual([after.keypadLogoUuid, after.rhombusKeyLogoUuid, after.companyLogoUuid], [null, null, second.json.uuid]);
      assert.equal((await media(key.json.uri)).status, 404);
      assert.match(await api.refused('/api/org/deleteKeypadLogo'), /keypad logo not found/);
      assert.equal((await them.ok('/api/org/getOrgV2')).org.keypadLogoUuid, theirPad.json.uuid);
    });

    it('adds floor plans to a location, badge template images, and profile photos matched to users (gone with the user)', async () => {
      const plan = await post('/api/upload/floorplan', [{ name: 'floor1.png', bytes: makePng(20, 10) }], { locationUuid: site.locations.HQ });
      assert.equal(plan.json.error, false, plan.text);
      const location = (await api.ok('/api/location/getLocation', { locationUuid: site.locations.HQ })).location;
      assert.equal(location.floorPlans[0].mediaUuid, plan.json.uuid);
      assert.equal((await media(location.floorPlans[0].imageUrl)).status, 200);
      const foreign = await post('/api/upload/floorplan', [{ name: 'x.png', bytes: makePng() }], { locationUuid: theirs.locations.Far });
      assert.match(foreign.json.errorMsg, /not found/);
      const badges = await post('/api/upload/badgeTemplate/images', [
        { name: 'front.png', bytes: makePng() },
        { name: 'back.txt', bytes: Buffer.from('not an image') },
      ]);
      assert.deepEqual(
        badges.json.fileUploadResults.map((r: { success: boolean }) => r.success),
        [true, false],
      );
      const photos = await post('/api/upload/bulkUploadUserProfilePhotos', [
        { name: 'ada@example.com.jpg', bytes: makeJpeg() },
        { name: 'Nobody Known.png', bytes: makePng() },
      ]);
      const [ada, nobody] = photos.json.fileUploadResults;
      assert.deepEqual([ada.success, nobody.success], [true, false]);
      assert.equal(ada.targetUuid, site.users['Ada Lovelace']);
      const photoFiles = () => readdirSync(server().config.dataDir, { recursive: true }).filter((f) => String(f).includes(ada.uuid));
      assert.deepEqual([(await media(`/media/uploads/${ada.uuid}`)).status, photoFiles().length], [200, 1]);
      await api.ok('/api/user/deleteUser', { userUuid: ada.targetUuid });
      assert.deepEqual([(await media(`/media/uploads/${ada.uuid}`)).status, photoFiles().length], [404, 0]);
    });
  });
});
