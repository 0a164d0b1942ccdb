import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiAs } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { expectDenied, readOnlyKey } from '../../helpers/org-structure.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import { changesDuring, raiseAlerts, saveAlertAsClip, seedEventsSite, simulate, type EventsSite } from '../events/fixtures.js';

const T0 = Date.UTC(2024, 10, 1, 9);

forEachDialect('shared clip groups and their links', (dialect) => {
  let server: TestServer;
  let site: EventsSite;
  let outsider: TestOrg;
  let clips: any[];
  before(async () => {
    server = await startTestServer(dialect);
    site = await seedEventsSite(server, 'Sharing Org');
    outsider = await server.createOrg('Sharing Outsider');
    clips = [];
    for (const [camera, bytes] of [
      [site.lobby, '3000'],
      [site.dock, '5000'],
    ]) {
      clips.push((await simulate(server, 'clip', { camera, bytes, at: String(T0), durationSec: '6' })).savedClip);
    }
  });
  after(() => server.close());

  const { call, ok } = apiAs(
    () => server,
    () => site.org.apiKey,
    '/api/event',
  );
  /** A GET on the media host without any API key. */
  const anonymous = async (path: string, headers: Record<string, string> = {}) => {
    // Share links are absolute; the other media paths the tests build are relative to the media host.
    const r = await fetch(path.startsWith('http') ? path : server.gatehouse.urls.media + path, { headers });
    const body = Buffer.from(await r.arrayBuffer());
    return { status: r.status, headers: r.headers, body, json: () => JSON.parse(body.toString('utf8')) };
  };

  describe('createSharedClipGroupV3 and the link', () => {
    it('shares clips named directly or by their alert, served without an API key, announced', async () => {
      const [alert] = await raiseAlerts(server, site.org.orgUuid, site.lobby, [T0 - 60_000]);
      const fromAlert = await saveAlertAsClip(ok, alert.uuid);
      let created: any;
      const changes = await changesDuring(server, async () => {
        created = await ok('createSharedClipGroupV3', {
          title: 'For the insurer',
          expirationTimeSecs: 3600,
          uuids: [{ eventUuid: clips[0].uuid }, { eventUuid: clips[1].uuid }, { alertUuid: alert.uuid }],
        });
      });
      assert.ok(new RegExp(`^${server.gatehouse.urls.media}/media/shared/[A-Za-z0-9_-]+$`).test(created.shareUrl), created.shareUrl);
      const change = changes.find((c) => c.entity === 'SHARED_CLIP_GROUP');
      assert.deepEqual([change?.type, change?.entityUuid, (change?.update as any).title], ['CREATE', created.uuid, 'For the insurer']);

      const page = await anonymous(created.shareUrl);
      assert.equal(page.status, 200);
      const shared = page.json();
      assert.equal(shared.title, 'For the insurer');
      assert.deepEqual(
        shared.clips.map((c: any) => c.uuid),
        [clips[0].uuid, clips[1].uuid, fromAlert],
      );
      assert.equal(shared.clips[2].videoUrl, null, 'the alert clip has no video yet');
      const video = await anonymous(shared.clips[1].videoUrl);
      assert.equal(video.status, 200);
      assert.equal(video.body.length, 5000);
      assert.deepEqual([video.headers.get('content-type'), video.headers.get('cache-control')], ['video/mp4', 'no-store']);
      const part = await anonymous(shared.clips[0].videoUrl, { range: 'bytes=0-99' });
      assert.equal(part.status, 206);
      assert.equal(part.body.length, 100);
      // Only the group's clips under the link, and the ordinary path still wants a key.
      const other = (await simulate(server, 'clip', { camera: site.lobby, bytes: '100' })).savedClip;
      assert.equal((await anonymous(`${created.shareUrl}/clips/${other.uuid}/video`)).status, 404);
      assert.equal((await anonymous(clips[0].clipLocationV2)).status, 401);
      assert.equal((await anonymous('/media/shared/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status, 404);
    });

    it('asks for the password when one is set', async () => {
      const created = await ok('createSharedClipGroupV3', { uuids: [{ eventUuid: clips[0].uuid }], plaintextPassword: 'open sesame' });
      assert.equal((await anonymous(created.shareUrl)).status, 401);
      assert.equal((await anonymous(created.shareUrl, { 'x-share-password': 'wrong' })).status, 401);
      const page = await anonymous(created.shareUrl, { 'x-share-password': 'open sesame' });
      assert.equal(page.status, 200);
      assert.equal((await anonymous(page.json().clips[0].videoUrl, { 'x-share-password': 'open sesame' })).status, 200);
      const listed = (await ok('getSharedClipGroupsV2', {})).sharedClipGroups.find((g: any) => g.uuid === created.uuid);
      assert.equal(listed.isSecured, true);
    });

    it('stops serving the link once it expires (410)', async () => {
      const created = await ok('createSharedClipGroupV3', { uuids: [{ eventUuid: clips[1].uuid }], expirationTimeSecs: 1 });
      await waitFor('the link to expire', async () => (await anonymous(created.shareUrl)).status === 410, 5000, 100);
      const page = await anonymous(created.shareUrl);
      assert.match(page.json().errorMsg, /expired/);
      // Still listed for the organization, with its expiry.
      const details = (await ok('getSharedClipGroupDetails', { uuid: created.uuid })).sharedClipGroup;
      assert.equal(details.expirationTimeSecs, 1);
    });

    it("refuses another organization's clips, clips named twice over, and bad input", async () => {
      const foreign = await call('createSharedClipGroupV3', { uuids: [{ eventUuid: clips[0].uuid }] }, { key: outsider.apiKey });
      assert.equal(foreign.json.errorMsg, 'Saved clip not found');
      assert.match((await call('createSharedClipGroupV3', { uuids: [{ eventUuid: clips[0].uuid, alertUuid: clips[0].uuid }] })).json.errorMsg, /either/);
      assert.equal((await call('createSharedClipGroupV3', { uuids: [] })).status, 400);
      assert.equal((await call('createSharedClipGroupV3', { uuids: [{ eventUuid: clips[0].uuid }], expirationTimeSecs: 0 })).status, 400);
      expectDenied(await call('createSharedClipGroupV3', { uuids: [{ eventUuid: clips[0].uuid }] }, { key: await readOnlyKey(server, site.org) }));
      assert.deepEqual((await ok('getSharedClipGroupsV2', {}, { key: outsider.apiKey })).sharedClipGroups, []);
    });
  });

  describe('getSharedClipGroupsV2, getSharedClipGroupDetails, updateSharedClipGroupV2, deleteSharedClipGroupV2', () => {
    it('lists, reads back, updates and deletes a group; another organization sees and changes nothing', async () => {
      const before = Date.now();
      const created = await ok('createSharedClipGroupV3', { title: 'Gate', uuids: [{ eventUuid: clips[0].uuid }] });
      const listed = (await ok('getSharedClipGroupsV2', { createdAfterMs: before })).sharedClipGroups;
      const group = listed.find((g: any) => g.uuid === created.uuid);
      assert.deepEqual(
        [group.title, group.orgUuid, group.isSecured, group.expirationTimeSecs, group.sharedClips.map((c: any) => [c.uuid, c.durationSec, c.startTime])],
        ['Gate', site.org.orgUuid, false, 7 * 86_400, [[clips[0].uuid, 6, T0]]],
      );
      assert.ok(!(await ok('getSharedClipGroupsV2', { createdBeforeMs: before })).sharedClipGroups.some((g: any) => g.uuid === created.uuid));

      const foreignRead = await call('getSharedClipGroupDetails', { uuid: created.uuid }, { key: outsider.apiKey });
      assert.equal(foreignRead.json.errorMsg, 'Shared clip group not found');
      const foreignUpdate = await call('updateSharedClipGroupV2', { sharedClipUuid: created.uuid, title: 'Hijacked' }, { key: outsider.apiKey });
      assert.equal(foreignUpdate.json.errorMsg, 'Shared clip group not found');
      assert.equal((await call('deleteSharedClipGroupV2', { uuid: created.uuid }, { key: outsider.apiKey })).json.errorMsg, 'Shared clip group not found');

      const changes = await changesDuring(server, async () => {
        const updated = await ok('updateSharedClipGroupV2', {
          sharedClipUuid: created.uuid,
          title: 'Front gate',
          description: 'Tuesday',
          plaintextPassword: 'pw',
        });
        assert.deepEqual([updated.uuid, updated.shareUrl], [created.uuid, created.shareUrl]);
      });
      assert.equal(changes.find((c) => c.entity === 'SHARED_CLIP_GROUP')?.type, 'UPDATE');
      const details = (await ok('getSharedClipGroupDetails', { uuid: created.uuid })).sharedClipGroup;
      assert.deepEqual(
        [details.title, details.description, details.sharedClips[0].uuid, details.sharedClips[0].seekPoints],
        ['Front gate', 'Tuesday', clips[0].uuid, []],
      );
      assert.equal((await anonymous(created.shareUrl)).status, 401, 'the new password is asked for');
      await ok('updateSharedClipGroupV2', { sharedClipUuid: created.uuid, plaintextPassword: '' });
      assert.equal((await anonymous(created.shareUrl)).status, 200, 'an empty password removes it');
      assert.equal((await call('updateSharedClipGroupV2', { sharedClipUuid: created.uuid, expirationTimeSecs: -5 })).status, 400);

      const deleted = await changesDuring(server, () => ok('deleteSharedClipGroupV2', { uuid: created.uuid }));
      assert.equal(deleted.find((c) => c.entity === 'SHARED_CLIP_GROUP')?.type, 'DELETE');
      assert.equal((await anonymous(created.shareUrl)).status, 404);
      assert.equal((await anonymous(`${created.shareUrl}/clips/${clips[0].uuid}/video`)).status, 404);
      assert.equal((await call('getSharedClipGroupDetails', { uuid: created.uuid })).json.errorMsg, 'Shared clip group not found');
      assert.equal((await ok('getClipWithProgress', { clipUuid: clips[0].uuid })).clip.status, 'COMPLETE', 'the clip stays');
      assert.equal((await call('deleteSharedClipGroupV2', {})).status, 400);
    });
  });
});
