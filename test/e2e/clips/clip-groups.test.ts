import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiAs } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { expectDenied, readOnlyKey } from '../../helpers/org-structure.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, nobodysUuid } from '../config/config-site.js';
import { changesDuring, raiseAlerts, saveAlertAsClip, seedEventsSite, simulate, type EventsSite } from '../events/fixtures.js';

const T0 = Date.UTC(2024, 10, 1, 9);

forEachDialect('clip groups: folders of saved clips', (dialect) => {
  let server: TestServer;
  let site: EventsSite;
  let other: EventsSite;
  let clips: string[];
  let theirClip: string;
  before(async () => {
    server = await startTestServer(dialect);
    site = await seedEventsSite(server, 'Folders Org');
    other = await seedEventsSite(server, 'Other Folders Org');
    clips = [];
    for (const [i, camera] of [site.lobby, site.dock, site.lobby].entries()) {
      clips.push((await simulate(server, 'clip', { camera, bytes: '1000', at: String(T0 + i * 60_000), durationSec: '5' })).savedClip.uuid);
    }
    theirClip = (await simulate(server, 'clip', { camera: other.lobby, bytes: '1000', at: String(T0) })).savedClip.uuid;
  });
  after(() => server.close());

  const { call, ok } = apiAs(
    () => server,
    () => site.org.apiKey,
    '/api/event',
  );
  const refs = (...uuids: string[]) => uuids.map((eventUuid) => ({ eventUuid }));
  const details = async (uuid: string, s: EventsSite = site) => (await ok('getClipGroupDetails', { uuid }, { key: s.org.apiKey })).group;
  const listed = async (s: EventsSite = site) => ok('getClipGroupsForOrg', {}, { key: s.org.apiKey });

  describe('createClipGroup, getClipGroupsForOrg, getClipGroupDetails', () => {
    it('makes a folder of clips named directly or by their alert, lists it with its clip count, announced', async () => {
      const [alert] = await raiseAlerts(server, site.org.orgUuid, site.dock, [T0 - 60_000]);
      const fromAlert = await saveAlertAsClip(ok, alert.uuid);
      let created: any;
      const changes = await changesDuring(server, async () => {
        created = await ok('createClipGroup', {
          title: 'Loading dock incident',
          description: 'Tuesday night',
          uuids: [...refs(clips[1], clips[0], clips[1]), { alertUuid: alert.uuid }],
        });
      });
      const change = changes.find((c) => c.entity === 'CLIP_GROUP');
      assert.deepEqual([change?.type, change?.entityUuid, (change?.update as any).clipCount], ['CREATE', created.uuid, 3]);

      const group = await details(created.uuid);
      assert.deepEqual(
        [group.title, group.description, group.orgUuid, group.clipCount, group.clips.map((c: any) => c.uuid)],
        ['Loading dock incident', 'Tuesday night', site.org.orgUuid, 3, [clips[1], clips[0], fromAlert]],
        'each clip once, in the order first named',
      );
      assert.deepEqual([group.clips[1].startTime, group.clips[1].durationSec, group.clips[1].seekPoints], [T0, 5, []]);

      const list = await listed();
      const summary = list.clipGroups.find((g: any) => g.uuid === created.uuid);
      assert.deepEqual(summary, { uuid: created.uuid, name: 'Loading dock incident', clipCount: 3 }, 'what the platform’s MCP server reads');
      const full = list.groups.find((g: any) => g.uuid === created.uuid);
      assert.deepEqual(
        full.clips.map((c: any) => c.uuid),
        [clips[1], clips[0], fromAlert],
      );
      assert.equal((await ok('createClipGroup', { title: 'Empty' })).uuid.length, 22, 'a folder may start empty');
      assert.deepEqual((await listed(other)).groups, [], 'the other organization sees none of them');
      assert.ok(!(await ok('getClipGroupsForOrg', { createdBeforeMs: group.createdAtMillis })).groups.some((g: any) => g.uuid === created.uuid));
      assert.ok((await ok('getClipGroupsForOrg', { createdAfterMs: group.createdAtMillis })).groups.some((g: any) => g.uuid === created.uuid));
    });

    it("answers another organization's clip as an unknown one and makes nothing; refuses bad input", async () => {
      const before = (await listed()).groups.length;
      assertSameAsMissing(
        await call('createClipGroup', { title: 'Theirs', uuids: refs(clips[0], theirClip) }),
        await call('createClipGroup', { title: 'Theirs', uuids: refs(clips[0], nobodysUuid()) }),
      );
      assert.equal((await call('createClipGroup', { uuids: refs(theirClip) })).json.errorMsg, 'Saved clip not found');
      assert.match((await call('createClipGroup', { uuids: [{ eventUuid: clips[0], alertUuid: clips[0] }] })).json.errorMsg, /either/);
      assert.equal((await call('createClipGroup', { title: 'x'.repeat(257) })).status, 400);
      assert.equal((await call('createClipGroup', { uuids: [{ eventUuid: 'not-a-uuid' }] })).status, 400);
      assert.equal((await listed()).groups.length, before, 'nothing was made');
      expectDenied(
        await call(
          'createClipGroup',
          { title: 'Read only' },
          { key: { ...site, org: { ...site.org, apiKey: await readOnlyKey(server, site.org) } }.org.apiKey },
        ),
      );
    });

    it("answers another organization's group as an unknown one", async () => {
      const theirs = (await ok('createClipGroup', { title: 'Theirs', uuids: refs(theirClip) }, { key: other.org.apiKey })).uuid;
      assertSameAsMissing(await call('getClipGroupDetails', { uuid: theirs }), await call('getClipGroupDetails', { uuid: nobodysUuid() }));
      assert.equal((await call('getClipGroupDetails', { uuid: theirs })).json.errorMsg, 'Clip group not found');
    });
  });

  describe('updateClipGroup, deleteClipGroup', () => {
    it('renames a group and replaces its clips, announced; another organization changes nothing', async () => {
      const { uuid } = await ok('createClipGroup', { title: 'Gate', uuids: refs(clips[0]) });
      const theirs = (await ok('createClipGroup', { title: 'Their gate', uuids: refs(theirClip) }, { key: other.org.apiKey })).uuid;
      const changes = await changesDuring(server, () => ok('updateClipGroup', { uuid, title: 'Front gate', uuids: refs(clips[2], clips[1]) }));
      const change = changes.find((c) => c.entity === 'CLIP_GROUP' && c.entityUuid === uuid);
      assert.deepEqual([change?.type, (change?.update as any).title, (change?.update as any).clipCount], ['UPDATE', 'Front gate', 2]);
      let group = await details(uuid);
      assert.deepEqual([group.title, group.description, group.clips.map((c: any) => c.uuid)], ['Front gate', null, [clips[2], clips[1]]]);

      await ok('updateClipGroup', { uuid, description: 'Night shift' });
      group = await details(uuid);
      assert.deepEqual([group.title, group.description, group.clipCount], ['Front gate', 'Night shift', 2], 'without uuids the clips stay');
      await ok('updateClipGroup', { uuid, uuids: [] });
      assert.equal((await details(uuid)).clipCount, 0);

      assertSameAsMissing(
        await call('updateClipGroup', { uuid: theirs, title: 'Hijacked' }),
        await call('updateClipGroup', { uuid: nobodysUuid(), title: 'Hijacked' }),
      );
      assertSameAsMissing(
        await call('updateClipGroup', { uuid, uuids: refs(clips[0], theirClip) }),
        await call('updateClipGroup', { uuid, uuids: refs(clips[0], nobodysUuid()) }),
      );
      assert.deepEqual([(await details(uuid)).clipCount, (await details(theirs, other)).title], [0, 'Their gate'], 'nothing changed');
      assert.equal((await call('updateClipGroup', { title: 'No uuid' })).status, 400);
    });

    it('deletes a group, announced, and keeps its clips; another organization cannot', async () => {
      const { uuid } = await ok('createClipGroup', { title: 'Doomed', uuids: refs(clips[0]) });
      const theirs = (await ok('createClipGroup', { title: 'Theirs', uuids: refs(theirClip) }, { key: other.org.apiKey })).uuid;
      assertSameAsMissing(await call('deleteClipGroup', { uuid: theirs }), await call('deleteClipGroup', { uuid: nobodysUuid() }));
      assert.equal((await details(theirs, other)).clipCount, 1);
      const changes = await changesDuring(server, () => ok('deleteClipGroup', { uuid }));
      const change = changes.find((c) => c.entity === 'CLIP_GROUP' && c.entityUuid === uuid);
      assert.deepEqual([change?.type, (change?.update as any).title], ['DELETE', 'Doomed']);
      assert.equal((await call('getClipGroupDetails', { uuid })).json.errorMsg, 'Clip group not found');
      assert.ok(!(await listed()).groups.some((g: any) => g.uuid === uuid));
      assert.equal((await ok('getSavedClipDetails', { clipUuid: clips[0] })).savedClip.uuid, clips[0], 'the clip stays');
    });

    it('a deleted saved clip leaves its groups: their clip count drops, each announced', async () => {
      const doomed = (await simulate(server, 'clip', { camera: site.lobby, bytes: '1000', at: String(T0) })).savedClip.uuid;
      const a = (await ok('createClipGroup', { title: 'A', uuids: refs(doomed, clips[0]) })).uuid;
      const b = (await ok('createClipGroup', { title: 'B', uuids: refs(doomed) })).uuid;
      const changes = await changesDuring(server, () => ok('deleteSavedClip', { savedClipUuid: doomed }));
      const updates = changes.filter((c) => c.entity === 'CLIP_GROUP' && c.type === 'UPDATE');
      assert.deepEqual(
        updates.map((c) => [c.entityUuid, (c.update as any).clipCount]).sort(),
        [
          [a, 1],
          [b, 0],
        ].sort(),
      );
      assert.deepEqual(
        (await details(a)).clips.map((c: any) => c.uuid),
        [clips[0]],
      );
      const summaries = (await listed()).clipGroups;
      assert.deepEqual(
        [a, b].map((g) => summaries.find((s: any) => s.uuid === g).clipCount),
        [1, 0],
      );
    });
  });
});
