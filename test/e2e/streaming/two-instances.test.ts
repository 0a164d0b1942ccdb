import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Bus } from '../../../src/bus/bus.js';
import { systemActor } from '../../../src/deps.js';
import { createApiKey, revokeApiKey } from '../../../src/domains/orgs/service.js';
import { write } from '../../../src/bus/write.js';
import { rawChange } from '../../helpers/changes.js';
import { postgresProblem, REDIS_TEST_URL } from '../../helpers/databases.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { raiseChanges, startStreamWith, StrictClient } from './helpers.js';

const pgProblem = await postgresProblem();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe(
  'stream across two instances sharing PostgreSQL and Redis',
  { skip: pgProblem && !process.env.CI ? `PostgreSQL unreachable: ${pgProblem}` : false },
  () => {
    let a: TestServer;
    let b: TestServer;
    let org: TestOrg;
    let topic: string;
    const subscribe = async (server: TestServer, url = server.gatehouse.urls.ws) => {
      const c = await StrictClient.connect(url, { key: org.apiKey, scheme: 'api-token' });
      c.send(`SUBSCRIBE\nid:0\ndestination:${topic}\nreceipt:s\n\n\0`);
      assert.equal((await c.next()).command, 'RECEIPT');
      return c;
    };
    const bodies = (c: StrictClient) => c.frames.filter((f) => f.command === 'MESSAGE').map((f) => JSON.parse(f.body));
    const entityUuids = (c: StrictClient) => bodies(c).map((m) => m.entityUuid as string);
    const logOrder = async () =>
      (await a.gatehouse.deps.store.db.selectFrom('change_events').select('entity_uuid').where('org_uuid', '=', org.orgUuid).orderBy('id').execute()).map(
        (r) => r.entity_uuid,
      );

    before(async () => {
      a = await startTestServer('postgres', { busUrl: REDIS_TEST_URL });
      b = await startTestServer('postgres', { busUrl: REDIS_TEST_URL, databaseUrl: a.config.databaseUrl });
      org = await a.createOrg('Shared');
      topic = `/topic/change/${org.orgUuid}`;
    });
    after(async () => {
      // b first: a owns (and drops) the shared database.
      await b.close();
      await a.close();
    });

    it('delivers a change raised on one instance to a subscriber of the other', async () => {
      const onB = await subscribe(b);
      await raiseChanges(a.gatehouse.deps, org.orgUuid, [{ entity: 'CAMERA', entityUuid: 'raised-on-a', type: 'CREATE', update: { name: 'Lobby' } }]);
      await onB.until(() => bodies(onB).length === 1, 'the change on instance b');
      assert.deepEqual(bodies(onB)[0], {
        entity: 'CAMERA',
        entityUuid: 'raised-on-a',
        type: 'CREATE',
        deviceUuid: null,
        timestampMs: bodies(onB)[0].timestampMs,
        update: { name: 'Lobby' },
      });
      onB.close();
    });

    it('delivers every change, raised concurrently on both instances, in change-log order on both', async () => {
      const onA = await subscribe(a);
      const onB = await subscribe(b);
      const writes = Array.from({ length: 40 }, (_, i) =>
        raiseChanges((i % 2 ? a : b).gatehouse.deps, org.orgUuid, [{ entityUuid: `c${i}-0` }, { entityUuid: `c${i}-1` }]),
      );
      await Promise.all(writes);
      for (const c of [onA, onB]) await c.until(() => bodies(c).length === 80, '80 changes', 10_000);
      const log = (await logOrder()).slice(-80);
      assert.deepEqual(entityUuids(onA), log);
      assert.deepEqual(entityUuids(onB), log);
      onA.close();
      onB.close();
    });

    it('reads a change whose announcement was lost from the change log, and delivers it in order', async () => {
      const onB = await subscribe(b);
      const silentBus = { ...a.gatehouse.deps.bus, publish: async () => {} } as Bus;
      await write({ ...a.gatehouse.deps, bus: silentBus }, systemActor(org.orgUuid, 'test.silent'), async (w) => {
        w.change(rawChange({ entity: 'DOOR', entityUuid: 'never-announced', type: 'UPDATE', update: {} }));
      });
      await raiseChanges(a.gatehouse.deps, org.orgUuid, [{ entityUuid: 'announced' }]);
      await onB.until(() => bodies(onB).length === 2, 'both changes', 5000);
      assert.deepEqual(entityUuids(onB), ['never-announced', 'announced']);
      onB.close();
    });

    /** Commits a change on instance a now and announces it once `release` resolves (a slow bus, or one lost for a while). */
    async function lateAnnouncement(entityUuid: string, release: Promise<void>): Promise<{ announced: Promise<void> }> {
      const deps = a.gatehouse.deps;
      const held: Array<() => Promise<void>> = [];
      const lateBus = {
        ...deps.bus,
        publish: async (name: string, payload: unknown) => void held.push(() => deps.bus.publish(name as 'change', payload as never)),
      } as Bus;
      await write({ ...deps, bus: lateBus }, systemActor(org.orgUuid, 'test.late'), async (w) => {
        w.change(rawChange({ entity: 'DOOR', entityUuid, type: 'UPDATE', update: {} }));
      });
      // Wrapped: an async function returning a promise would wait for it.
      return {
        announced: release.then(async () => {
          for (const publish of held) await publish();
        }),
      };
    }

    it('holds a change announced before its predecessor, within the gap window, and delivers both in position order', async () => {
      // A wide window, so that a loaded machine does not turn this into the read-through case below.
      const wide = await startStreamWith(b, { gapWaitMs: 2000 });
      const onB = await subscribe(b, wide.url);
      let release!: () => void;
      const { announced } = await lateAnnouncement('first-position', new Promise<void>((r) => (release = r)));
      await raiseChanges(b.gatehouse.deps, org.orgUuid, [{ entityUuid: 'second-position' }]);
      await sleep(30);
      assert.equal(bodies(onB).length, 0, 'the later position waits for the earlier one');
      release();
      await announced;
      await onB.until(() => bodies(onB).length === 2, 'both changes');
      assert.deepEqual(entityUuids(onB), ['first-position', 'second-position']);
      assert.deepEqual(
        onB.frames
          .filter((f) => f.command === 'MESSAGE')
          .map((f) => Number(f.headers.position))
          .map((p, i, all) => p - all[0]!),
        [0, 1],
      );
      onB.close();
      await wide.close();
    });

    it('does not wait forever: past the gap window the predecessor is read from the log, in order; its late announcement is not delivered twice', async () => {
      const onB = await subscribe(b);
      let release!: () => void;
      const { announced } = await lateAnnouncement('announced-late', new Promise<void>((r) => (release = r)));
      await raiseChanges(b.gatehouse.deps, org.orgUuid, [{ entityUuid: 'announced-at-once' }]);
      await onB.until(() => bodies(onB).length === 2, 'both changes, after the gap window', 3000);
      assert.deepEqual(entityUuids(onB), ['announced-late', 'announced-at-once']);
      release();
      await announced;
      await raiseChanges(b.gatehouse.deps, org.orgUuid, [{ entityUuid: 'after' }]);
      await onB.until(() => bodies(onB).length >= 3, 'the next change');
      await sleep(50);
      assert.deepEqual(entityUuids(onB), ['announced-late', 'announced-at-once', 'after']);
      onB.close();
    });

    it("revokes a key on both at once: b closes the key's session and b's REST, which had cached the key, refuses it", async () => {
      const { apiKey, keyId } = await createApiKey(a.gatehouse.deps, { orgUuid: org.orgUuid, kind: 'standard' });
      // A stream of b that checks keys once a minute: only the announcement on Redis can close its session in time.
      const slowCheck = await startStreamWith(b, { keyCheckMs: 60_000 });
      try {
        const onB = await StrictClient.connect(slowCheck.url, { key: apiKey, scheme: 'api-token' });
        const cachedAt = Date.now();
        assert.equal((await b.call('/api/org/getOrgV2', {}, { key: apiKey })).status, 200, 'b has the key in its cache now');
        await revokeApiKey(a.gatehouse.deps, { orgUuid: org.orgUuid, keyId });
        let status = 200;
        while (status === 200 && Date.now() - cachedAt < 2500) {
          await sleep(20);
          status = (await b.call('/api/org/getOrgV2', {}, { key: apiKey })).status;
        }
        assert.equal(status, 403, "refused well inside the 5 s TTL of b's cache entry: b forgot the key on the announcement");
        assert.equal((await onB.expectErrorAndClose(3000)).headers.message, 'API token revoked');
      } finally {
        await slowCheck.close();
      }
    });
  },
);
