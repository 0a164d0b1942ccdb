import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listLocations } from '../../../src/domains/devices/service.js';
import { apiAs } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { expectDenied, readOnlyKey } from '../../helpers/org-structure.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { changesDuring, raiseAlerts, saveAlertAsClip, saveClips, seedEventsSite, seededRandom, simulate, type EventsSite } from '../events/fixtures.js';

const T0 = Date.UTC(2024, 8, 1, 12);
const DAY = 86_400_000;

forEachDialect('the saved-clip workflow', (dialect) => {
  let server: TestServer;
  let site: EventsSite;
  let outsider: TestOrg;
  before(async () => {
    server = await startTestServer(dialect);
    site = await seedEventsSite(server, 'Clip Workflow Org');
    outsider = await server.createOrg('Clip Outsider');
  });
  after(() => server.close());

  const { call, ok } = apiAs(
    () => server,
    () => site.org.apiKey,
    '/api/event',
  );
  const clipOf = async (clipUuid: string) => (await ok('getClipWithProgress', { clipUuid })).clip;

  describe('getClipsWithProgress and getExpiringClipsForOrg', () => {
    let paged: EventsSite;
    let uuids: string[];
    before(async () => {
      paged = await seedEventsSite(server, 'Paged Clips Org');
      const random = seededRandom(11);
      const stamps: number[] = [];
      // Runs of clips that share a timestamp, across both cameras.
      for (let t = T0; stamps.length < 45; t -= 1000) for (let k = 1 + Math.floor(random() * 4); k > 0; k--) stamps.push(t);
      uuids = [
        ...(await saveClips(server, paged.org.orgUuid, paged.lobby, stamps.slice(0, 30))),
        ...(await saveClips(server, paged.org.orgUuid, paged.dock, stamps.slice(30))),
      ];
    });
    const all = async (path: string, body: Record<string, unknown>, key: string) => {
      const seen: any[] = [];
      let pageToken: string | undefined;
      for (let page = 0; page < 200; page++) {
        const json = await ok(path, { ...body, pageToken }, { key: key });
        assert.ok(json.savedClips.length <= body.pageSize!);
        seen.push(...json.savedClips);
        if (!json.pageToken) return seen;
        assert.equal(json.savedClips.length, body.pageSize, 'only the last page is short');
        pageToken = json.pageToken;
      }
      throw new Error('paging did not end');
    };

    it('pages every clip once, in the asked order, for any page size', async () => {
      for (const pageSize of [1, 4, 7, 200]) {
        const seen = await all('getClipsWithProgress', { pageSize }, paged.org.apiKey);
        assert.equal(new Set(seen.map((c) => c.uuid)).size, seen.length, `no repeats at ${pageSize}`);
        assert.deepEqual(seen.map((c) => c.uuid).sort(), [...uuids].sort(), `no gaps at ${pageSize}`);
        for (let i = 1; i < seen.length; i++) assert.ok(seen[i - 1].timestampMs >= seen[i].timestampMs, 'newest first');
      }
      const ascending = await all('getClipsWithProgress', { pageSize: 6, sortOrder: 'ASC' }, paged.org.apiKey);
      assert.deepEqual(ascending.map((c) => c.uuid).sort(), [...uuids].sort());
      for (let i = 1; i < ascending.length; i++) assert.ok(ascending[i - 1].timestampMs <= ascending[i].timestampMs, 'oldest first');
      const first = ascending[0];
      assert.deepEqual([first.status, first.percentComplete, first.orgUuid], ['INITIATING', 0, paged.org.orgUuid]);
      assert.equal(typeof first.currentOperation, 'string');
      assert.equal(typeof first.lastUpdatedSec, 'number');
    });

    it('filters by camera, location, time and words, and keeps another organization out', async () => {
      const dock = await all('getClipsWithProgress', { pageSize: 100, deviceUuidFilters: [paged.dock] }, paged.org.apiKey);
      assert.equal(dock.length, uuids.length - 30);
      assert.ok(dock.every((c) => c.deviceUuid === `${paged.dock}.v0`));
      const [hq] = await listLocations(server.gatehouse.deps, paged.org.orgUuid);
      const atHq = await all('getClipsWithProgress', { pageSize: 100, locationUuidFilters: [hq.uuid] }, paged.org.apiKey);
      assert.equal(atHq.length, uuids.length);
      const dockAtHq = await all('getClipsWithProgress', { pageSize: 100, locationUuidFilters: [hq.uuid], deviceUuidFilters: [paged.dock] }, paged.org.apiKey);
      assert.equal(dockAtHq.length, dock.length);
      assert.deepEqual(await all('getClipsWithProgress', { pageSize: 100, locationUuidFilters: [site.org.orgUuid] }, paged.org.apiKey), []);
      assert.deepEqual(await all('getClipsWithProgress', { pageSize: 100, locationUuidFilters: [hq.uuid] }, outsider.apiKey), []);
      const range = await all('getClipsWithProgress', { pageSize: 100, timestampMsAfter: T0 - 2000, timestampMsBefore: T0 }, paged.org.apiKey);
      assert.ok(range.length > 0 && range.every((c) => c.timestampMs >= T0 - 2000 && c.timestampMs < T0));
      const titled = await all('getClipsWithProgress', { pageSize: 100, searchFilter: 'DOCK CL' }, paged.org.apiKey);
      assert.equal(titled.length, dock.length, 'titles are "<camera> clip"');
      assert.deepEqual(await all('getClipsWithProgress', { pageSize: 100, searchFilter: '100%_' }, paged.org.apiKey), []);
      assert.deepEqual(await all('getClipsWithProgress', { pageSize: 100 }, outsider.apiKey), []);
      assert.deepEqual(await all('getClipsWithProgress', { pageSize: 100, deviceUuidFilters: [paged.dock] }, outsider.apiKey), []);
    });

    it('refuses a page size out of 1..200, a foreign page token and a wrong body', async () => {
      assert.equal((await call('getClipsWithProgress', { pageSize: 0 }, { key: paged.org.apiKey })).status, 400);
      assert.equal((await call('getClipsWithProgress', { pageSize: 201 }, { key: paged.org.apiKey })).status, 400);
      assert.equal((await call('getClipsWithProgress', { pageSize: 5, sortOrder: 'SIDEWAYS' }, { key: paged.org.apiKey })).status, 400);
      const r = await call('getClipsWithProgress', { pageSize: 5, pageToken: 'not-a-token' }, { key: paged.org.apiKey });
      assert.match(r.json.errorMsg, /pageToken/);
      const token = (await ok('getClipsWithProgress', { pageSize: 5 }, { key: paged.org.apiKey })).pageToken;
      assert.match(
        (await call('getClipsWithProgress', { pageSize: 5, pageToken: token, sortOrder: 'ASC' }, { key: paged.org.apiKey })).json.errorMsg,
        /pageToken/,
      );
    });

    it('lists the clips within a week of the end of their retention', async () => {
      const [old, fresh] = await saveClips(server, paged.org.orgUuid, paged.lobby, [T0 - 90 * DAY, T0 - DAY]);
      // The clip was made 85 days ago: its 90 days end in 5.
      await server.gatehouse.deps.store.db
        .updateTable('saved_clips')
        .set({ created_at_ms: Date.now() - 85 * DAY })
        .where('uuid', '=', old)
        .execute();
      const expiring = await all('getExpiringClipsForOrg', { pageSize: 2 }, paged.org.apiKey);
      assert.deepEqual(
        expiring.map((c) => c.uuid),
        [old],
      );
      assert.ok(!expiring.some((c) => c.uuid === fresh));
      assert.deepEqual(await all('getExpiringClipsForOrg', { pageSize: 2 }, outsider.apiKey), []);
    });
  });

  describe('getClipWithProgress and getSavedClipDetails', () => {
    it("answers a clip with its progress and details, and another organization's as unknown", async () => {
      const clip = (await simulate(server, 'clip', { camera: site.lobby, bytes: '4096', at: String(T0), durationSec: '8', title: 'Gate' })).savedClip;
      const progress = await clipOf(clip.uuid);
      assert.deepEqual(
        [progress.status, progress.percentComplete, progress.byteCount, progress.durationSec, progress.title, progress.clipLocationV2],
        ['COMPLETE', 100, 4096, 8, 'Gate', `${server.gatehouse.urls.media}/media/clips/${clip.uuid}/video`],
      );
      const details = (await ok('getSavedClipDetails', { clipUuid: clip.uuid })).savedClip;
      assert.deepEqual([details.uuid, details.sha256Hex, details.boundingBoxes, details.seekPoints], [clip.uuid, clip.sha256Hex, [], []]);
      assert.equal(details.accessSettings.visibility, 'ORG_WIDE');
      for (const path of ['getClipWithProgress', 'getSavedClipDetails']) {
        const foreign = await call(path, { clipUuid: clip.uuid }, { key: outsider.apiKey });
        assert.deepEqual([foreign.status, foreign.json.error, foreign.json.errorMsg], [200, true, 'Saved clip not found']);
        assert.equal((await call(path, {})).status, 400);
      }
    });
  });

  describe('updateSavedClip', () => {
    it('changes the title, description and access settings, announces it, and refuses another organization and bad input', async () => {
      const [uuid] = await saveClips(server, site.org.orgUuid, site.dock, [T0 - 5000]);
      const changes = await changesDuring(server, () =>
        ok('updateSavedClip', {
          savedClipUuid: uuid,
          title: 'Forklift',
          description: 'near miss',
          accessSettings: { visibility: 'PRIVATE', allowedUsers: [site.org.userUuid] },
        }),
      );
      const change = changes.find((c) => c.entity === 'SAVED_CLIP' && c.entityUuid === uuid);
      assert.equal(change?.type, 'UPDATE');
      assert.equal((change?.update as any).title, 'Forklift');
      const clip = await clipOf(uuid);
      assert.deepEqual(
        [clip.title, clip.description, clip.accessSettings.visibility, clip.accessSettings.allowedUsers, clip.accessSettings.allowedRoles],
        ['Forklift', 'near miss', 'PRIVATE', [site.org.userUuid], []],
      );
      // Only the fields given change.
      await ok('updateSavedClip', { savedClipUuid: uuid, description: 'reviewed' });
      assert.deepEqual(
        [(await clipOf(uuid)).title, (await clipOf(uuid)).description, (await clipOf(uuid)).accessSettings.visibility],
        ['Forklift', 'reviewed', 'PRIVATE'],
      );

      const foreign = await call('updateSavedClip', { savedClipUuid: uuid, title: 'Hijacked' }, { key: outsider.apiKey });
      assert.equal(foreign.json.errorMsg, 'Saved clip not found');
      assert.equal((await clipOf(uuid)).title, 'Forklift');
      assert.equal((await call('updateSavedClip', { savedClipUuid: uuid, title: '' })).status, 400);
      assert.equal((await call('updateSavedClip', { savedClipUuid: uuid, accessSettings: { visibility: 'EVERYONE' } })).status, 400);
      assert.equal((await call('updateSavedClip', { title: 'x' })).status, 400);
      expectDenied(await call('updateSavedClip', { savedClipUuid: uuid, title: 'Reader' }, { key: await readOnlyKey(server, site.org) }));
      assert.equal((await clipOf(uuid)).title, 'Forklift');
    });
  });

  describe('getSavedClipCount', () => {
    it('counts the clips and the private ones, by camera and time', async () => {
      const counted = await seedEventsSite(server, 'Counted Clips Org');
      const lobby = await saveClips(server, counted.org.orgUuid, counted.lobby, [T0, T0 + 1000, T0 + 2000]);
      await saveClips(server, counted.org.orgUuid, counted.dock, [T0 + 3000]);
      await ok('updateSavedClip', { savedClipUuid: lobby[0], accessSettings: { visibility: 'PRIVATE' } }, { key: counted.org.apiKey });
      const count = async (body: unknown, key = counted.org.apiKey) => {
        const json = await ok('getSavedClipCount', body, { key: key });
        return [json.count, json.privateCount];
      };
      assert.deepEqual(await count({}), [4, 1]);
      assert.deepEqual(await count({ deviceFilter: [counted.lobby] }), [3, 1]);
      assert.deepEqual(await count({ startTimeMs: T0 + 1000, endTimeMs: T0 + 3000 }), [2, 0]);
      assert.deepEqual(await count({}, outsider.apiKey), [0, 0]);
      assert.deepEqual(await count({ deviceFilter: [counted.lobby] }, outsider.apiKey), [0, 0]);
      assert.match((await call('getSavedClipCount', { startTimeMs: T0, endTimeMs: T0 - 1 }, { key: counted.org.apiKey })).json.errorMsg, /endTimeMs/);
      assert.equal((await call('getSavedClipCount', { deviceFilter: 'lobby' }, { key: counted.org.apiKey })).status, 400);
    });
  });

  describe('getSavedClipsByExternalTransactionId', () => {
    it("answers the clips of a transaction, none of another organization's", async () => {
      const a = (await simulate(server, 'clip', { camera: site.lobby, noUpload: 'true', transaction: 'txn-42' })).savedClip;
      const b = (await simulate(server, 'clip', { camera: site.dock, noUpload: 'true', transaction: 'txn-42' })).savedClip;
      await simulate(server, 'clip', { camera: site.dock, noUpload: 'true', transaction: 'txn-43' });
      const found = (await ok('getSavedClipsByExternalTransactionId', { externalTransactionId: 'txn-42' })).savedClips;
      assert.deepEqual(found.map((c: any) => c.uuid).sort(), [a.uuid, b.uuid].sort());
      assert.ok(found.every((c: any) => c.externalTransactionId === 'txn-42'));
      assert.deepEqual((await ok('getSavedClipsByExternalTransactionId', { externalTransactionId: 'txn-42' }, { key: outsider.apiKey })).savedClips, []);
      assert.deepEqual((await ok('getSavedClipsByExternalTransactionId', { externalTransactionId: 'txn-none' })).savedClips, []);
      assert.equal((await call('getSavedClipsByExternalTransactionId', {})).status, 400);
    });
  });

  describe('deleteSavedClip', () => {
    it('removes the clip and its media from the media host, announced; another organization cannot', async () => {
      const clip = (await simulate(server, 'clip', { camera: site.lobby, bytes: '2048' })).savedClip;
      const media = (path: string) => fetch(server.gatehouse.urls.media + path, { headers: { 'x-auth-apikey': site.org.apiKey } });
      const before = await media(clip.clipLocationV2);
      assert.equal(before.status, 200);
      await before.arrayBuffer();

      const foreign = await call('deleteSavedClip', { savedClipUuid: clip.uuid }, { key: outsider.apiKey });
      assert.equal(foreign.json.errorMsg, 'Saved clip not found');
      assert.equal((await clipOf(clip.uuid)).status, 'COMPLETE');
      expectDenied(await call('deleteSavedClip', { savedClipUuid: clip.uuid }, { key: await readOnlyKey(server, site.org) }));

      const changes = await changesDuring(server, () => ok('deleteSavedClip', { savedClipUuid: clip.uuid }));
      const change = changes.find((c) => c.entity === 'SAVED_CLIP' && c.entityUuid === clip.uuid);
      assert.equal(change?.type, 'DELETE');
      for (const part of [clip.clipLocationV2, clip.thumbnailLocationV2]) {
        const gone = await media(part);
        assert.equal(gone.status, 404, part);
        await gone.arrayBuffer();
      }
      assert.equal((await call('getClipWithProgress', { clipUuid: clip.uuid })).json.errorMsg, 'Saved clip not found');
      assert.equal((await call('deleteSavedClip', { savedClipUuid: clip.uuid })).json.errorMsg, 'Saved clip not found');
      assert.equal((await call('deleteSavedClip', {})).status, 400);
    });
  });

  describe('unSavePolicyAlertV2', () => {
    it("deletes the alert's clip and its media and unsaves the alert; another organization cannot", async () => {
      const [alert] = await raiseAlerts(server, site.org.orgUuid, site.lobby, [T0 - 30_000]);
      const clipUuid = await saveAlertAsClip(ok, alert.uuid);
      const uploaded = (await simulate(server, 'clip', { camera: site.lobby, clip: clipUuid, bytes: '512' })).savedClip;
      const media = () => fetch(server.gatehouse.urls.media + uploaded.clipLocationV2, { headers: { 'x-auth-apikey': site.org.apiKey } });
      assert.equal((await media()).status, 200);

      const foreign = await call('unSavePolicyAlertV2', { alertUuid: alert.uuid }, { key: outsider.apiKey });
      assert.equal(foreign.json.errorMsg, 'Policy alert not found');
      const wrongClip = (await saveClips(server, site.org.orgUuid, site.lobby, [T0]))[0];
      assert.equal((await call('unSavePolicyAlertV2', { alertUuid: alert.uuid, savedClipUuid: wrongClip })).json.errorMsg, 'Saved clip of the alert not found');
      assert.equal((await clipOf(clipUuid)).status, 'COMPLETE');

      const changes = await changesDuring(server, () => ok('unSavePolicyAlertV2', { alertUuid: alert.uuid, savedClipUuid: clipUuid }));
      assert.equal(changes.find((c) => c.entity === 'SAVED_CLIP')?.type, 'DELETE');
      assert.equal((changes.find((c) => c.entity === 'POLICY_ALERT')?.update as any).saved, false);
      assert.equal((await ok('getPolicyAlertDetails', { policyAlertUuid: alert.uuid })).policyAlert.saved, false);
      assert.equal((await call('getClipWithProgress', { clipUuid })).json.errorMsg, 'Saved clip not found');
      const gone = await media();
      assert.equal(gone.status, 404);
      await gone.arrayBuffer();
      assert.match((await call('unSavePolicyAlertV2', { alertUuid: alert.uuid })).json.errorMsg, /is not saved/);
      // Saved again, and this time the clip is deleted directly: the alert is unsaved too.
      const again = await saveAlertAsClip(ok, alert.uuid);
      await ok('deleteSavedClip', { savedClipUuid: again });
      assert.equal((await ok('getPolicyAlertDetails', { policyAlertUuid: alert.uuid })).policyAlert.saved, false);
      assert.equal((await call('unSavePolicyAlertV2', {})).status, 400);
    });
  });
});
