import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { changesDuring, raiseAlerts, saveAlertAsClip, seedEventsSite, simulate, type EventsSite } from './fixtures.js';

const T0 = Date.UTC(2024, 6, 1, 15);

forEachDialect('saved clips and the media host', (dialect) => {
  let server: TestServer;
  let site: EventsSite;
  let media: string;
  before(async () => {
    server = await startTestServer(dialect);
    site = await seedEventsSite(server);
    media = server.gatehouse.urls.media;
  });
  after(() => server.close());

  const call = (path: string, body: unknown, key = site.org.apiKey) => server.call(path, body, { key });
  const ok = async (path: string, body: unknown = {}) => {
    const r = await call(path, body);
    assert.equal(r.json?.error, false, r.text);
    return r.json;
  };
  const put = (path: string, body: Buffer, key = site.org.apiKey, contentType = 'video/mp4') =>
    fetch(media + path, { method: 'PUT', headers: { 'x-auth-apikey': key, 'content-type': contentType }, body: new Uint8Array(body) });
  // Answers carry absolute links; the paths the tests build are relative to the media host.
  const get = (path: string, headers: Record<string, string> = {}, key = site.org.apiKey) =>
    fetch(path.startsWith('http') ? path : media + path, { headers: { 'x-auth-apikey': key, ...headers } });

  /** A clip saved from a fresh camera alert (INITIATING). */
  async function clipFromAlert(): Promise<{ alertUuid: string; clipUuid: string }> {
    const [alert] = await raiseAlerts(server, site.org.orgUuid, site.lobby, [T0]);
    const clipUuid = await saveAlertAsClip(ok, alert.uuid, { savedClipTitle: 'Loading dock', savedClipDescription: 'forklift' });
    return { alertUuid: alert.uuid, clipUuid };
  }

  describe('POST /api/event/savePolicyAlertV2', () => {
    it('creates an INITIATING clip of the alert and marks the alert saved, announcing both', async () => {
      const [alert] = await raiseAlerts(server, site.org.orgUuid, site.lobby, [T0 - 5000]);
      let r: any;
      const changes = await changesDuring(server, async () => {
        r = await call('/api/event/savePolicyAlertV2', { alertUuid: alert.uuid, savedClipTitle: 'Tailgating' });
      });
      assert.equal(r.json.error, false, JSON.stringify(r.json));
      const clipChange = changes.find((c) => c.entity === 'SAVED_CLIP');
      assert.ok(clipChange);
      const clip = clipChange.update as Record<string, unknown>;
      const listed = (await ok('/api/event/getSavedClips', {})).savedClips.find((c: { sourceAlertUuid?: string }) => c.sourceAlertUuid === alert.uuid);
      assert.equal(clip.uuid, listed?.uuid, 'the clip a client finds by its alert');
      assert.deepEqual(
        [clip.status, clip.sourceAlertUuid, clip.title, clip.timestampMs, clip.deviceUuid],
        ['INITIATING', alert.uuid, 'Tailgating', T0 - 5000, `${site.lobby}.v0`],
      );
      const alertChange = changes.find((c) => c.entity === 'POLICY_ALERT');
      assert.equal(alertChange?.type, 'UPDATE');
      assert.equal((alertChange?.update as { saved: boolean }).saved, true);
      const details = await call('/api/event/getPolicyAlertDetails', { policyAlertUuid: alert.uuid });
      assert.equal(details.json.policyAlert.saved, true);
    });

    it("refuses to save an alert twice, an alert without footage, another organization's alert, and a malformed body", async () => {
      const { alertUuid } = await clipFromAlert();
      assert.match((await call('/api/event/savePolicyAlertV2', { alertUuid })).json.errorMsg, /already saved/);
      const reading = await simulate(server, 'reading', { sensor: site.air, co2Ppm: '2000' });
      assert.match((await call('/api/event/savePolicyAlertV2', { alertUuid: reading.policyAlert.uuid })).json.errorMsg, /only a camera's alert has footage/);
      const outsider = await server.createOrg('Clip Outsider');
      assert.equal((await call('/api/event/savePolicyAlertV2', { alertUuid }, outsider.apiKey)).json.errorMsg, 'Policy alert not found');
      assert.equal((await call('/api/event/savePolicyAlertV2', {})).status, 400);
      assert.equal((await call('/api/event/savePolicyAlertV2', { alertUuid }, '')).status, 401);
    });
  });

  describe('the media host', () => {
    it('takes the video upload to COMPLETE with its sha256Hex and byteCount, and serves Range reads of it', async () => {
      const { clipUuid } = await clipFromAlert();
      const video = randomBytes(300_000);
      let r!: Response;
      const changes = await changesDuring(server, async () => {
        r = await put(`/media/clips/${clipUuid}/video`, video);
      });
      assert.equal(r.status, 200);
      const clip = (await r.json()).savedClip;
      assert.equal(clip.status, 'COMPLETE');
      assert.equal(clip.sha256Hex, createHash('sha256').update(video).digest('hex'));
      assert.equal(clip.byteCount, video.length);
      assert.equal(clip.clipLocationV2, `${media}/media/clips/${clipUuid}/video`, 'absolute, as every URI handed out');
      assert.deepEqual(
        changes.filter((c) => c.entity === 'SAVED_CLIP').map((c) => (c.update as { status: string }).status),
        ['UPLOADING', 'COMPLETE'],
      );

      const whole = await get(`/media/clips/${clipUuid}/video`);
      assert.equal(whole.status, 200);
      assert.equal(whole.headers.get('accept-ranges'), 'bytes');
      assert.equal(whole.headers.get('content-type'), 'video/mp4');
      assert.ok(Buffer.from(await whole.arrayBuffer()).equals(video));

      const part = await get(clip.clipLocationV2, { range: 'bytes=1000-1999' });
      assert.equal(part.status, 206);
      assert.equal(part.headers.get('content-range'), `bytes 1000-1999/${video.length}`);
      assert.ok(Buffer.from(await part.arrayBuffer()).equals(video.subarray(1000, 2000)));

      const tail = await get(clip.clipLocationV2, { range: 'bytes=-100' });
      assert.equal(tail.status, 206);
      assert.ok(Buffer.from(await tail.arrayBuffer()).equals(video.subarray(video.length - 100)));

      const open = await get(clip.clipLocationV2, { range: 'bytes=299990-' });
      assert.equal(open.headers.get('content-range'), `bytes 299990-299999/${video.length}`);
      assert.equal((await open.arrayBuffer()).byteLength, 10);

      const beyond = await get(clip.clipLocationV2, { range: `bytes=${video.length}-` });
      assert.equal(beyond.status, 416);
      assert.equal(beyond.headers.get('content-range'), `bytes */${video.length}`);
      await beyond.arrayBuffer();

      const listed = await call('/api/event/getSavedClipsV2', {});
      const row = listed.json.savedClips.find((c: any) => c.uuid === clipUuid);
      assert.deepEqual([row.status, row.byteCount, row.sha256Hex], ['COMPLETE', video.length, clip.sha256Hex]);
    });

    it('stores media under <data-dir>/media/<org>/ and serves the thumbnail', async () => {
      const { clipUuid } = await clipFromAlert();
      const png = Buffer.from('89504e470d0a1a0a', 'hex');
      const r = await put(`/media/clips/${clipUuid}/thumbnail`, png, site.org.apiKey, 'image/png');
      assert.equal(r.status, 200);
      assert.equal((await r.json()).savedClip.thumbnailLocationV2, `${media}/media/clips/${clipUuid}/thumbnail`);
      const thumbnail = await get(`/media/clips/${clipUuid}/thumbnail`);
      assert.equal(thumbnail.headers.get('content-type'), 'image/png');
      assert.ok(Buffer.from(await thumbnail.arrayBuffer()).equals(png));
      const { existsSync } = await import('node:fs');
      assert.ok(existsSync(`${server.config.dataDir}/media/${site.org.orgUuid}/clips/${clipUuid}/thumbnail`));
    });

    it('refuses a second video upload of a complete clip', async () => {
      const { clipUuid } = await clipFromAlert();
      assert.equal((await put(`/media/clips/${clipUuid}/video`, randomBytes(10))).status, 200);
      const again = await put(`/media/clips/${clipUuid}/video`, randomBytes(10));
      assert.equal(again.status, 409);
      assert.match((await again.json()).errorMsg, /already complete/);
    });

    it('answers 404 for a video not uploaded yet', async () => {
      const { clipUuid } = await clipFromAlert();
      const r = await get(`/media/clips/${clipUuid}/video`);
      assert.equal(r.status, 404);
      await r.arrayBuffer();
    });

    it("requires the API-key headers, and refuses another organization's media as missing", async () => {
      const clip = (await simulate(server, 'clip', { camera: site.lobby, bytes: '2048' })).savedClip;
      const anonymous = await fetch(media + clip.clipLocationV2);
      assert.equal(anonymous.status, 401);
      await anonymous.arrayBuffer();
      const outsider = await server.createOrg('Media Outsider');
      const foreign = await get(clip.clipLocationV2, {}, outsider.apiKey);
      assert.equal(foreign.status, 404);
      await foreign.arrayBuffer();
      const foreignPut = await put(`/media/clips/${clip.uuid}/thumbnail`, Buffer.from('x'), outsider.apiKey);
      assert.equal(foreignPut.status, 404);
      await foreignPut.arrayBuffer();
      assert.equal((await get(clip.clipLocationV2)).status, 200);
    });
  });

  describe('POST /_gatehouse/simulate/clip', () => {
    it('creates a clip of the camera and uploads synthetic video and a thumbnail to COMPLETE', async () => {
      const r = await simulate(server, 'clip', { camera: site.dock, bytes: '4096', at: String(T0), durationSec: '12' });
      const clip = r.savedClip;
      assert.deepEqual([clip.status, clip.byteCount, clip.timestampMs, clip.durationSec, clip.deviceUuid], ['COMPLETE', 4096, T0, 12, `${site.dock}.v0`]);
      const video = Buffer.from(await (await get(clip.clipLocationV2)).arrayBuffer());
      assert.equal(createHash('sha256').update(video).digest('hex'), clip.sha256Hex);
      assert.equal((await get(clip.thumbnailLocationV2)).headers.get('content-type'), 'image/png');
    });

    it('uploads the video of a clip saved from an alert', async () => {
      const { clipUuid } = await clipFromAlert();
      const r = await simulate(server, 'clip', { camera: site.lobby, clip: clipUuid, bytes: '100' });
      assert.deepEqual([r.savedClip.uuid, r.savedClip.status, r.savedClip.byteCount], [clipUuid, 'COMPLETE', 100]);
    });
  });
});
